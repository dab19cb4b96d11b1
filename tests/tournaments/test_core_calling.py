"""Properties of match calling (tournaments.core.calling) over random tournament days: a day is simulated call
by call, finishing a random called match each step, until every match has been played."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.core.calling import FreeBoard, Waiting, penalty_due, plan


@st.composite
def days(draw):
    """Matches between a handful of players (so players overlap, as across flights), some needing a feature,
    and boards some of which have it."""
    players = draw(st.integers(2, 12))
    count = draw(st.integers(1, 30))
    matches = []
    for number in range(count):
        a = draw(st.integers(0, players - 1))
        b = draw(st.integers(0, players - 1).filter(lambda x, a=a: x != a))
        needs = frozenset({"step-free"}) if draw(st.booleans()) and number % 4 == 0 else frozenset()
        matches.append(Waiting(number, draw(st.integers(0, 50)), frozenset({a, b}), needs))
    boards = draw(st.integers(1, 8))
    tags = [frozenset({"step-free"}) if draw(st.booleans()) else frozenset() for _ in range(boards)]
    tags[0] = frozenset({"step-free"})  # at least one board fits every match
    return matches, [FreeBoard(n + 1, tags[n]) for n in range(boards)]


@settings(max_examples=200, deadline=None)
@given(days(), st.randoms(use_true_random=False))
def test_every_match_is_called_once_and_nobody_is_on_two_boards(day, rnd):
    matches, boards = day
    waiting = {m.match: m for m in matches}
    playing: dict[int, Waiting] = {}  # board -> match on it
    called: list[int] = []
    while waiting or playing:
        free = [b for b in boards if b.number not in playing]
        busy = {p for m in playing.values() for p in m.players}
        calls = plan(waiting.values(), free, busy)
        for call in calls:
            match = waiting.pop(call.match)
            board = next(b for b in boards if b.number == call.board)
            assert call.board not in playing, "a board holds two matches"
            assert not (match.players & busy), "a player is called while playing elsewhere"
            assert match.needs <= board.tags
            busy |= match.players
            playing[call.board] = match
            called.append(call.match)
        assert playing, "nothing is played although matches wait: the day would never end"
        del playing[rnd.choice(sorted(playing))]
    assert sorted(called) == sorted(m.match for m in matches)


def test_the_longest_waiting_match_goes_to_the_lowest_free_board():
    waiting = [Waiting(1, 20, frozenset({1, 2})), Waiting(2, 10, frozenset({3, 4}))]
    assert [(c.match, c.board) for c in plan(waiting, [FreeBoard(7), FreeBoard(3)], [], limit=1)] == [(2, 3)]


def test_a_busy_player_waits_without_holding_up_the_queue():
    waiting = [Waiting(1, 0, frozenset({1, 2})), Waiting(2, 5, frozenset({3, 4}))]
    assert [c.match for c in plan(waiting, [FreeBoard(1)], busy=[2])] == [2]


def test_a_match_needing_a_step_free_board_only_gets_one():
    waiting = [Waiting(1, 0, frozenset({1, 2}), frozenset({"step-free"})), Waiting(2, 5, frozenset({3, 4}))]
    calls = plan(waiting, [FreeBoard(1), FreeBoard(2, frozenset({"step-free", "clock"}))], [])
    assert {(c.match, c.board) for c in calls} == {(1, 2), (2, 1)}


def test_no_penalty_within_the_grace_period():
    rule = lambda minutes: minutes // 5  # noqa: E731
    assert penalty_due(minutes_waited=4.9, grace_minutes=5, penalty_for=rule) == 0
    assert penalty_due(minutes_waited=12, grace_minutes=5, penalty_for=rule) == 2
    assert penalty_due(minutes_waited=12, grace_minutes=15, penalty_for=rule) == 0
