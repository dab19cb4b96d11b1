"""The team match rule with plain objects: decided at a majority of boards and never changed by the boards
still open, always a winner once every board is played, and the same team result whatever the order the boards
finish in."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.core.teams import BOARDS, FIRST_BOARD, POINTS, Board, lineup, team_result

played = st.builds(
    lambda winner, won, lost: Board(winner, won if winner == 0 else lost, lost if winner == 0 else won),
    st.sampled_from([0, 1]),
    st.integers(1, 15),
    st.integers(0, 14),
)


@given(st.lists(played, min_size=1, max_size=9), st.data())
def test_a_majority_decides_and_open_boards_cannot_change_it(boards, data):
    final = team_result(boards)
    assert final.winner in (0, 1)  # every board played: always a winner
    assert final.boards_a + final.boards_b == len(boards)
    open_ones = data.draw(st.sets(st.integers(0, len(boards) - 1), min_size=1))
    partial = team_result([Board(None) if i in open_ones else b for i, b in enumerate(boards)])
    if partial.winner is not None:
        assert partial.winner == final.winner and partial.decided_by == BOARDS
        assert 2 * max(partial.boards_a, partial.boards_b) > len(boards)


@given(st.lists(played, min_size=1, max_size=9))
def test_the_winner_does_not_depend_on_the_order_boards_finish_in(boards):
    """Boards finishing one by one: once decided, the result stays; the final equals the all-at-once result."""
    seen = None
    for done in range(len(boards) + 1):
        now = team_result([b if i < done else Board(None) for i, b in enumerate(boards)])
        if seen is not None:
            assert now.winner == seen
        if now.winner is not None:
            seen = now.winner
    assert seen == team_result(boards).winner


def test_an_even_tie_goes_to_the_points_then_to_board_one():
    by_points = team_result([Board(0, 7, 3), Board(1, 2, 7)])  # A scored 7 + 2, B 3 + 7
    assert (by_points.winner, by_points.decided_by) == (1, POINTS)
    level = team_result([Board(1, 5, 7), Board(0, 7, 5)])
    assert (level.winner, level.decided_by, level.boards_a, level.boards_b) == (1, FIRST_BOARD, 1, 1)


def test_three_boards_are_decided_after_two_wins():
    result = team_result([Board(0, 5, 1), Board(None), Board(0, 5, 2)])
    assert (result.winner, result.decided_by, result.boards_a) == (0, BOARDS, 2)
    assert team_result([Board(0, 5, 1), Board(None), Board(1, 2, 5)]).winner is None


def test_lineup_pairs_board_by_board():
    assert lineup(["a1", "a2"], ["b1", "b2"]) == [(1, "a1", "b1"), (2, "a2", "b2")]
    with pytest.raises(ValueError):
        lineup(["a1"], ["b1", "b2"])
