"""Win and place chances of a flight's entrants (tournaments.core.chances), computed once per flight version and
kept in the shared cache: every viewer of the bracket, the prize list and a Calcutta reads the same figures, and a
result (which adds a FlightChange row) makes the next reader compute them afresh."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import F, Value
from django.db.models.functions import Coalesce, NullIf

from base import cache
from clubs.models import public_name_of
from ratings.selectors import player_ratings
from tournaments.core import chances as core
from tournaments.core import chances_bracket, consequences, swiss
from tournaments.core.consequences import EMPTY_SIDE, PENDING_SIDE
from tournaments.core.draw import DrawEntrant, bracket_size
from tournaments.core.engine import SimEntry, SimEvent
from tournaments.core.errors import BracketError
from tournaments.core.layout import Key, Layout, W, log2
from tournaments.format_registry import FORMATS
from tournaments.models import (
    SCORED_RESULTS,
    DrawStatus,
    Entry,
    EntryMember,
    EntryStatus,
    FeedRule,
    Flight,
    FlightChange,
    FlightKind,
    FlightStatus,
    Pairing,
    PairingResult,
    Seeding,
    Slot,
    SlotResult,
)
from tournaments.selectors.brackets import version_of
from tournaments.selectors.rounds import games_of

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
    #: each place's expected number of holders, unrounded: a simulated format's place may be shared in some
    #: runs only, and its amount divided by this adds up to the line over the entrants (the prize list)
    expected_holders: dict[int, float] = field(default_factory=dict)

    def of_entry(self, entry_id: int) -> EntrantChances | None:
        return next((e for e in self.entrants if e.entry_id == entry_id), None)


def flight_chances(*, flight: Flight, bracket: list | None = None, entries: list | None = None) -> FlightChances | None:
    """The flight's chances, or None where none are computed (fewer than two entrants; a side pool, whose places
    are its members' results in the source; a cut before its stage has ended). Every format gives them through
    one method, `Format.place_chances` (tournaments.formats): exact for a released single-elimination knockout,
    simulated for the rest. Cached per flight version, and for a flight linked to others (fed by a flight's
    losers, or a main waiting for its consolation's winner) per version of each of them (on a hit no query when
    a lone flight carries its version). The bracket page passes the rounds and entries it has read
    (selectors.bracket, flight_entries), so a miss there costs only the ratings' query."""
    born = int(flight.event.created_at.timestamp() * 1_000_000)
    key = f"chances:{flight.pk}:{born}:{version_of(flight)}{_linked_versions(flight)}"
    return cache.get_or_build(
        key, lambda: FORMATS[flight.format].place_chances(flight, bracket=bracket, entries=entries)
    )


def _linked_versions(flight: Flight) -> str:
    """The versions of the flights a fed flight's (or a playoff's) figures also depend on: its sources, and the
    consolation whose winner plays a main's playoff for 2nd."""
    if flight.source_id is None and not flight.playoff_second:
        return ""
    linked = [f.pk for f in linked_flights(flight) if f.pk != flight.pk]
    return f":{FlightChange.objects.filter(flight_id__in=linked).count()}" if linked else ""


UNDRAWN_RUNS = 2000  # ±1 percentage point (one standard error) on a chance near 50 %
UNDRAWN_MATCHES = 64_000  # the work of one miss: fewer runs for a large field (128 entrants: 500 runs, ~0.4 s)


def _simulate_undrawn(flight: Flight) -> FlightChances | None:
    """Before the draw is released: the flight's entries drawn as the flight will draw them (its seeding) and
    played out UNDRAWN_RUNS times with a seed of the flight's id and version (the same figures for everyone)."""
    rows = list(
        Entry.objects.filter(flight=flight)
        .exclude(status=EntryStatus.WITHDRAWN)
        .order_by("pk")
        .annotate(
            shown=Coalesce(NullIf(F("team_name"), Value("")), public_name_of("player__", club="flight__event__club__"))
        )
        .values_list("pk", "player_id", "shown", "is_late")
    )
    if len(rows) < 2:
        return None
    rated = entry_ratings(flight=flight, entry_ids=[r[0] for r in rows], players={e: p for e, p, _n, _l in rows})
    entrants = [DrawEntrant(e, rating=rated[e], on_time=not late) for e, _player, _n, late in rows]
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


# --- a knockout of any shape -------------------------------------------------------------------------------


def knockout_chances(flight: Flight, bracket: list | None, entries: list | None) -> FlightChances | None:
    """A bracket flight's figures (tournaments.formats.knockout.Knockout.place_chances): before the release
    simulated over the flight's own draw; a released single-elimination bracket exact; any other shape (double
    elimination, a third-place match, a playoff for 2nd, a flight fed by another's losers) simulated event-wide.
    None for a side pool (its places are its members' results in the source) and a cut not yet filled."""
    if flight.kind == FlightKind.SIDE_POOL:
        return None
    linked = flight.source_id is not None and flight.feed_rule in LINKED_RULES
    if flight.draw_status != DrawStatus.RELEASED and not linked:
        return _simulate_undrawn(flight)
    layout = _layout_of(flight)
    if not linked and layout is not None and layout.sections.keys() == {W}:  # one tree: exact
        return _compute(flight, bracket, entries)
    return _simulate_event(flight)


LINKED_RULES = (FeedRule.FIRST_PLAYED, FeedRule.PROGRESSIVE, FeedRule.FRESH_DRAW)
BRACKET_BUDGET_MS = 800.0  # what one cache miss of an event-wide simulation may cost (core.runs_for)


def linked_flights(flight: Flight) -> list[Flight]:
    """The flights played out with this one: its sources up to the first with its own draw (root first), the
    flight, and the consolation whose winner plays its playoff for 2nd."""
    chain = [flight]
    while chain[0].source_id is not None and chain[0].feed_rule in LINKED_RULES:
        source = Flight.objects.filter(pk=chain[0].source_id).first()
        if source is None:
            break
        chain.insert(0, source)
    if flight.playoff_second:
        fed = Flight.objects.filter(source=flight, kind=FlightKind.CONSOLATION, feed_rule__in=LINKED_RULES).first()
        if fed is not None:
            chain.append(fed)
    return chain


def _layout_of(flight: Flight) -> Layout | None:
    if not flight.size:
        return None
    return Layout.for_flight(
        size=flight.size,
        double=flight.kind == FlightKind.DOUBLE_ELIMINATION,
        feed_rule=flight.feed_rule,
        feed_rounds=flight.feed_rounds,
        reset=flight.grand_final_reset,
        third_place=flight.third_place,
        playoff_second=flight.playoff_second,
    )


RESULT_OF = {
    SlotResult.PLAYED: consequences.PLAYED,
    SlotResult.WALKOVER: consequences.WALKOVER,
    SlotResult.BYE: consequences.BYE,
    SlotResult.DOUBLE_FORFEIT: consequences.DOUBLE_FORFEIT,
    SlotResult.EMPTY: consequences.EMPTY,
}


def _simulate_event(flight: Flight) -> FlightChances | None:
    """The linked flights as they stand, in the in-memory engine (tournaments.core.engine), played out by
    tournaments.core.chances_bracket with a seed of the flight's id and version. A fed flight's entrants are
    everyone who can still get into it (keyed by the entry they have in it, else by their entry in the nearest
    source); a player who may not get there has the rest of their chance as 'not there' (place 0)."""
    chain = linked_flights(flight)
    if chain[0].draw_status != DrawStatus.RELEASED:
        return None  # the first draw is not made: a fed flight has nobody yet
    event = SimEvent()
    layouts: dict[str, Layout] = {}
    slot_ids: dict[Key, int] = {}
    names: dict[int, tuple[int, str]] = {}
    entrant_of: dict[int, int] = {}  # player -> the entrant key of `flight`
    fresh: list[Flight] = []
    last_id = 0
    in_chain = {f.pk for f in chain}
    for f in chain:
        rule = f.feed_rule if f.source_id in in_chain and f.feed_rule in LINKED_RULES else None
        kind = "double" if f.kind == FlightKind.DOUBLE_ELIMINATION else "fed" if rule in FED_RULES else "knockout"
        sim = event.add_flight(
            str(f.pk),
            kind,
            source=str(f.source_id) if rule else None,
            rule=rule,
            feed_rounds=f.feed_rounds,
            reset=f.grand_final_reset,
            third_place=f.third_place,
        )
        sim.rule = rule  # a flight with its own draw has no feed rule in the engine
        sim.layout = _layout_of(f)
        sim.finished = f.status == FlightStatus.FINISHED
        if sim.layout is not None:
            layouts[sim.name] = sim.layout
            sim.sides = {key: [PENDING_SIDE, PENDING_SIDE] for key in sim.layout.slot_keys()}
        elif rule == FeedRule.FRESH_DRAW:
            fresh.append(f)
        rows = (
            Entry.objects.filter(flight=f)
            .annotate(shown=public_name_of("player__", club="flight__event__club__"))
            .values_list(
                "pk",
                "player_id",
                "shown",
                "team_name",
                "draw_position",
                "first_played_slot_id",
                "had_bye",
                "place",
                "status",
            )
        )
        for pk, player, shown, team, position, first_played, had_bye, place, status in rows:
            sim.entries[pk] = SimEntry(
                pk,
                player,
                line_position=position,
                has_played=first_played is not None,
                byes=int(had_bye),
                place=place,
                withdrawn=status == EntryStatus.WITHDRAWN,
            )
            if place == 1 and sim.layout is not None:
                sim.champion = pk
            last_id = max(last_id, pk)
            names[pk] = (player, team or shown)
            if f.pk == flight.pk:
                entrant_of[player] = pk
        if sim.layout is None:
            continue
        for pk, section, r, position, a, b, a_empty, b_empty, result, winner, loser in Slot.objects.filter(
            flight=f
        ).values_list(
            "pk",
            "section",
            "round",
            "position",
            "entry_a_id",
            "entry_b_id",
            "a_empty",
            "b_empty",
            "result",
            "winner_id",
            "loser_id",
        ):
            key = Key(section, r, position)
            if key not in sim.sides:
                continue
            sim.sides[key] = [
                a if a is not None else EMPTY_SIDE if a_empty else PENDING_SIDE,
                b if b is not None else EMPTY_SIDE if b_empty else PENDING_SIDE,
            ]
            if f.pk == flight.pk:
                slot_ids[key] = pk
            if result in RESULT_OF:
                losers: tuple[int, ...] = (loser,) if loser is not None else ()
                if result == SlotResult.DOUBLE_FORFEIT:
                    losers = tuple(e for e in (a, b) if e is not None)
                sim.decided[key] = (RESULT_OF[result], winner, losers)
    for f in fresh:  # a fresh draw's pool: its entries so far, as the source entries the engine draws from
        sim, source = event.flights[str(f.pk)], event.flights[str(f.source_id)]
        by_player = {e.player: e.id for e in source.entries.values()}
        sim.pool = [by_player[e.player] for e in sim.entries.values() if e.player in by_player]
        sim.entries = {}
    event._next_id = last_id + 1
    # who can be in `flight`: its entries, and the players of its sources still to be placed there
    for f in reversed(chain[: chain.index(flight)]):
        for e in event.flights[str(f.pk)].entries.values():
            entrant_of.setdefault(e.player, e.id)
    players = {names[e][0] for e in names}
    ratings_by_player = _player_ratings(flight, players, names)
    name = str(flight.pk)

    def length_of(flight_name: str, key: Key) -> int:
        layout = layouts.get(flight_name) or event.flights[flight_name].shape
        f = next(x for x in chain if str(x.pk) == flight_name)
        return f.length_for(layout.length_round(key), is_final=layout.is_final(key))

    sample = chances_bracket.bracket_sample(
        event, flight=name, entrants=entrant_of, ratings=ratings_by_player, length_of=length_of
    )
    runs = core.runs_for(chances_bracket.run_ms(event), budget_ms=BRACKET_BUDGET_MS, most=UNDRAWN_RUNS)
    places = core.simulate_places(sample, runs=runs, seed=flight.pk * 1_000_003 + version_of(flight))
    places = {e: row for e, row in places.items() if row.get(core.NOT_THERE, 0.0) < 1.0}
    if len(places) < 2:
        return None
    ratings = {e: ratings_by_player[names[e][0]] for e in places}
    sim = event.flights[name]
    matches = {}
    if sim.layout is not None:
        for key, (a, b) in sim.sides.items():
            if key not in sim.decided and key in slot_ids and isinstance(a, int) and isinstance(b, int):
                length = length_of(name, key)
                pa, pb = sim.entries[a].player, sim.entries[b].player
                matches[slot_ids[key]] = core.match_chances(ratings_by_player[pa], ratings_by_player[pb], length)
    return _figures(places, {e: names[e] for e in places}, ratings, matches, method="simulated")


FED_RULES = (FeedRule.FIRST_PLAYED, FeedRule.PROGRESSIVE)


def _player_ratings(flight: Flight, players: set[int], names: dict) -> dict[int, float]:
    """Each player's overall rating; in a pair or team flight an entry is played at its members' mean rating (the
    entry's player, its captain, stands for it: the simulation keys sides by player)."""
    ratings = dict(player_ratings(player_ids=players))
    if flight.is_team_event:
        teams = entry_ratings(flight=flight, entry_ids=[e for e in names if names[e][0] in players])
        ratings.update({names[e][0]: r for e, r in teams.items()})
    return ratings


def entry_ratings(*, flight: Flight, entry_ids, players: dict[int, int] | None = None) -> dict[int, float]:
    """Each entry's rating as the chances play it: its player's overall rating, or in a pair or team flight the
    mean of its members' (a team match's chance is the FIBS formula at the flight's length between the two means,
    a simplification of its boards). `players`: entry -> player, when the caller has them (singles)."""
    entry_ids = list(entry_ids)
    if not flight.is_team_event and players is not None:
        by_player = player_ratings(player_ids=set(players.values()))
        return {e: by_player[players[e]] for e in entry_ids}
    members: dict[int, list[int]] = {}
    if flight.is_team_event:
        for entry, player in EntryMember.objects.filter(entry_id__in=entry_ids).values_list("entry_id", "player_id"):
            members.setdefault(entry, []).append(player)
    if players is None or any(e not in members for e in entry_ids):
        own = dict(Entry.objects.filter(pk__in=entry_ids).values_list("pk", "player_id"))
        for e in entry_ids:
            members.setdefault(e, [own[e]])
    by_player = player_ratings(player_ids={p for ps in members.values() for p in ps})
    return {e: sum(by_player[p] for p in members[e]) / len(members[e]) for e in entry_ids}


# --- flights played in rounds ----------------------------------------------------------------------------------


ROUND_BUDGET_MS = 800.0  # what one cache miss of a round-based flight may cost (core.runs_for: 20 to 1,000 runs)


@dataclass(frozen=True)
class RoundState:
    """A round-based flight as it stands, what every format's simulation starts from: the entries in seed
    order (each group's in Berger-number order, `groups`), the scored games (by group), the current round's
    open tables, who met whom, who withdrew, the round a triple elimination's players went out."""

    entrants: list[int]
    groups: dict[int, list[int]]
    played: dict[int, list]
    open_tables: list[tuple[int, int]]
    met: dict[int, set]
    withdrawn: frozenset
    out_round: dict[int, int]
    names: dict[int, tuple[int, str]]
    ratings: dict[int, float]

    @property
    def games(self) -> list:
        return [g for group in self.played.values() for g in group]


def round_state(flight: Flight) -> RoundState | None:
    """The state the simulation of a round-based flight starts from (three queries and the ratings'), None
    before round 1 or with fewer than two entrants."""
    if not flight.current_round:
        return None
    rows = list(
        Entry.objects.filter(flight=flight)
        .order_by("seed", "pk")
        .annotate(shown=public_name_of("player__", club="flight__event__club__"))
        .values_list("pk", "player_id", "shown", "team_name", "status", "out_round", "group", "draw_position")
    )
    if len(rows) < 2:
        return None
    pairings = list(
        Pairing.objects.filter(flight=flight).only(
            "round", "group", "entry_a", "entry_b", "result", "winner", "score_a", "score_b"
        )
    )
    played: dict[int, list] = {}
    for p in pairings:
        if p.result in SCORED_RESULTS:
            played.setdefault(p.group, []).extend(games_of([p]))
    open_tables = [
        (p.entry_a_id, p.entry_b_id)
        for p in pairings
        if p.result == PairingResult.PENDING and p.entry_b_id is not None and p.round == flight.current_round
    ]
    met: dict[int, set] = {}
    for p in pairings:
        if p.entry_b_id is not None:
            met.setdefault(p.entry_a_id, set()).add(p.entry_b_id)
            met.setdefault(p.entry_b_id, set()).add(p.entry_a_id)
    groups: dict[int, list[int]] = {}
    for pk, *_rest, group, position in sorted(rows, key=lambda r: (r[-1] is None, r[-1] or 0, r[0])):
        if position is not None:
            groups.setdefault(group, []).append(pk)
    names = {pk: (player, team or shown) for pk, player, shown, team, *_ in rows}
    return RoundState(
        entrants=[r[0] for r in rows],
        groups=groups,
        played=played,
        open_tables=open_tables,
        met=met,
        withdrawn=frozenset(r[0] for r in rows if r[4] == EntryStatus.WITHDRAWN),
        out_round=_out_rounds(rows, pairings),
        names=names,
        ratings=entry_ratings(flight=flight, entry_ids=names, players={e: n[0] for e, n in names.items()}),
    )


def _out_rounds(rows: list, pairings: list[Pairing]) -> dict[int, int]:
    """The round each player went out of a triple elimination (as TripleElimination.places reads it): a withdrawn
    player's, else the round of the third loss."""
    out = {r[0]: r[5] for r in rows if r[4] == EntryStatus.WITHDRAWN and r[5]}
    losses: dict[int, int] = {}
    for p in sorted(pairings, key=lambda p: p.round):
        if p.result not in DECIDED_PAIRINGS or p.entry_b_id is None:
            continue
        for loser in (p.entry_a_id, p.entry_b_id):
            if loser != p.winner_id:
                losses[loser] = losses.get(loser, 0) + 1
                if losses[loser] == swiss.TRIPLE_OUT:
                    out.setdefault(loser, p.round)
    return out


DECIDED_PAIRINGS = (PairingResult.PLAYED, PairingResult.FORFEIT, PairingResult.DOUBLE_FORFEIT)


def simulated_rounds(flight: Flight, state: RoundState, sample: core.Sample, *, ms_per_run: float) -> FlightChances:
    """A round-based flight's figures: its format's `sample` played out with a seed of the flight's id and
    version, as many runs as ROUND_BUDGET_MS allows at the format's estimate of one run (core.runs_for)."""
    runs = core.runs_for(ms_per_run, budget_ms=ROUND_BUDGET_MS)
    places = core.simulate_places(sample, runs=runs, seed=flight.pk * 1_000_003 + version_of(flight))
    return _figures(places, state.names, state.ratings, {}, method="simulated")


def _compute(flight: Flight, bracket: list | None, entry_rows: list | None) -> FlightChances | None:
    names: dict[int, tuple[int, str]] = {}  # entry -> (player, name)
    if bracket is None:
        rows = (
            Slot.objects.filter(flight=flight, section=W)
            .order_by("round", "position")
            .annotate(
                a_shown=Coalesce(
                    NullIf(F("entry_a__team_name"), Value("")),
                    public_name_of("entry_a__player__", club="flight__event__club__"),
                ),
                b_shown=Coalesce(
                    NullIf(F("entry_b__team_name"), Value("")),
                    public_name_of("entry_b__player__", club="flight__event__club__"),
                ),
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
    drawn = [e for e in line if e is not None]
    ratings = entry_ratings(flight=flight, entry_ids=drawn, players={e: entries[e][0] for e in drawn})
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
    """The figures as the pages read them; "not there" (a fed flight's possible entrant who does not get in, place
    0) is neither a place held nor a column."""
    expected = {place: n for place, n in core.holders(places).items() if place != core.NOT_THERE}
    holders = {place: round(n) for place, n in expected.items()}
    entrants = sorted(
        (EntrantChances(e, entries[e][0], entries[e][1], ratings[e], row) for e, row in places.items()),
        key=lambda c: (-c.first, -sum(p for place, p in c.places.items() if 1 <= place <= 3), c.name),
    )
    held = {place for row in places.values() for place in row if place != core.NOT_THERE}
    columns = sorted(held)[:4]  # a knockout: 1, 2, 3, 5
    return FlightChances(
        entrants=entrants,
        holders=holders,
        columns=columns,
        matches=matches,
        method=method,
        expected_holders=expected,
    )
