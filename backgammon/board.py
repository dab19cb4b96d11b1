"""The board as the rules engine sees it: an immutable count of checkers per point, per side.

Each side counts points from its own point of view (docs/games.md, Board and checkers): it moves from its
24-point down to its 1-point, its home board is 1–6. `checkers[side][i]` for i = 0..23 is the side's own point
i + 1, index 24 is the bar; a checker that is neither on a point nor on the bar has been borne off. My point p
is the opponent's point 25 − p.
"""

from __future__ import annotations

from functools import cached_property
from operator import itemgetter
from typing import NoReturn

BAR_INDEX = 24
POINTS = 24
_SIDE_BITS = 200  # 25 counts of 8 bits
_SIDE_MASK = (1 << _SIDE_BITS) - 1


def board_key(checkers: tuple[tuple[int, ...], tuple[int, ...]]) -> int:
    """The position as one integer: byte i (little-endian) is side 0's count i, byte 25 + i side 1's."""
    return int.from_bytes(bytes(checkers[0]) + bytes(checkers[1]), "little")


def swap_key(key: int) -> int:
    """The key with the two sides' halves exchanged."""
    return (key >> _SIDE_BITS) | ((key & _SIDE_MASK) << _SIDE_BITS)


class Board(tuple):
    """checkers[side][i]: i = 0..23 is the side's OWN point i + 1, i = 24 is the bar; side is 0 or 1.

    Borne-off checkers are `total - sum(checkers[side])`. Instances are immutable, hashable and compare by value.

    Underneath, a Board is the pair (key, total), key being board_key(checkers): the move generator makes tens
    of boards per call straight from such integers, and a pair of ints is built, hashed and compared in C far
    faster than two tuples of 25 counts. `checkers` is unpacked from the key when first asked for, then kept.
    """

    total: int = property(itemgetter(1))  # type: ignore[assignment]
    key: int = property(itemgetter(0))  # type: ignore[assignment]

    def __new__(cls, checkers: tuple[tuple[int, ...], tuple[int, ...]], total: int = 15) -> Board:
        for side in (0, 1):
            row = checkers[side]
            if len(row) != 25 or min(row) < 0 or sum(row) > total:
                raise ValueError(
                    f"side {side} needs 25 non-negative counts (24 points and the bar) adding up to at most "
                    f"{total}, got {row}"
                )
        for point in range(1, POINTS + 1):
            if checkers[0][point - 1] and checkers[1][POINTS - point]:
                raise ValueError(f"both sides have checkers on side 0's {point}-point")
        board = tuple.__new__(cls, (board_key(checkers), total))
        board.__dict__["checkers"] = (tuple(checkers[0]), tuple(checkers[1]))
        return board

    @classmethod
    def from_key(cls, key: int, total: int) -> Board:
        """A board from a key the engine produced itself: no validation (the move generator's hot path)."""
        return tuple.__new__(cls, (key, total))

    @cached_property
    def checkers(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        counts = self[0].to_bytes(50, "little")
        return (tuple(counts[:25]), tuple(counts[25:]))

    def __setattr__(self, name: str, value: object) -> NoReturn:
        raise AttributeError(f"a Board is immutable; cannot set {name}")

    def __delattr__(self, name: str) -> NoReturn:
        raise AttributeError(f"a Board is immutable; cannot delete {name}")

    def __getnewargs__(self) -> tuple[tuple[tuple[int, ...], tuple[int, ...]], int]:
        return (self.checkers, self[1])  # copy and pickle call __new__(cls, checkers, total)

    def __repr__(self) -> str:
        return f"Board(checkers={self.checkers!r}, total={self[1]!r})"

    def off(self, side: int) -> int:
        """Checkers `side` has borne off."""
        counts = self[0].to_bytes(50, "little")  # straight from the key: no need to unpack the checkers
        return self[1] - sum(counts[25:] if side else counts[:25])

    def pip_count(self, side: int) -> int:
        """Pips `side` needs to bear everything off (a checker on the bar counts 25)."""
        return sum((index + 1) * count for index, count in enumerate(self.checkers[side]))

    def on_bar(self, side: int) -> int:
        return self.checkers[side][BAR_INDEX]

    def count(self, side: int, point: int) -> int:  # type: ignore[override]  # not tuple.count
        """Checkers of `side` on its own `point` (1..24, 25 = bar)."""
        return self.checkers[side][point - 1]

    @staticmethod
    def opponent_point(point: int) -> int:
        """My point p is the opponent's point 25 − p (the bar, 25, maps to 0 and back, as in the notation)."""
        return 25 - point

    def swapped(self) -> Board:
        """The same position with the sides' indices exchanged."""
        return Board(checkers=(self.checkers[1], self.checkers[0]), total=self.total)

    def render(self) -> str:
        """A small ASCII diagram from side 0's point of view: X is side 0, O is side 1, numbers are counts."""

        def cell(own_point: int) -> str:
            mine = self.checkers[0][own_point - 1]
            theirs = self.checkers[1][POINTS - own_point]
            if mine:
                return f"X{mine}".rjust(3)
            if theirs:
                return f"O{theirs}".rjust(3)
            return "  ."

        top = "".join(cell(p) for p in range(13, 25))
        bottom = "".join(cell(p) for p in range(12, 0, -1))
        return "\n".join(
            [
                " 13 14 15 16 17 18 19 20 21 22 23 24",
                top,
                bottom,
                " 12 11 10  9  8  7  6  5  4  3  2  1",
                f"bar X{self.on_bar(0)} O{self.on_bar(1)}  off X{self.off(0)} O{self.off(1)}  "
                f"pips X{self.pip_count(0)} O{self.pip_count(1)}",
            ]
        )
