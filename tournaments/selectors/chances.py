"""Win and place chances of a flight's entrants (tournaments.core.chances), computed once per flight version and
kept in the shared cache: every viewer of the bracket, the prize list and a Calcutta reads the same figures, and a
result (which adds a FlightChange row) makes the next reader compute them afresh."""

from __future__ import annotations

from dataclasses import dataclass, field

from base import cache
from clubs.models import public_name_of
from ratings.selectors import player_ratings
from tournaments.core import chances as core
from tournaments.core.draw import DrawEntrant, bracket_size
from tournaments.core.errors import BracketError
from tournaments.core.layout import W, log2
from tournaments.format_registry import FORMATS
from tournaments.models import (
    SCORED_RESULTS,
    DrawStatus,
    Entry,
    EntryStatus,
    Flight,
    FlightKind,
    Pairing,
    Seeding,
    Slot,
    SlotResult,
    TeamKind,
)
from tournaments.selectors.brackets import version_of
from tournaments.selectors.rounds import games_of, tiebreak_order

DECIDED = (SlotResult.PLAYED, SlotResult.BYE, SlotResult.WALKOVER, SlotResult.DOUBLE_FORFEIT, SlotResult.EMPTY)


@dataclass(frozen=True)
class EntrantChances:
    entry_id: int
    player_id: int
    name: str
    rating: float
    places: dict[int, float]  # place -> chance

    @property
    def first(self) -> float:
        return self.places.get(1, 0.0)


@dataclass(frozen=True)
class FlightChances:
    """The figures of one flight version: each entrant's place chances (best chance of 1st first), how many are
    expected to hold each place, and each open bracket match's two chances by slot id."""

    entrants: list[EntrantChances]
    holders: dict[int, int]
    columns: list[int]  # the places the page shows: the first four there are (a knockout: 1, 2, 3, 5)
    matches: dict[int, tuple[float, float]] = field(default_factory=dict)
    method: str = "exact"

    def of_entry(self, entry_id: int) -> EntrantChances | None:
        return next((e for e in self.entrants if e.entry_id == entry_id), None)


def flight_chances(*, flight: Flight, bracket: list | None = None, entries: list | None = None) -> FlightChances | None:
    """The flight's chances, or None where none are computed: a team flight, or a shape other than a
    single-elimination bracket (double elimination, a fed flight, a third-place match or a
    playoff for 2nd, a flight played in rounds). Cached per flight version (on a hit no query when the flight
    carries its version). The bracket page passes the rounds and entries it has read (selectors.bracket,
    flight_entries), so a miss there costs only the ratings' query; otherwise the slots' query too. Before the
    draw is released the figures are simulated (`_simulate_undrawn`), exact after it."""
    robin = _single_round_robin(flight)
    if not robin and not _computable(flight):
        return None
    born = int(flight.event.created_at.timestamp() * 1_000_000)
    key = f"chances:{flight.pk}:{born}:{version_of(flight)}"
    if robin:
        return cache.get_or_build(key, lambda: _simulate_robin(flight))
    if flight.draw_status != DrawStatus.RELEASED:
        return cache.get_or_build(key, lambda: _simulate_undrawn(flight))
    return cache.get_or_build(key, lambda: _compute(flight, bracket, entries))


UNDRAWN_RUNS = 2000  # ±1 percentage point (one standard error) on a chance near 50 %
UNDRAWN_MATCHES = 64_000  # the work of one miss: fewer runs for a large field (128 entrants: 500 runs, ~0.4 s)


def _simulate_undrawn(flight: Flight) -> FlightChances | None:
    """Before the draw is released: the flight's entries drawn as the flight will draw them (its seeding) and
    played out UNDRAWN_RUNS times with a seed of the flight's id and version (the same figures for everyone)."""
    rows = list(
        Entry.objects.filter(flight=flight)
        .exclude(status=EntryStatus.WITHDRAWN)
        .order_by("pk")
        .annotate(shown=public_name_of("player__", club="flight__event__club__"))
        .values_list("pk", "player_id", "shown", "is_late")
    )
    if len(rows) < 2:
        return None
    ratings_by_player = player_ratings(player_ids={player for _e, player, _n, _l in rows})
    entrants = [DrawEntrant(e, rating=ratings_by_player[player], on_time=not late) for e, player, _n, late in rows]
    if bracket_size(len(entrants)) - len(entrants) > sum(d.on_time for d in entrants):
        entrants = [DrawEntrant(d.key, d.rating) for d in entrants]  # as the draw does with too few on time
    rounds = log2(bracket_size(len(entrants)))
    lengths = [flight.length_for(r, is_final=r == rounds) for r in range(1, rounds + 1)]
    sample = core.undrawn_knockout_sample(entrants, lengths, seeded=flight.seeding == Seeding.RATING)
    runs = max(500, min(UNDRAWN_RUNS, UNDRAWN_MATCHES // len(entrants)))
    places = core.simulate_places(sample, runs=runs, seed=flight.pk * 1_000_003 + version_of(flight))
    names = {e: (player, name) for e, player, name, _late in rows}
    ratings = {d.key: d.rating for d in entrants}
    return _figures(places, names, ratings, {}, method="simulated")


ROBIN_RUNS = 1000


def _single_round_robin(flight: Flight) -> bool:
    """A round robin of one group (not groups), its schedule numbered: its rest can be simulated."""
    return FORMATS[flight.format].chances_by_schedule and flight.team_kind != TeamKind.TEAM


def _simulate_robin(flight: Flight) -> FlightChances | None:
    """The rest of the schedule played out ROBIN_RUNS times with a seed of the flight's id and version, ranked
    by the flight's standings (its tie-breaks); the places are the standings' ranks."""
    numbered = Entry.objects.filter(flight=flight, draw_position__isnull=False, group=0).order_by("draw_position")
    rows = list(
        numbered.annotate(shown=public_name_of("player__", club="flight__event__club__")).values_list(
            "pk", "player_id", "shown"
        )
    )
    if len(rows) < 2:
        return None
    played = games_of(Pairing.objects.filter(flight=flight, result__in=SCORED_RESULTS, group=0))
    ratings_by_player = player_ratings(player_ids={player for _e, player, _n in rows})
    ratings = {e: ratings_by_player[player] for e, player, _n in rows}
    sample = core.round_robin_sample(
        [e for e, _p, _n in rows],
        played=played,
        ratings=ratings,
        length=flight.length,
        cycles=flight.cycles,
        order=tiebreak_order(flight),
    )
    places = core.simulate_places(sample, runs=ROBIN_RUNS, seed=flight.pk * 1_000_003 + version_of(flight))
    names = {e: (player, name) for e, player, name in rows}
    return _figures(places, names, ratings, {}, method="simulated")


def _computable(flight: Flight) -> bool:
    return (
        not flight.is_round_based
        and flight.team_kind != TeamKind.TEAM
        and flight.kind not in (FlightKind.DOUBLE_ELIMINATION, FlightKind.SIDE_POOL)
        and flight.source_id is None
        and not flight.third_place
        and not flight.playoff_second
    )


def _compute(flight: Flight, bracket: list | None, entry_rows: list | None) -> FlightChances | None:
    names: dict[int, tuple[int, str]] = {}  # entry -> (player, name)
    if bracket is None:
        rows = (
            Slot.objects.filter(flight=flight, section=W)
            .order_by("round", "position")
            .annotate(
                a_shown=public_name_of("entry_a__player__", club="flight__event__club__"),
                b_shown=public_name_of("entry_b__player__", club="flight__event__club__"),
            )
            .values_list(
                "pk",
                "round",
                "position",
                "entry_a_id",
                "entry_b_id",
                "result",
                "winner_id",
                "entry_a__player_id",
                "a_shown",
                "entry_b__player_id",
                "b_shown",
            )
        )
        slots = []
        for pk, r, p, a, b, result, winner, a_player, a_name, b_player, b_name in rows:
            slots.append((pk, r, p, a, b, result, winner))
            if a is not None:
                names[a] = (a_player, a_name)
            if b is not None:
                names[b] = (b_player, b_name)
    else:
        slots = [
            (s.pk, s.round, s.position, s.entry_a_id, s.entry_b_id, s.result, s.winner_id)
            for r in bracket
            if r.section == W
            for s in r.slots
        ]
        names = {e.pk: (e.player_id, e.name) for e in entry_rows or ()}
    first = [s for s in slots if s[1] == 1]
    if not first:
        return None
    try:
        rounds = log2(2 * len(first))
    except BracketError:
        return None
    line: list[int | None] = []
    for _pk, _r, _p, a, b, _result, _winner in first:
        line += [a, b]
    entries = names
    line = [e if e in entries else None for e in line]
    ratings_by_player = player_ratings(player_ids={entries[e][0] for e in line if e is not None})
    ratings = {e: ratings_by_player[entries[e][0]] for e in line if e is not None}
    lengths = [flight.length_for(r, is_final=r == rounds) for r in range(1, rounds + 1)]
    decided = {(r, p): winner for _pk, r, p, _a, _b, result, winner in slots if result in DECIDED}
    knockout = core.Knockout(line=line, decided=decided, lengths=lengths, ratings=ratings)
    places = core.knockout_places(knockout)
    matches = {
        pk: core.match_chances(ratings[a], ratings[b], flight.length_for(r, is_final=r == rounds))
        for pk, r, _p, a, b, result, _w in slots
        if result not in DECIDED and a in ratings and b in ratings
    }
    return _figures(places, entries, ratings, matches, method="exact")


def _figures(places: core.Places, entries: dict, ratings: dict, matches: dict, *, method: str) -> FlightChances:
    holders = {place: round(n) for place, n in core.holders(places).items()}
    entrants = sorted(
        (EntrantChances(e, entries[e][0], entries[e][1], ratings[e], row) for e, row in places.items()),
        key=lambda c: (-c.first, -sum(p for place, p in c.places.items() if place <= 3), c.name),
    )
    columns = sorted({place for row in places.values() for place in row})[:4]  # a knockout: 1, 2, 3, 5
    return FlightChances(entrants=entrants, holders=holders, columns=columns, matches=matches, method=method)
