"""Writes for event points: a director chooses the scheme; points are awarded when the event finishes and
recomputed whenever a result of one of its flights changes (tournaments.hooks.on_flight_results_changed).

Places come from the main flight (tournaments.selectors.flight_placements): a knockout's elimination places
(a third-place match and a playoff for 2nd included), a Swiss's, round robin's or triple elimination's final
standings, a groups flight's rank in the group, and for a flight with a cut the cut's knockout for the players
who reached it. USBGF match-win points count every match the player won in the event's flights that was played
out, a bracket slot's or a round's table alike (docs/tournaments.md, "Event points by format").
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from base.compiled import CompiledRead
from base.errors import Invalid, NotAllowed
from base.locks import lock
from games.models.matches import Match, MatchStatus
from ratings.core import points as core
from ratings.models import EventPoints, PointsAward, PointsScheme
from ratings.selectors import player_ratings
from tournaments.models import Event, EventStatus, FlightKind
from tournaments.selectors import flight_placements

MAX_WEIGHT = 1000  # far above any federation's weights; keeps points finite


@transaction.atomic
def set_event_scheme(
    *,
    actor,
    event,
    scheme: str,
    event_weight: float = 1.0,
    division_weight: float = 1.0,
    split_ties: bool = False,
    division_factor: float = 1.0,
) -> EventPoints:
    """Choose (or change) the event's points scheme; a finished event's points are awarded again at once."""
    if not event.user_is_director(actor):
        raise NotAllowed(_("Only a director of this event can choose its points scheme."))
    if scheme not in PointsScheme.values:
        raise Invalid(_("Choose gammonpoints, usbgf or abt."), field="scheme")
    for field, value in (
        ("event_weight", event_weight),
        ("division_weight", division_weight),
        ("division_factor", division_factor),
    ):
        if not value > 0:  # NaN too
            raise Invalid(_("Give a weight above 0, e.g. 1."), field=field)
        if not value <= MAX_WEIGHT:  # infinity too: it would overflow the points
            raise Invalid(_("A weight is at most %(max)s.") % {"max": MAX_WEIGHT}, field=field)
    row, _created = lock(EventPoints.objects).get_or_create(event=event, defaults={"scheme": scheme})
    row.scheme, row.event_weight, row.division_weight = scheme, event_weight, division_weight
    row.split_ties, row.division_factor = split_ties, division_factor
    row.save()
    award_event_points(event=event)
    return row


# A running event with no awards to take back: every result asks, so it is compiled once per process.
_RUNNING_WITHOUT_AWARDS = CompiledRead(
    lambda event_id: Event.objects.filter(~Exists(PointsAward.objects.filter(event_id=OuterRef("pk"))), pk=event_id)
    .exclude(status=EventStatus.FINISHED)
)


def on_flight_results_changed(flight) -> None:
    """tournaments.hooks callback, inside the tournaments service's transaction. Only the event's id is taken
    from the caller: award_event_points reads the event's state from the database itself.

    Most results leave a running event running and it has no awards to take back: then nothing is written and
    the scheme row is not locked, so the results of one event's flights do not wait for each other here. Reads
    see this transaction's own writes: the result that finishes the event (or reopens it) takes the locked path."""
    if _RUNNING_WITHOUT_AWARDS.exists(flight.event_id):
        return
    award_event_points(event=flight.event)


def _main_flight(event):
    flights = list(event.flights.order_by("order", "id"))
    return next((f for f in flights if f.kind == FlightKind.MAIN), flights[0] if flights else None)


def _places(flight) -> dict[int, int]:
    places: dict[int, int] = {}
    for placement in flight_placements(flight=flight):
        if placement.place is not None:
            best = places.get(placement.player_id)
            places[placement.player_id] = placement.place if best is None else min(best, placement.place)
    return places


def _match_wins(event) -> dict[int, list[int]]:
    """Lengths of the matches each player won in the event, played out (forfeits and walkovers do not count):
    a bracket's matches hang on slots, a round-based flight's on its tables (pairings). One query."""
    wins: dict[int, list[int]] = {}
    matches = Match.objects.filter(
        Q(tournament_slot__flight__event=event) | Q(tournament_pairing__flight__event=event),
        status=MatchStatus.FINISHED,
        rated=True,
        winner__isnull=False,
    ).values_list("winner_id", "length")
    for winner_id, length in matches:
        wins.setdefault(winner_id, []).append(length)
    return wins


@transaction.atomic
def award_event_points(*, event) -> list[PointsAward]:
    """Replace the event's awards: none unless it is finished, then by its scheme. Safe to run again.

    The one place awards are derived, always from the stored state: a caller's event object may be stale
    (an override that reopens a finished event marks it running with a database-only update), and awards
    computed from a stale "finished" would count a field with its reopened places missing. An event that
    leaves FINISHED loses its awards here."""
    # Race: two flights of one event reporting at once would both delete and insert the event's awards; the
    # scheme row lock makes the second wait and write over the first with the same (or newer) numbers.
    row = lock(EventPoints.objects).filter(event=event).first()
    if row is None:
        return []
    event = Event.objects.get(pk=event.pk)  # read after the lock: the state a concurrent change committed
    PointsAward.objects.filter(event=event).delete()
    if event.status != EventStatus.FINISHED:
        return []
    flight = _main_flight(event)
    places = _places(flight) if flight is not None else {}
    if not places:
        return []
    explanations: dict[int, str] = {}
    if row.scheme == PointsScheme.GAMMONPOINTS:
        if row.strength_of_field is None:
            row.strength_of_field = core.strength_of_field(list(player_ratings(player_ids=places).values()))
        points = core.gammonpoints(places, dict.fromkeys(places, row.strength_of_field))
        for player, place in places.items():
            explanations[player] = _("Place %(place)s of %(n)s, strength of field %(sof).1f") % {
                "place": place, "n": len(places), "sof": row.strength_of_field,
            }  # fmt: skip
    elif row.scheme == PointsScheme.USBGF:
        points = core.usbgf_placement(
            places, event_weight=row.event_weight, division_weight=row.division_weight, split_ties=row.split_ties
        )
        for player, lengths in _match_wins(event).items():
            if player in points:
                wins = sum(core.usbgf_match_win(n, event_weight=row.event_weight,
                                                division_weight=row.division_weight) for n in lengths)  # fmt: skip
                explanations[player] = _("Placement %(placement).2f + %(count)s match wins %(wins).2f") % {
                    "placement": points[player], "count": len(lengths), "wins": wins,
                }  # fmt: skip
                points[player] += wins
    else:
        points = core.abt_points(places, division_factor=row.division_factor)
        for player, place in places.items():
            explanations[player] = _("Place %(place)s, pool %(pool).2f") % {
                "place": place, "pool": len(places) * row.division_factor,
            }  # fmt: skip
    awards = PointsAward.objects.bulk_create(
        PointsAward(
            event=event,
            club_id=event.club_id,
            player_id=player,
            scheme=row.scheme,
            awarded_on=event.ends_on,
            place=places[player],
            points=value,
            explanation=explanations.get(player, "")[:300],
        )
        for player, value in points.items()
    )
    row.awarded_at = timezone.now()
    row.save(update_fields=["strength_of_field", "awarded_at", "updated_at"])
    return awards
