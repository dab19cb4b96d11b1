"""What every part of the tournament services uses: the flight lock, the flight's version, and the results that
count as decided (the core's bracket errors leave as they are: the API and the pages read them by code). Who may
do what is in tournaments/permissions.py."""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models import Q, QuerySet

from base.locks import lock
from games.models.matches import MatchContext, MatchOutcome, MatchStatus
from tournaments.core import consequences, teams
from tournaments.models import Entry, EntryMember, Event, Flight, FlightChange, Pairing, Slot, SlotResult, TeamBoard

# The core's result -> the slot's stored result.
SLOT_RESULT = {
    consequences.PLAYED: SlotResult.PLAYED,
    consequences.WALKOVER: SlotResult.WALKOVER,
    consequences.BYE: SlotResult.BYE,
    consequences.DOUBLE_FORFEIT: SlotResult.DOUBLE_FORFEIT,
    consequences.EMPTY: SlotResult.EMPTY,
}
DECIDED = set(SLOT_RESULT.values())


def lock_flight(flight: Flight) -> Flight:
    """The flight under its row lock, for a write to its entries, its draw or its settings; every such write
    changes what the flight's pages show, so the lock also counts a new version. Check the actor's rights
    before: a refused request writes nothing."""
    # Race: two registrations or a registration and the draw at once would both read the same entries and
    # the same free positions; the flight row lock serialises them.
    locked = lock(Flight.objects, of=("self",)).select_related("event__club").get(pk=flight.pk)
    flights_changed([locked.pk])
    return locked


def lock_event(event: Event | int) -> Event:
    """The event under its row lock: the one lock every change that counts or hands out places against the
    event's cap takes (tournaments.services.waiting), before any of its flights' rows (base.locks, LOCK_ORDER)."""
    pk = event if isinstance(event, int) else event.pk
    return lock(Event.objects, of=("self",)).select_related("club").get(pk=pk)


def lock_places(flight: Flight) -> Flight:
    """`lock_flight` for a change to the flight's places (a registration, a withdrawal, its waiting list): the
    event's row first (`lock_event`), then the flight's. Places are counted across the event when it has a cap,
    and the event is locked whether or not it has one, so a cap set at the same moment waits for the change and
    counts it. A path already holding a flight (a drop, a confirmation) must not call this: it hands the freed
    place over after its commit instead (`waiting.place_freed`)."""
    event = lock_event(flight.event_id)
    locked = lock_flight(flight)
    locked.event = event
    return locked


def flights_changed(flights: QuerySet | Iterable[int]) -> None:
    """Count a new version of these flights (a queryset of Flight, or their ids), inside the writing transaction.

    The bracket page and the bracket API are cached under the flight's version
    (tournaments.selectors.cached_rendering), so every write that changes what they show must end here; it is
    called from four places that every such write passes through: `lock_flight` (entries, draw, settings, payout
    template), the `flight_results_changed` hook (results, corrections, overrides, walkovers, the release),
    match play's `status_changed` hook (a bracket match starts) and the board calls (`services.boards`).
    Each change appends a `FlightChange` row (the version is their count), so two writers at once neither lose a
    count nor wait for each other, and the count commits or rolls back with the change it counts. A reader takes
    the version before the rows it renders, so a rendering stored under a version is never older than it."""
    ids = list(flights.values_list("pk", flat=True)) if isinstance(flights, QuerySet) else list(flights)
    FlightChange.objects.bulk_create([FlightChange(flight_id=pk) for pk in ids])


def flight_results_changed(flight: Flight) -> None:
    """tournaments.hooks.flight_results_changed: the flight's bracket changed."""
    flights_changed([flight.pk])


def match_status_changed(match) -> None:
    """games.matchplay.hooks.status_changed: the bracket and a round's tables show a tournament match's status
    (one query: the flights whose slot, round table or team board holds the match). Only the start needs it: a
    result's status change is followed by the result hook, which counts the version."""
    if match.context == MatchContext.TOURNAMENT and match.status == MatchStatus.IN_PROGRESS:
        holders = (
            Q(pk__in=Slot.objects.filter(match=match).values("flight_id"))
            | Q(pk__in=Pairing.objects.filter(match=match).values("flight_id"))
            | Q(pk__in=TeamBoard.objects.filter(match=match).values("flight_id"))
        )
        flights_changed(Flight.objects.filter(holders))


def event_changed(event) -> None:
    """The event's name or dates show on every flight's page."""
    flights_changed(Flight.objects.filter(event=event))


def team_result(boards) -> teams.TeamResult:
    """A team match from its TeamBoard rows (with their matches, board 1 first), as the core decides it: team A's
    player is each board match's player A; a board without a winner (open, annulled) is still open."""
    return teams.team_result(
        [
            teams.Board(None)
            if b.match.winner_id is None or b.match.outcome == MatchOutcome.ANNULLED
            else teams.Board(
                0 if b.match.winner_id == b.match.player_a_id else 1, b.match.score_a or 0, b.match.score_b or 0
            )
            for b in boards
        ]
    )


def display_names_switched(club) -> None:
    """A club allowed display names or stopped: a new version of every flight of its events, so the cached
    brackets and standings show its players by the names they now go by there."""
    flights_changed(Flight.objects.filter(event__club=club))


def player_renamed(player) -> None:
    """A player's name or display name changed: a new version of every flight they have an entry in (or play in
    a pair or team of), so the cached brackets and standings show the new name."""
    flights_changed(
        set(Entry.objects.filter(player=player).values_list("flight_id", flat=True))
        | set(EntryMember.objects.filter(player=player).values_list("flight_id", flat=True))
    )
