"""Round robin schedules from the Berger tables, with plain objects: the published tables, every pair once (twice
with the sides swapped in a double), one game a round, one bye each for an odd count."""

from collections import Counter

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from tournaments.core.errors import BracketError
from tournaments.core.roundrobin import (
    DOUBLE,
    SINGLE,
    berger_table,
    draw_numbers,
    round_of,
    rounds_in_cycle,
    schedule,
)

# FIDE Handbook C.05 Annex 1 (Berger tables), "7 or 8 players" and "5 or 6 players", as printed.
PUBLISHED_8 = """
1-8 2-7 3-6 4-5
8-5 6-4 7-3 1-2
2-8 3-1 4-7 5-6
8-6 7-5 1-4 2-3
3-8 4-2 5-1 6-7
8-7 1-6 2-5 3-4
4-8 5-3 6-2 7-1
"""
PUBLISHED_6 = """
1-6 2-5 3-4
6-4 5-3 1-2
2-6 3-1 4-5
6-5 1-4 2-3
3-6 4-2 5-1
"""


def _parse(text):
    return [[tuple(int(x) for x in game.split("-")) for game in line.split()] for line in text.strip().splitlines()]


@pytest.mark.parametrize("n, published", [(8, PUBLISHED_8), (7, PUBLISHED_8), (6, PUBLISHED_6), (5, PUBLISHED_6)])
def test_the_table_is_the_published_berger_table(n, published):
    assert berger_table(n) == _parse(published)


def test_a_schedule_lists_the_games_of_the_published_table_in_board_order():
    rounds = schedule("abcdefgh")
    assert [(g.table, g.first, g.second) for g in rounds[1].games] == [
        (1, "h", "e"),
        (2, "f", "d"),
        (3, "g", "c"),
        (4, "a", "b"),
    ]
    assert all(r.bye is None for r in rounds)


@pytest.mark.parametrize("n", range(2, 25))
def test_the_schedule_follows_the_table_board_by_board(n):
    table = [[(a, b) for a, b in games if max(a, b) <= n] for games in berger_table(n)]
    games = [[(g.first, g.second) for g in r.games] for r in schedule(list(range(1, n + 1)))]
    assert games == table


def test_with_an_odd_count_whoever_meets_the_dummy_has_the_bye():
    rounds = schedule("abcde")  # the 6-player table, number 6 missing
    assert [r.bye for r in rounds] == ["a", "d", "b", "e", "c"]  # 1-6, 6-4, 2-6, 6-5, 3-6
    assert [(g.table, g.first, g.second) for g in rounds[0].games] == [(1, "b", "e"), (2, "c", "d")]


def test_a_double_round_robin_exchanges_the_last_two_rounds_of_the_first_cycle_then_swaps_sides():
    single = schedule("abcdef")
    double = schedule("abcdef", cycles=DOUBLE)
    assert len(double) == 10
    pairs = [[(g.first, g.second) for g in r.games] for r in single]
    assert [[(g.first, g.second) for g in r.games] for r in double[:5]] == pairs[:3] + [pairs[4], pairs[3]]
    assert [[(g.second, g.first) for g in r.games] for r in double[5:]] == pairs
    assert [r.number for r in double] == list(range(1, 11))
    assert all(g.round == r.number for r in double for g in r.games)


def _check_schedule(n, rounds, cycles):
    players = list(range(n))
    assert len(rounds) == cycles * rounds_in_cycle(n)
    met = Counter()
    sides = Counter()
    byes = Counter()
    for r in rounds:
        seen = [p for g in r.games for p in (g.first, g.second)] + ([r.bye] if r.bye is not None else [])
        assert sorted(seen) == players  # everybody once a round: in one game or on the bye
        assert [g.table for g in r.games] == list(range(1, len(r.games) + 1))
        assert (r.bye is not None) == (n % 2 == 1)
        byes[r.bye] += 1
        for g in r.games:
            met[frozenset((g.first, g.second))] += 1
            sides[(g.first, g.second)] += 1
    assert len(met) == n * (n - 1) // 2
    assert set(met.values()) == {cycles}  # every pair exactly once (twice in a double)
    if cycles == DOUBLE:
        assert set(sides.values()) == {1}  # ... and then once on each side
    if n % 2:
        assert byes == Counter(dict.fromkeys(players, cycles))


@settings(max_examples=60, deadline=None)
@given(n=st.integers(2, 60), cycles=st.sampled_from([SINGLE, DOUBLE]))
@example(n=2, cycles=DOUBLE)
@example(n=3, cycles=SINGLE)
def test_every_pair_meets_exactly_once_or_twice_with_sides_swapped(n, cycles):
    _check_schedule(n, schedule(list(range(n)), cycles=cycles), cycles)


@pytest.mark.parametrize("n", [128, 129, 512])
def test_large_fields_are_complete_too(n):
    _check_schedule(n, schedule(list(range(n))), SINGLE)


@settings(max_examples=30, deadline=None)
@given(half=st.integers(2, 30))
def test_a_double_round_robin_gives_nobody_the_same_side_three_rounds_running(half):
    n = 2 * half
    runs = {p: [] for p in range(n)}
    for r in schedule(list(range(n)), cycles=DOUBLE):
        for g in r.games:
            runs[g.first].append("A")
            runs[g.second].append("B")
    assert not [p for p, s in runs.items() if "AAA" in "".join(s) or "BBB" in "".join(s)]


def test_numbers_are_drawn_by_lot_and_the_stored_seed_gives_them_again():
    players = list(range(20))
    drawn = draw_numbers(players, rng_seed=7)
    assert sorted(drawn) == players
    assert drawn == draw_numbers(players, rng_seed=7)
    assert drawn != draw_numbers(players, rng_seed=8)


@pytest.mark.parametrize(
    "entrants, cycles, code",
    [
        (["a"], SINGLE, "round_robin_too_small"),
        ([], DOUBLE, "round_robin_too_small"),
        (["a", "b"], 3, "round_robin_cycles"),
        (["a", "b", "a"], SINGLE, "duplicate_entrant"),
        (list(range(1025)), SINGLE, "round_robin_too_large"),
    ],
)
def test_a_schedule_that_cannot_be_played_is_refused(entrants, cycles, code):
    with pytest.raises(BracketError) as refused:
        schedule(entrants, cycles=cycles)
    assert refused.value.code == code


@pytest.mark.parametrize("n, cycles", [(2, SINGLE), (7, DOUBLE), (10, DOUBLE), (33, SINGLE)])
def test_one_round_alone_is_that_round_of_the_schedule(n, cycles):
    players = list(range(n))
    assert [round_of(players, r.number, cycles=cycles) for r in schedule(players, cycles=cycles)] == schedule(
        players, cycles=cycles
    )
    with pytest.raises(BracketError) as refused:
        round_of(players, cycles * rounds_in_cycle(n) + 1, cycles=cycles)
    assert refused.value.code == "no_such_round"
