"""A written move played on a board: the engine's verdict, with the doubles that records write checker by
checker tried hop by hop. Shared by the verifier and the SGF writer (which replays moves to write them), so
neither imports the other for it."""

from __future__ import annotations

from backgammon.board import Board
from backgammon.matchfiles.notation import DecodedMove
from backgammon.moves import PlayCheck, check_play
from backgammon.variants import BackwardHitting


def play_written(
    board: Board, side: int, dice: tuple[int, int], decoded: DecodedMove, *, backward: BackwardHitting | None = None
) -> PlayCheck:
    """The engine's verdict on a written move, with doubles that move several checkers several pips each
    also tried hop by hop (see _retry_in_rounds). `backward`: the backward-hitting rule, if the game has one."""
    check = check_play(board, side, dice, decoded.steps, hits=decoded.hits, backward=backward)
    if not check.ok and check.code == "illegal_move":
        check = _retry_in_rounds(board, side, dice, decoded.steps, decoded.hits, backward) or check
    return check


def _retry_in_rounds(board: Board, side: int, dice: tuple[int, int], steps, hits, backward=None):
    """`bar/13(2)` or `10/off(2)` with a double: both checkers make their first hop before either makes its second.

    The engine realises each written step on its own, one after the other; when a double moves several
    checkers several pips each, the legal order interleaves them. Split such steps into single dice and play
    them round by round; the engine still judges the result.
    """
    die = dice[0]
    if dice[0] != dice[1] or all(start - end <= die for start, end in steps):
        return None
    if any(end > start for start, end in steps):
        return None  # a backward hit is one die: nothing to split
    hops: list[list[tuple[int, int]]] = []
    for start, end in steps:
        chain, point = [], start
        while point - die > end:
            chain.append((point, point - die))
            point -= die
        chain.append((point, end))
        hops.append(chain)
    rounds = [hop[i] for i in range(max(len(h) for h in hops)) for hop in hops if i < len(hop)]
    check = check_play(board, side, dice, rounds, hits=hits, backward=backward)
    return check if check.ok else None
