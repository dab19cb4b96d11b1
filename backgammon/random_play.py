"""Reachable positions by random legal play from the start: the sample the differential tests and the
move-generation benchmark share (seeded, so every run sees the same positions)."""

from __future__ import annotations

import random
from collections.abc import Iterator

from backgammon.board import Board
from backgammon.moves import legal_plays
from backgammon.variants import BackwardHitting, Variant, starting_board


def random_positions(
    *, seed: int, count: int, variant: Variant = Variant.STANDARD, backward: BackwardHitting | None = None
) -> Iterator[tuple[Board, int, tuple[int, int]]]:
    """`count` triples (board, side on roll, dice), walking games of random legal plays (with backward hits
    under `backward`); a new game starts when one side has borne everything off."""
    rng = random.Random(seed)
    produced = 0
    while produced < count:
        board, side = starting_board(variant), rng.randrange(2)
        while produced < count:
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            yield board, side, dice
            produced += 1
            board = rng.choice(legal_plays(board, side, dice, backward=backward)).result
            if board.off(side) == board.total:
                break
            side = 1 - side
