"""Long nardy boards for the tests, written as a player reads them: the mover's checkers by the mover's own
points, the opponent's checkers by the MOVER's points too (the opponent's head is the mover's 12, its home the
mover's 13–18). Checkers not placed have been borne off."""

from backgammon.nardy.board import CHECKERS, NardyBoard
from backgammon.nardy.moves import Step


def nardy_board(mine: dict[int, int], theirs: dict[int, int] | None = None, *, side: int = 0) -> NardyBoard:
    view = [0] * 24
    for point, count in mine.items():
        view[point - 1] += count
    for point, count in (theirs or {}).items():
        assert view[point - 1] == 0, f"both sides on the mover's {point}"
        view[point - 1] -= count
    off = (CHECKERS - sum(mine.values()), CHECKERS - sum((theirs or {}).values()))
    return NardyBoard.from_view(side, tuple(view), off)


def apply_steps(board: NardyBoard, side: int, steps: list[Step] | tuple[Step, ...]) -> NardyBoard:
    """The board after `steps`, applied without any rule check: what the expected plays of a table mean."""
    view = list(board.view(side))
    off = board.off[side]
    for start, end in steps:
        view[start - 1] -= 1
        if end:
            view[end - 1] += 1
        else:
            off += 1
    return NardyBoard.from_view(side, tuple(view), (off, board.off[1 - side]))

