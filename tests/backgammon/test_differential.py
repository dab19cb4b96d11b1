"""The move generator against gnubg-nn's (C, from GNU Backgammon) on random reachable positions.

gnubg-nn's board is [opponent, player on roll], each 25 counts in its own numbering with the bar last —
the layout of Board.checkers — and moves(board, d1, d2) returns the position key of every distinct result.
"""

import gnubg_nn
import pytest

from backgammon.board import Board
from backgammon.moves import legal_results
from backgammon.random_play import random_positions
from backgammon.variants import Variant


def gnubg_results(board: Board, side: int, dice: tuple[int, int]) -> set[Board]:
    keys = gnubg_nn.moves([list(board.checkers[1 - side]), list(board.checkers[side])], dice[0], dice[1], 0)
    if not keys:
        return {board}
    results = set()
    for key in keys:
        opponent, mover = gnubg_nn.board_from_position_key(key)
        results.add(Board(checkers=(mover, opponent) if side == 0 else (opponent, mover), total=board.total))
    return results


@pytest.mark.parametrize(
    ("variant", "count"),
    [
        (Variant.STANDARD, 10_000),
        (Variant.NACKGAMMON, 2_000),
        (Variant.HYPERGAMMON1, 500),
        (Variant.HYPERGAMMON2, 500),
        (Variant.HYPERGAMMON3, 1_000),
    ],
)
def test_legal_results_equal_gnubg_nn(variant, count):
    mismatches = []
    for board, side, dice in random_positions(seed=20261122, count=count, variant=variant):
        if legal_results(board, side, dice) != gnubg_results(board, side, dice):
            mismatches.append((board.render(), side, dice))
    assert mismatches == []
