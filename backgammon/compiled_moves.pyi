# The compiled move generator (compiled_moves.c), built by tools/build_movegen.py.
from backgammon.board import Board

def results(board: Board, side: int, die1: int, die2: int, /) -> set[Board]: ...
def dice_used(board: Board, side: int, die1: int, die2: int, /) -> int: ...
def play(
    board: Board,
    side: int,
    die1: int,
    die2: int,
    steps: tuple[tuple[int, int], ...],
    hits: tuple[int, ...] | None,
    /,
) -> tuple[Board, tuple[tuple[int, int], ...]] | None: ...
