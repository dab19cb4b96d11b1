"""The board: counts, pips, bar, off, the two numberings, and the diagram."""

import pytest

from backgammon.board import Board
from backgammon.variants import Variant, starting_board
from tests.backgammon.positions import make_board

START = starting_board(Variant.STANDARD)


def test_start_counts():
    assert START.pip_count(0) == START.pip_count(1) == 167
    assert START.off(0) == START.on_bar(1) == 0
    assert START.count(0, 13) == 5


def test_bar_counts_25_pips_and_borne_off_checkers_are_the_rest():
    board = make_board({25: 1, 3: 2}, total=15)
    assert board.pip_count(0) == 31
    assert board.on_bar(0) == 1
    assert board.off(0) == 12


def test_my_point_is_the_opponents_25_minus_point():
    assert Board.opponent_point(1) == 24
    assert Board.opponent_point(24) == 1
    board = make_board({}, {13: 2})
    assert board.count(1, Board.opponent_point(13)) == 2


def test_impossible_boards_are_refused():
    row = (0,) * 24 + (0,)
    with pytest.raises(ValueError, match="25 non-negative counts"):
        Board(checkers=((16,) + row[1:], row))
    with pytest.raises(ValueError, match="both sides"):
        Board(checkers=((1,) + row[1:], row[:23] + (1, 0)))


def test_render_shows_both_sides_bar_off_and_pips():
    text = make_board({25: 1, 6: 2}, {5: 1}).render()
    assert "X2" in text and "O1" in text
    assert "bar X1 O0" in text
    assert "pips X37 O20" in text


def test_a_board_is_its_counts_however_it_was_made():
    from backgammon.moves import legal_results

    after = next(iter(legal_results(START, 0, (6, 6))))  # made by the move generator from an integer key
    rebuilt = Board(checkers=after.checkers, total=15)
    assert after == rebuilt and hash(after) == hash(rebuilt)
    assert Board(checkers=([list(row) for row in START.checkers][0], START.checkers[1])) == START  # lists too
    assert sum(after.checkers[0]) == 15 and isinstance(after.checkers[0], tuple)


def test_boards_are_immutable_and_survive_copy_and_pickle():
    import copy
    import pickle

    with pytest.raises(AttributeError):
        START.total = 3
    with pytest.raises(AttributeError):
        START.checkers = START.checkers
    assert pickle.loads(pickle.dumps(START)) == START
    assert copy.deepcopy(START) == START
    assert repr(START).startswith("Board(checkers=((0, 0, 0, 0, 0, 5,")
