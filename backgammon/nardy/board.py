"""The long nardy board: 24 points, 15 checkers a side, no bar (nothing is ever hit).

Why a board of its own: in backgammon the two sides move in opposite directions, so one side's point p is the
other's 25 − p (backgammon/board.py). In long nardy both sides move counter-clockwise and start on opposite
corners, so one side's route is the other's turned half a board round: my point p is the opponent's point
p + 12 (p ≤ 12) or p − 12 (p > 12).

Each side numbers its own route from 24 (its head, where its 15 checkers start) down to 1; its home is points
1–6 and a checker borne off has reached 0. `cells` holds the board in side 0's numbering: cells[i] is side 0's
point i + 1, a positive count for side 0's checkers, a negative count for side 1's.
"""

from __future__ import annotations

from dataclasses import dataclass

from backgammon.nardy.errors import NardyError

POINTS = 24
CHECKERS = 15
HEAD = 24
HOME = range(1, 7)


def rotate(point: int) -> int:
    """A point in one side's numbering as the other side numbers it (the same formula both ways)."""
    return point + 12 if point <= 12 else point - 12


def rotate_cells(cells: tuple[int, ...]) -> tuple[int, ...]:
    """Signed cells seen from the other side: its checkers become the positive ones, on its own numbering
    (the other side's point i + 1 is my point i + 13, or i − 11 past the 24)."""
    return tuple([-value for value in cells[12:]] + [-value for value in cells[:12]])


@dataclass(frozen=True)
class NardyBoard:
    """cells: 24 signed counts on side 0's numbering (+ side 0, − side 1); off: checkers each side bore off."""

    cells: tuple[int, ...]
    off: tuple[int, int] = (0, 0)

    def __post_init__(self) -> None:
        if len(self.cells) != POINTS:
            raise NardyError("invalid_board", f"a long nardy board has {POINTS} points, got {len(self.cells)}")
        for side in (0, 1):
            on_board = sum(count for count in self.cells if (count > 0 if side == 0 else count < 0))
            if self.off[side] < 0 or abs(on_board) + self.off[side] != CHECKERS:
                raise NardyError(
                    "invalid_board",
                    f"side {side} has {abs(on_board)} checkers on the board and {self.off[side]} off; "
                    f"it needs {CHECKERS} in all",
                )

    @classmethod
    def start(cls) -> NardyBoard:
        """Both sides' fifteen checkers on their heads: side 0's 24-point and side 1's (side 0's 12-point)."""
        cells = [0] * POINTS
        cells[HEAD - 1] = CHECKERS
        cells[rotate(HEAD) - 1] = -CHECKERS
        return cls(tuple(cells))

    @classmethod
    def from_view(
        cls, side: int, view: tuple[int, ...], off: tuple[int, int], *, trusted: bool = False
    ) -> NardyBoard:
        """The board from `side`'s view (its own numbering, its checkers positive); `off` is (side's, other's).
        `trusted`: the move generator made the view from a valid board, so the checks are skipped (its hot
        path builds a board per legal play)."""
        cells, offs = (tuple(view), off) if side == 0 else (rotate_cells(view), (off[1], off[0]))
        if not trusted:
            return cls(cells, offs)
        board = object.__new__(cls)
        object.__setattr__(board, "cells", cells)
        object.__setattr__(board, "off", offs)
        return board

    def view(self, side: int) -> tuple[int, ...]:
        """The cells in `side`'s own numbering, `side`'s checkers positive: what the move generator works on."""
        return self.cells if side == 0 else rotate_cells(self.cells)

    def count(self, side: int, point: int) -> int:
        """`side`'s checkers on its own `point` (1..24)."""
        value = self.view(side)[point - 1]
        return value if value > 0 else 0

    def opponent_on(self, side: int, point: int) -> int:
        """The other side's checkers on `side`'s own `point`."""
        value = self.view(side)[point - 1]
        return -value if value < 0 else 0

    def pip_count(self, side: int) -> int:
        """Pips `side` needs to bear everything off."""
        return sum((index + 1) * count for index, count in enumerate(self.view(side)) if count > 0)

    def all_home(self, side: int) -> bool:
        return not any(count > 0 for count in self.view(side)[6:])

    def render(self) -> str:
        """A diagram on side 0's numbering: X is side 0, O is side 1 (both move from high to low numbers)."""

        def cell(point: int) -> str:
            value = self.cells[point - 1]
            return (f"X{value}" if value > 0 else f"O{-value}" if value < 0 else ".").rjust(3)

        return "\n".join(
            [
                " 13 14 15 16 17 18 19 20 21 22 23 24",
                "".join(cell(point) for point in range(13, 25)),
                "".join(cell(point) for point in range(12, 0, -1)),
                " 12 11 10  9  8  7  6  5  4  3  2  1",
                f"off X{self.off[0]} O{self.off[1]}  pips X{self.pip_count(0)} O{self.pip_count(1)}",
            ]
        )
