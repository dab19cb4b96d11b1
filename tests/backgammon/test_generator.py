"""The fast road of legal_results / max_dice_playable (backgammon/generator.py) against the general search,
which legal_plays always takes: on any position — reachable or not, checkers on the bar, blots everywhere —
both must list the same results and the same number of dice."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from backgammon.board import Board
from backgammon.moves import legal_plays, legal_results, max_dice_playable
from backgammon.random_play import random_positions
from backgammon.variants import Variant
from tests.backgammon.positions import make_board

dice = st.tuples(st.integers(1, 6), st.integers(1, 6))


@st.composite
def boards(draw):
    """Any legal-looking position: up to 15 checkers a side, spread over points the other side leaves free,
    some on the bar, the rest borne off."""
    total = draw(st.sampled_from([15, 3]))
    mine: dict[int, int] = {}
    theirs: dict[int, int] = {}
    for _ in range(draw(st.integers(0, total))):
        point = draw(st.integers(1, 25))
        if point == 25 or point not in theirs:
            mine[point] = mine.get(point, 0) + 1
    for _ in range(draw(st.integers(0, total))):
        point = draw(st.integers(0, 24))
        if point == 0 or point not in mine:
            theirs[point] = theirs.get(point, 0) + 1
    return make_board(mine, theirs, total=total, side=draw(st.integers(0, 1)))


def general(board: Board, side: int, roll: tuple[int, int]) -> tuple[set[Board], int]:
    plays = legal_plays(board, side, roll)
    return {play.result for play in plays}, max(len(play.steps) for play in plays)


@settings(max_examples=300, deadline=None)
@given(board=boards(), roll=dice, side=st.integers(0, 1))
def test_any_position_gets_the_general_searchs_results(board, roll, side):
    results, used = general(board, side, roll)
    assert legal_results(board, side, roll) == results
    assert max_dice_playable(board, side, roll) == used


@pytest.mark.parametrize("variant", [Variant.STANDARD, Variant.NACKGAMMON, Variant.HYPERGAMMON3])
def test_reachable_positions_get_the_general_searchs_results(variant):
    for board, side, roll in random_positions(seed=7, count=800, variant=variant):
        for other in {roll, (roll[0], roll[0]), (roll[1], roll[1])}:
            results, used = general(board, side, other)
            assert legal_results(board, side, other) == results
            assert max_dice_playable(board, side, other) == used


def test_two_checkers_hitting_the_same_blot_hit_it_once():
    board = make_board({13: 1, 12: 1}, {8: 1})  # 13/8* with the 5, 12/8 with the 4: one blot, one hit
    results = legal_results(board, 0, (5, 4))
    both_on_eight = [result for result in results if result.count(0, 8) == 2]
    assert len(both_on_eight) == 1
    assert both_on_eight[0].on_bar(1) == 1


def test_a_lone_checker_is_not_moved_twice_from_its_point():
    board = make_board({13: 1, 24: 2}, {})
    for result in legal_results(board, 0, (5, 4)):
        assert min(result.checkers[0]) >= 0
        assert result.count(0, 13) + result.count(0, 8) + result.count(0, 9) + result.count(0, 4) <= 1


def test_entering_and_hitting_from_the_bar():
    board = make_board({25: 1, 13: 5, 6: 5, 8: 3}, {22: 1, 20: 2})  # 3 enters and hits; 5 would be blocked
    results = legal_results(board, 0, (5, 3))
    assert all(result.on_bar(0) == 0 for result in results)
    assert all(result.on_bar(1) == 1 for result in results)
    assert max_dice_playable(board, 0, (5, 3)) == 2
