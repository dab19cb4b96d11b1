"""Property tests of the bracket core for every field size from 2 to 4,096 (hypothesis picks the sizes and the
results; the boundary sizes are always included)."""

import random
from collections import Counter

from hypothesis import example, given, settings
from hypothesis import strategies as st

from tournaments.core import consequences
from tournaments.core.draw import DrawEntrant, bracket_size, draw
from tournaments.core.engine import SimEvent

sizes = st.integers(min_value=2, max_value=4096)


def play_out(event: SimEvent, rng: random.Random, fresh: str | None = None) -> list[tuple]:
    """Report every ready slot until nothing is left, drawing a fresh flight once it can be drawn; returns
    the reported (flight, key, a, b, winner side, result)."""
    reported = []
    while True:
        ready = event.ready()
        if not ready:
            if fresh and event.fresh_draw_ready(fresh):
                event.draw_fresh(fresh, rng_seed=rng.randrange(2**32))
                continue
            return reported
        for name, key, a, b in ready:
            roll = rng.random()
            result = (
                consequences.PLAYED
                if roll < 0.9
                else consequences.WALKOVER
                if roll < 0.97
                else consequences.DOUBLE_FORFEIT
            )
            side = rng.randint(0, 1)
            event.report(name, key, side, result)
            reported.append((name, key, a, b, side, result))


@settings(max_examples=60, deadline=None)
@given(n=sizes, seed=st.integers(0, 2**32 - 1), late=st.integers(0, 50), seeded=st.booleans())
@example(n=2, seed=0, late=0, seeded=False)
@example(n=4096, seed=1, late=0, seeded=True)
@example(n=2050, seed=2, late=3, seeded=False)
def test_round_one_has_every_entrant_once_and_the_right_byes(n, seed, late, seeded):
    late = min(late, n - (bracket_size(n) - n))  # enough on-time entrants to take the byes
    entrants = [DrawEntrant(i, rating=1500 + (i * 37) % 400, on_time=i >= late) for i in range(n)]
    line = draw(entrants, rng_seed=seed, seeded=seeded)
    assert len(line) == bracket_size(n)
    placed = [key for key in line if key is not None]
    assert sorted(placed) == list(range(n))  # each entrant exactly once
    byes = [line[i ^ 1] for i, key in enumerate(line) if key is None]
    assert len(byes) == bracket_size(n) - n
    assert None not in byes  # never a pair of two byes: nobody reaches round 2 against nobody
    assert all(e >= late for e in byes)  # byes only among on-time entrants
    assert draw(entrants, rng_seed=seed, seeded=seeded) == line  # the stored seed reproduces the draw


@settings(max_examples=25, deadline=None)
@given(n=sizes, seed=st.integers(0, 2**32 - 1), k=st.integers(1, 12))
@example(n=4096, seed=0, k=3)
@example(n=5, seed=1, k=1)
def test_progressive_consolation_gets_exactly_the_losers_of_rounds_1_to_k(n, seed, k):
    n = max(n, 4)
    event = SimEvent()
    event.add_flight("main")
    event.add_flight("cons", "fed", source="main", rule=consequences.PROGRESSIVE, feed_rounds=k)
    rng = random.Random(seed)
    event.draw("main", [DrawEntrant(i) for i in range(n)], rng_seed=seed)
    main_layout = event.flights["main"].layout
    k = min(k, main_layout.size.bit_length() - 1)
    reported = play_out(event, rng)
    expected = Counter()
    main = event.flights["main"]
    for name, key, a, b, side, result in reported:
        if name == "main" and key.round <= k and result == consequences.PLAYED:
            expected[main.entries[(b, a)[side]].player] += 1
    got = Counter(e.player for e in event.flights["cons"].entries.values())
    assert got == expected
    assert_one_winner_each(event)


@settings(max_examples=25, deadline=None)
@given(n=sizes, seed=st.integers(0, 2**32 - 1), linked=st.booleans())
@example(n=9, seed=3, linked=True)
@example(n=5, seed=7844279, linked=True)  # the consolation is won on a bye and a walkover
@example(n=5, seed=249, linked=True)  # a bye into the main final right after a first played win
@example(n=4096, seed=4, linked=False)
def test_consolation_gets_each_players_first_played_loss_and_last_chance_the_consolations(n, seed, linked):
    n = max(n, 5)  # a last chance linked to the consolation needs two consolation round-1 matches
    event = SimEvent()
    event.add_flight("main")
    event.add_flight("cons", "fed", source="main", rule=consequences.FIRST_PLAYED)
    lc_rule = consequences.FIRST_PLAYED if linked else consequences.FRESH_DRAW
    event.add_flight("lc", "fed", source="cons", rule=lc_rule)
    rng = random.Random(seed)
    event.draw("main", [DrawEntrant(i) for i in range(n)], rng_seed=seed)
    reported = play_out(event, rng, fresh=None if linked else "lc")
    for source, fed in (("main", "cons"), ("cons", "lc")):
        flight = event.flights[source]
        if linked or source == "main":
            # linked flights take the first played loss of the players placed on the round-1 line
            eligible = {e.id for e in flight.entries.values() if e.line_position is not None}
        else:
            eligible = set(flight.entries)
        seen, expected = set(), Counter()
        for name, _key, a, b, side, result in reported:
            if name != source or result != consequences.PLAYED:
                continue
            loser = (b, a)[side]
            if loser not in seen and loser in eligible:
                expected[flight.entries[loser].player] += 1
            seen |= {a, b}
        got = Counter(event.flights[fed].entries[e].player for e in event.flights[fed].entries)
        if not linked and fed == "lc" and event.flights["lc"].layout is None:
            got = Counter(flight.entries[e].player for e in event.flights["lc"].pool)
        assert got == expected, (source, fed)
    assert_one_winner_each(event)


@settings(max_examples=25, deadline=None)
@given(n=st.integers(3, 256), seed=st.integers(0, 2**32 - 1))
def test_double_elimination_ends_with_one_winner_and_two_losses_out(n, seed):
    event = SimEvent()
    event.add_flight("de", "double")
    rng = random.Random(seed)
    event.draw("de", [DrawEntrant(i) for i in range(n)], rng_seed=seed)
    reported = play_out(event, rng)
    flight = event.flights["de"]
    assert flight.finished
    losses = Counter()
    for _name, _key, a, b, side, result in reported:
        if result == consequences.DOUBLE_FORFEIT:
            losses[a] += 2
            losses[b] += 2
        elif result == consequences.WALKOVER:
            losses[(b, a)[side]] += 2
        else:
            losses[(b, a)[side]] += 1
    alive = [e for e in flight.entries.values() if e.place is None]
    assert alive == []
    # nobody but the grand final's loser (one match, no reset) is out after a single loss
    assert all(losses[e.id] >= 2 for e in flight.entries.values() if e.place not in (None, 1, 2))


def assert_one_winner_each(event: SimEvent) -> None:
    for flight in event.flights.values():
        if flight.layout is None:
            continue
        assert flight.finished or event.finished_without_winner(flight), flight.name
        winners = [e for e in flight.entries.values() if e.place == 1]
        assert len(winners) == (0 if flight.champion is None else 1)
        assert all(e.place is not None for e in flight.entries.values())
    main = event.flights.get("main")
    double_forfeits = main is not None and any(r == consequences.DOUBLE_FORFEIT for r, _w, _l in main.decided.values())
    if main is not None and not double_forfeits:
        assert all(e.byes <= 1 for e in main.entries.values()), "a second bye in the main"
