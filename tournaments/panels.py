"""The "next match" panel on a player's page, added through TournamentsConfig.panels."""

from django.template.loader import render_to_string

from base.live import group_name
from games.matchplay.hooks import MatchPlace
from games.models.matches import MatchContext
from tournaments import selectors


def player_panel(request, player):
    """The player's next tournament matches; on their own page also their entry fees (owed and paid)."""
    tables = selectors.next_matches(player=player)
    own = request.user.is_authenticated and player.user_id == request.user.pk
    fees = selectors.player_fees(player=player) if own else []
    if not tables and not fees:
        return None
    context = {"player": player, "tables": tables, "fees": fees}
    return render_to_string("tournaments/_player_panel.html", context, request)


def my_home(request, _obj):
    """The signed-in user's next bracket matches and events on their home page, and the events they direct."""
    context = {
        "tables": selectors.my_next_tables(user=request.user),
        "entries": selectors.my_entries(user=request.user),
        "waiting": selectors.my_spots(user=request.user),
        "directed": selectors.directed_events(user=request.user)
        if getattr(request.user, "directs_open_events", False)
        else [],
    }
    return render_to_string("tournaments/_my_home.html", context, request)


def match_panel(request, match):
    """On a tournament match's page: the partners of a doubles or consultation match, and a bracket match's
    clock rule and time control (nothing else; a club-night or casual match costs no query)."""
    if match.context != MatchContext.TOURNAMENT:
        return None
    parts = []
    sides = selectors.match_sides(match=match)
    if sides is not None:
        parts.append(render_to_string("tournaments/_match_pairs.html", {"sides": sides, "match": match}, request))
    flight = selectors.match_flight(match=match)
    if flight is not None and flight.time_control():
        parts.append(render_to_string("tournaments/_match_clock.html", {"flight": flight}, request))
    return "".join(parts) or None


def match_places(matches) -> dict[int, MatchPlace]:
    """games.matchplay.hooks.place_matches: where each tournament match of a list is played, for its result card
    ("Friday Swiss · Main · Round 3") and for the live push of its events (its flight's pages and its event's
    dashboard). One query for the list; none when no match of it is a tournament's."""
    spots = selectors.match_spots(m.pk for m in matches if m.context == MatchContext.TOURNAMENT)
    return {pk: MatchPlace(spot_label(spot), spot_groups(spot)) for pk, spot in spots.items()}


def spot_label(spot: selectors.MatchSpot) -> str:
    return " · ".join(part for part in (spot.event, spot.flight, spot.label) if part)


def spot_groups(spot: selectors.MatchSpot) -> tuple[str, ...]:
    return (group_name("flight", spot.flight_id), group_name("event", spot.event_id))
