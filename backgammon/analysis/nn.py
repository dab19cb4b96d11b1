"""Checker-play losses by the `gnubg-nn` package (GNU Backgammon's neural nets in Python): the fallback when the
program is not installed. Checker play only, cubeless, money play (the package keeps the score and the cube in
module-global state; nothing here sets them), at 0 or 1 ply.

A board is gnubg's [opponent, player on roll], each 25 counts in its own numbering (index 24 = the bar).
`moves()` answers with the keys of the boards after each legal play as [opponent, mover after the play], still
from the mover's side: the position is evaluated from the opponent's side (they are on roll next) and negated.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from importlib import metadata

import gnubg_nn

ENGINE = "gnubg-nn"
PLIES = (0, 1)


@dataclass(frozen=True)
class PlayLoss:
    steps: tuple[tuple[int, int], ...]  # (from, to) per checker moved, gnubg's numbering (25 bar, 0 off)
    key: str  # gnubg's position key of the board after the play, [opponent, mover]
    equity: float  # cubeless, from the mover's side
    loss: float  # the best play's equity less this one's (0 for the best)


def cubeless_equity(probabilities: Sequence[float]) -> float:
    """gnubg's five outputs (win, win gammon, win backgammon, lose gammon, lose backgammon) as money equity."""
    win, win_g, win_bg, lose_g, lose_bg = probabilities[:5]
    return 2.0 * win - 1.0 + win_g - lose_g + win_bg - lose_bg


# gnubg's move filter for a 1-ply analysis: of the plays at 0 ply, the best 8 within 0.16 of the best are
# evaluated again at 1 ply (the others cannot be the best at 1 ply, in gnubg's judgement).
FILTER_KEEP, FILTER_WITHIN = 8, 0.16


def _equity(key: str, plies: int) -> float:
    """The play's cubeless equity from the mover's side: the position after it, evaluated from the opponent's
    side (they are on roll next: their board goes second) and negated."""
    opponent, mover = gnubg_nn.board_from_position_key(key)
    return -cubeless_equity(gnubg_nn.probabilities([list(mover), list(opponent)], plies))


def play_losses(
    board: Sequence[Sequence[int]], die1: int, die2: int, *, plies: int = 0, must: str | None = None
) -> list[PlayLoss]:
    """The legal plays of the roll with their losses against the best, best first: at 0 ply every one; at 1 ply,
    as gnubg's analysis does, those its move filter keeps (FILTER_KEEP within FILTER_WITHIN at 0 ply) and the
    play whose key is `must` (the play made, whose loss is asked for)."""
    if plies not in PLIES:
        raise ValueError(f"gnubg-nn is used at 0 or 1 ply, not {plies}")
    plays = []
    for key, steps in gnubg_nn.moves([list(board[0]), list(board[1])], die1, die2, 1):
        plays.append((tuple(tuple(s) for s in steps if tuple(s) != (0, 0)), key, _equity(key, 0)))
    if not plays:
        return []
    if plies == 1:
        plays.sort(key=lambda play: -play[2])
        kept = [p for p in plays[:FILTER_KEEP] if plays[0][2] - p[2] <= FILTER_WITHIN]
        kept += [p for p in plays if p[1] == must and p not in kept]
        plays = [(steps, key, _equity(key, 1)) for steps, key, _zero in kept]
    best = max(e for _s, _k, e in plays)
    return sorted((PlayLoss(steps, key, equity, best - equity) for steps, key, equity in plays), key=lambda p: p.loss)


def version() -> str:
    """The package's version, as the figures name their engine's."""
    try:
        return metadata.version("gnubg-nn")
    except metadata.PackageNotFoundError:
        return "unknown"
