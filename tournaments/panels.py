"""The "next match" panel on a player's page, added through TournamentsConfig.panels."""

from django.template.loader import render_to_string

from games.models.matches import MatchContext
from tournaments import selectors


def player_panel(request, player):
    slots = selectors.next_matches(player=player)
    if not slots:
        return None
    return render_to_string("tournaments/_player_panel.html", {"player": player, "slots": slots}, request)


def my_home(request, _obj):
    """The signed-in user's next bracket matches and events on their home page, and the events they direct."""
    context = {
        "slots": selectors.my_next_slots(user=request.user),
        "entries": selectors.my_entries(user=request.user),
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
