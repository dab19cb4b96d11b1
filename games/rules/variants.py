"""Rule variants and their starting positions (docs/games.md, Board and checkers).

Room is left for long nardy and backward hitting: a variant is always a parameter, never a silent choice.
"""

from __future__ import annotations

from enum import StrEnum

from games.rules.board import Board


class Variant(StrEnum):
    STANDARD = "standard"
    NACKGAMMON = "nackgammon"
    HYPERGAMMON1 = "hypergammon1"
    HYPERGAMMON2 = "hypergammon2"
    HYPERGAMMON3 = "hypergammon3"


# own point -> checkers, identical for both sides
_START: dict[Variant, dict[int, int]] = {
    Variant.STANDARD: {24: 2, 13: 5, 8: 3, 6: 5},
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
