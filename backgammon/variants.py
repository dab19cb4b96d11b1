"""Rule variants and their starting positions (docs/games.md, Board and checkers).

A variant is always a parameter, never a silent choice. Backward hitting starts like standard backgammon; its
one extra rule (a checker may also hit backwards) is the BackwardHitting flag the move functions take.
"""

from __future__ import annotations

from enum import StrEnum

from backgammon.board import Board


class Variant(StrEnum):
    STANDARD = "standard"
    NACKGAMMON = "nackgammon"
    HYPERGAMMON1 = "hypergammon1"
    HYPERGAMMON2 = "hypergammon2"
    HYPERGAMMON3 = "hypergammon3"
    BACKWARD = "backward"


class BackwardHitting(StrEnum):
    """Which dice may hit backwards in backgammon with backward hitting: either die, or (one club's form) only
    the smaller die of a non-double, so a double hits no checker backwards."""

    ANY_DIE = "any die"
    SMALLER_DIE = "smaller die"


# own point -> checkers, identical for both sides
_START: dict[Variant, dict[int, int]] = {
    Variant.STANDARD: {24: 2, 13: 5, 8: 3, 6: 5},
    Variant.BACKWARD: {24: 2, 13: 5, 8: 3, 6: 5},
    Variant.NACKGAMMON: {24: 2, 23: 2, 13: 4, 8: 3, 6: 4},
    Variant.HYPERGAMMON1: {24: 1},
    Variant.HYPERGAMMON2: {24: 1, 23: 1},
    Variant.HYPERGAMMON3: {24: 1, 23: 1, 22: 1},
}


def checkers_per_side(variant: Variant | str) -> int:
    return sum(_START[Variant(variant)].values())


def starting_board(variant: Variant | str = Variant.STANDARD) -> Board:
    """The position before the opening roll; both sides are set up alike."""
    layout = _START[Variant(variant)]
    row = tuple(layout.get(index + 1, 0) for index in range(25))
    return Board(checkers=(row, row), total=checkers_per_side(variant))
