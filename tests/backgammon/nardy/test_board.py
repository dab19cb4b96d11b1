"""The long nardy board: both sides move the same way round, so one side's point p is the other's p ± 12."""

import pytest

from backgammon.nardy.board import NardyBoard, rotate
from backgammon.nardy.errors import NardyError
from backgammon.nardy.settings import NardySettings
from tests.backgammon.nardy.positions import nardy_board


def test_the_heads_stand_on_opposite_corners():
    board = NardyBoard.start()
    assert board.count(0, 24) == 15 and board.count(1, 24) == 15
    assert board.opponent_on(0, 12) == 15 and board.opponent_on(1, 12) == 15  # each head is the other's 12
    assert board.pip_count(0) == board.pip_count(1) == 360
    assert not board.all_home(0)
    diagram = board.render()
    assert "X15" in diagram and "O15" in diagram and "pips X360 O360" in diagram


@pytest.mark.parametrize("point", range(1, 25))
def test_the_numberings_differ_by_half_a_board(point):
    assert rotate(rotate(point)) == point
    assert abs(rotate(point) - point) == 12
    board = nardy_board({point: 1, **({1: 14} if point != 1 else {2: 14})}, {})
    assert board.count(0, point) == 1
    assert board.opponent_on(1, rotate(point)) == 1  # the same checker, seen from the other side


def test_the_home_is_the_last_quarter_of_the_route():
    assert nardy_board({6: 5, 1: 10}).all_home(0)
    assert not nardy_board({7: 1, 1: 14}).all_home(0)


@pytest.mark.parametrize(
    ("cells", "off"),
    [
        ((15,) + (0,) * 22, (0, 15)),  # 23 points
        ((16,) + (0,) * 23, (0, 15)),  # sixteen checkers
        ((15,) + (0,) * 23, (0, 14)),  # fourteen
        ((14,) + (0,) * 23, (1, 16)),  # too many off
    ],
)
def test_a_board_without_fifteen_checkers_a_side_is_refused(cells, off):
    with pytest.raises(NardyError) as refused:
        NardyBoard(cells, off)
    assert refused.value.code == "invalid_board"


def test_head_doubles_are_dice():
    with pytest.raises(NardyError) as refused:
        NardySettings(head_doubles=frozenset({7}))
    assert refused.value.code == "invalid_settings"
    assert NardySettings().head_budget((6, 6), first_turn=True) == 2
    assert NardySettings().head_budget((6, 6), first_turn=False) == 1
    assert NardySettings().head_budget((5, 5), first_turn=True) == 1
