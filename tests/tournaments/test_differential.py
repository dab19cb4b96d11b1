"""The in-memory bracket engine (tournaments.core.engine.SimEvent) against the database adapter
(tournaments.services): random events — field sizes that are and are not powers of two (so byes), double
elimination, consolations linked by first played match, progressive over k rounds or drawn afresh, last
chances fed by them — run through both with the same draws, the same random results (played, walkover,
double forfeit), the same late entries into byes after the release and the same withdrawals (of players
playing or waiting for an opponent). After every batch of reports both must offer the same matches between
the same players; at the end every slot's two sides, result and winner, every entry's place and every
flight's finish must be the same, and the event must be finished. The engine is the reference the property
tests check; this holds the adapter to it."""

import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from games.matchplay import services as match_services
from tournaments import services
from tournaments.core import consequences
from tournaments.core.draw import DrawEntrant
from tournaments.core.engine import SimEvent
from tournaments.core.layout import Key
from tournaments.models import Entry, FlightStatus, Slot

from .builders import drawn_event, members, win

pytestmark = pytest.mark.django_db

# The adapter's outcome for each result the engine knows.
OUTCOMES = {
    consequences.PLAYED: "played",
    consequences.WALKOVER: "walkover",
    consequences.DOUBLE_FORFEIT: "double_forfeit",
}
CONSOLATIONS = st.one_of(
    st.none(),
    st.tuples(st.sampled_from([consequences.FIRST_PLAYED, consequences.FRESH_DRAW]), st.just(1)),
    st.tuples(st.just(consequences.PROGRESSIVE), st.integers(1, 4)),
)


@st.composite
def event_specs(draw):
    """(double elimination?, entrants, consolation (rule, feed rounds) or None, last chance rule or None)."""
    if draw(st.integers(0, 3)) == 0:
        return True, draw(st.integers(3, 9)), None, None
    consolation = draw(CONSOLATIONS)
    last_chance = None
    if consolation is not None and consolation[0] != consequences.PROGRESSIVE:
        last_chance = draw(st.sampled_from([None, consequences.FIRST_PLAYED, consequences.FRESH_DRAW]))
    return False, draw(st.integers(2, 13)), consolation, last_chance


def build(club, director, spec, seed, late, option=False):
    """The event in the database (drawn and released by the services) and in memory (released with the line
    the engine draws from the same seed, which must be the adapter's line). `option`: the knockout option of
    the main's shape is on (a reset final for a double elimination, a third-place match for a knockout)."""
    double, n, consolation, last_chance = spec
    sim = SimEvent()
    sim.add_flight(
        "main", "double" if double else "knockout", reset=option and double, third_place=option and not double
    )
    kwargs: dict = {"kind": "double_elimination"} if double else {}
    if option:
        kwargs["grand_final_reset" if double else "third_place"] = True
    if consolation is not None:
        rule, k = consolation
        kwargs["consolation"] = {"feed_rule": rule, "feed_rounds": k}
        sim.add_flight("cons", "fed", source="main", rule=rule, feed_rounds=k)
    if last_chance is not None:
        kwargs["last_chance"] = {"feed_rule": last_chance}
        sim.add_flight("lc", "fed", source="cons", rule=last_chance)
    event, flights = drawn_event(club, director, n, seed=seed, **kwargs)
    entries = list(flights["main"].entries.order_by("pk"))
    line = sim.draw("main", [DrawEntrant(e.player_id) for e in entries], rng_seed=seed)
    assert line == db_line(flights["main"])
    for player in members(club, min(late, line.count(None))):  # late entries take byes' places
        services.register(actor=director, flight=flights["main"], player=player)
        sim.late_entry("main", player.pk)
    return sim, event, flights


def db_line(flight) -> list:
    line: list = [None] * flight.size
    for player, position in flight.entries.filter(draw_position__isnull=False).values_list(
        "player_id", "draw_position"
    ):
        line[position] = player
    return line


def sim_ready(sim: SimEvent) -> set:
    players = {name: {e.id: e.player for e in f.entries.values()} for name, f in sim.flights.items()}
    return {(name, key, players[name][a], players[name][b]) for name, key, a, b in sim.ready()}


def db_ready(flights) -> set:
    return {
        (name, Key(s.section, s.round, s.position), s.entry_a.player_id, s.entry_b.player_id)
        for name, flight in flights.items()
        for s in Slot.objects.filter(flight=flight, result="ready").select_related("entry_a", "entry_b")
    }


def report_in_both(director, sim, flights, name, key, side, result) -> None:
    sim.report(name, key, side, result)
    slot = Slot.objects.select_related("match").get(
        flight=flights[name], section=key.section, round=key.round, position=key.position
    )
    if result == consequences.DOUBLE_FORFEIT:
        match_services.submit_report(
            actor=director, match=slot.match, method="no_play", outcome="double_forfeit", as_director=True
        )
    else:
        win(director, slot, side, outcome=OUTCOMES[result])


def withdraw_in_both(director, sim, flights, rng) -> None:
    """A random player still in a laid-out flight (playing, or waiting for an opponent) withdraws."""
    still_in = [
        (name, entry)
        for name, flight in sim.flights.items()
        if flight.layout is not None
        for entry in flight.entries.values()
        if entry.place is None and not entry.withdrawn
    ]
    if not still_in:
        return
    name, entry = rng.choice(still_in)
    sim.withdraw(name, entry.id)
    services.withdraw(actor=director, entry=Entry.objects.get(flight=flights[name], player_id=entry.player))


def draw_fresh_in_both(director, sim, flights, rng) -> bool:
    """Draw every fresh-draw flight the engine can draw now, in both; False if there was none."""
    drew = False
    for name, flight in sim.flights.items():
        if flight.rule != consequences.FRESH_DRAW or flight.layout is not None or flight.finished:
            continue
        if not sim.fresh_draw_ready(name):
            continue
        drew = True
        seed = rng.randrange(2**32)
        db = flights[name]
        db.refresh_from_db()
        if len(flight.pool) < 2:
            sim.draw_fresh(name, rng_seed=seed)
            assert db.status == FlightStatus.FINISHED  # nothing to draw: the adapter finished it already
            continue
        assert services.fresh_draw_ready(flight=db)
        services.draw_flight(actor=director, flight=db, seed=seed)
        services.confirm_draw(actor=director, flight=db)
        services.release_draw(actor=director, flight=db)
        db.refresh_from_db()
        assert sim.draw_fresh(name, rng_seed=seed) == db_line(db), name
    return drew


def side(entry, empty) -> object:
    """A slot side as the engine shows it: the player, or its EMPTY / PENDING marker."""
    if empty:
        return repr(consequences.EMPTY_SIDE)
    return repr(consequences.PENDING_SIDE) if entry is None else entry.player_id


def assert_same_outcome(sim: SimEvent, flights, event) -> None:
    for name, flight in sim.flights.items():
        db = flights[name]
        db.refresh_from_db()
        players = {e.id: e.player for e in flight.entries.values()}
        sim_slots = {
            key: (result, None if winner is None else players[winner])
            for key, (result, winner, _losers) in flight.decided.items()
        }
        db_slots = {
            Key(s.section, s.round, s.position): (s.result, s.winner.player_id if s.winner else None)
            for s in Slot.objects.filter(flight=db).select_related("winner")
            if s.result not in ("pending", "ready")
        }
        assert db_slots == sim_slots, name
        sim_sides = {key: tuple(players.get(x, repr(x)) for x in sides) for key, sides in flight.sides.items()}
        db_sides = {
            Key(s.section, s.round, s.position): (side(s.entry_a, s.a_empty), side(s.entry_b, s.b_empty))
            for s in Slot.objects.filter(flight=db).select_related("entry_a", "entry_b")
        }
        assert db_sides == sim_sides, name  # who met in every slot, and which places stayed empty or open
        sim_places = Counter((e.player, e.place) for e in flight.entries.values())
        db_places = Counter(Entry.objects.filter(flight=db).values_list("player_id", "place"))
        assert db_places == sim_places, name
        finished = flight.finished or (flight.layout is not None and sim.finished_without_winner(flight))
        assert (db.status == FlightStatus.FINISHED) == finished, name
    event.refresh_from_db()
    assert event.status == "finished"


@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(spec=event_specs(), seed=st.integers(0, 2**32 - 1), withdrawals=st.booleans(), late=st.integers(0, 2))
@example(spec=(False, 3, (consequences.FIRST_PLAYED, 1), None), seed=8516, withdrawals=True, late=0)
@example(spec=(False, 3, (consequences.FRESH_DRAW, 1), None), seed=8516, withdrawals=True, late=0)
@example(spec=(False, 11, (consequences.PROGRESSIVE, 3), None), seed=1, withdrawals=False, late=2)
@example(spec=(False, 13, (consequences.FIRST_PLAYED, 1), consequences.FRESH_DRAW), seed=2, withdrawals=True, late=1)
@example(spec=(False, 10, (consequences.FRESH_DRAW, 1), consequences.FIRST_PLAYED), seed=3, withdrawals=False, late=0)
@example(spec=(True, 6, None, None), seed=4, withdrawals=True, late=1)
@example(spec=(False, 2, (consequences.FIRST_PLAYED, 1), consequences.FRESH_DRAW), seed=5, withdrawals=False, late=0)
@example(spec=(False, 2, (consequences.FRESH_DRAW, 1), consequences.FIRST_PLAYED), seed=6, withdrawals=False, late=0)
@example(spec=(False, 10, (consequences.FRESH_DRAW, 1), consequences.FRESH_DRAW), seed=0, withdrawals=True, late=0)
def test_the_database_adapter_plays_random_events_as_the_in_memory_engine_does(
    club, director_user, spec, seed, withdrawals, late
):
    sim, event, flights = build(club, director_user, spec, seed, late)
    play_in_both(director_user, sim, event, flights, seed, withdrawals)


@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    double=st.booleans(),
    n=st.integers(3, 11),
    consolation=st.sampled_from([None, consequences.FIRST_PLAYED, consequences.FRESH_DRAW]),
    seed=st.integers(0, 2**32 - 1),
    withdrawals=st.booleans(),
)
@example(double=True, n=4, consolation=None, seed=1, withdrawals=False)
@example(double=False, n=4, consolation=consequences.FIRST_PLAYED, seed=2, withdrawals=True)
@example(double=False, n=3, consolation=consequences.FRESH_DRAW, seed=3, withdrawals=False)  # a third-place bye
def test_the_adapter_plays_a_reset_final_and_a_third_place_match_as_the_engine_does(
    club, director_user, double, n, consolation, seed, withdrawals
):
    spec = (double, n, None if double or consolation is None else (consolation, 1), None)
    sim, event, flights = build(club, director_user, spec, seed, 0, option=True)
    play_in_both(director_user, sim, event, flights, seed, withdrawals)


def play_in_both(director, sim, event, flights, seed, withdrawals) -> None:
    """Random results, withdrawals and fresh draws in both, the same offered matches after every batch."""
    rng = random.Random(seed)
    while True:
        ready = sim_ready(sim)
        assert db_ready(flights) == ready
        if not ready:
            if draw_fresh_in_both(director, sim, flights, rng):
                continue
            break
        if withdrawals and rng.random() < 0.3:
            withdraw_in_both(director, sim, flights, rng)
            continue
        for name, key, _a, _b in sorted(ready, key=lambda r: (list(sim.flights).index(r[0]), r[1])):
            roll = rng.random()
            result = (
                consequences.PLAYED
                if roll < 0.8
                else consequences.WALKOVER
                if roll < 0.92
                else consequences.DOUBLE_FORFEIT
            )
            report_in_both(director, sim, flights, name, key, rng.randint(0, 1), result)
    assert_same_outcome(sim, flights, event)
