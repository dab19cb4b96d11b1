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

import gnubg_nn

ENGINE = "gnubg-nn"
PLIES = (0, 1)


@dataclass(frozen=True)
class PlayLoss:
    steps: tuple[tuple[int, int], ...]  # (from, to) per checker moved, gnubg's numbering (25 bar, 0 off)
    equity: float  # cubeless, from the mover's side
    loss: float  # the best play's equity less this one's (0 for the best)


def cubeless_equity(probabilities: Sequence[float]) -> float:
    """gnubg's five outputs (win, win gammon, win backgammon, lose gammon, lose backgammon) as money equity."""
    win, win_g, win_bg, lose_g, lose_bg = probabilities[:5]
    return 2.0 * win - 1.0 + win_g - lose_g + win_bg - lose_bg


def play_losses(board: Sequence[Sequence[int]], die1: int, die2: int, *, plies: int = 0) -> list[PlayLoss]:
    """Every legal play of the roll with its loss against the best, best first."""
    if plies not in PLIES:
        raise ValueError(f"gnubg-nn is used at 0 or 1 ply, not {plies}")
    plays = []
    for key, steps in gnubg_nn.moves([list(board[0]), list(board[1])], die1, die2, 1):
        opponent, mover = gnubg_nn.board_from_position_key(key)
        # the opponent is on roll next: their board goes second, and their equity is the mover's, negated
        equity = -cubeless_equity(gnubg_nn.probabilities([list(mover), list(opponent)], plies))
        plays.append((tuple(tuple(s) for s in steps if tuple(s) != (0, 0)), equity))
    if not plays:
        return []
    best = max(e for _s, e in plays)
    return sorted((PlayLoss(steps, equity, best - equity) for steps, equity in plays), key=lambda p: p.loss)
