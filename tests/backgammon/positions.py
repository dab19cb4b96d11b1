"""Boards for rule tests, written the way a player reads them: the mover's points and the opponent's
checkers on the same (mover's) numbering."""

from backgammon.board import Board


def make_board(mine: dict[int, int], theirs: dict[int, int] | None = None, *, total: int = 15, side: int = 0) -> Board:
    """`mine`: mover's point -> checkers (25 = bar); `theirs`: opponent's checkers by the MOVER's point
    numbering (0 = the opponent's bar). The mover is `side`."""
    mover = [0] * 25
    for point, count in mine.items():
        mover[point - 1] += count
    opponent = [0] * 25
    for point, count in (theirs or {}).items():
        opponent[24 if point == 0 else 24 - point] += count
    rows = (tuple(mover), tuple(opponent))
    return Board(checkers=rows if side == 0 else (rows[1], rows[0]), total=total)
