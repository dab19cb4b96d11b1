"""A position drawn from its gnubg Position ID, as coordinates of an SVG viewBox (the template draws them; no
JavaScript). The board is seen by the player on roll: their home board bottom right, their checkers light, the
opponent's dark, borne-off checkers counted in the tray on the right, and both sides' pip counts."""

from __future__ import annotations

from dataclasses import dataclass

from backgammon.matchfiles.ids import board_from_position_id

WIDTH, HEIGHT = 300, 220
MARGIN, POINT_W, BAR_W, POINT_H, RADIUS = 8, 20, 20, 84, 9
SHOWN = 5  # checkers drawn on one point; a taller stack shows its count on the last


@dataclass(frozen=True)
class Checker:
    x: float
    y: float
    mine: bool
    label: str = ""  # the stack's count, on the last drawn checker of a tall stack


@dataclass(frozen=True)
class Drawing:
    width: int
    height: int
    triangles: list[tuple[str, bool]]  # "x,y x,y x,y", dark or light
    checkers: list[Checker]
    my_pips: int
    their_pips: int
    my_off: int
    their_off: int
    bar_x: float
    tray_x: float


def _x(point: int) -> float:
    """The centre of a point (1..24, the mover's numbering)."""
    right = MARGIN + 6 * POINT_W + BAR_W
    if point <= 6:
        return right + (6 - point) * POINT_W + POINT_W / 2
    if point <= 12:
        return MARGIN + (12 - point) * POINT_W + POINT_W / 2
    if point <= 18:
        return MARGIN + (point - 13) * POINT_W + POINT_W / 2
    return right + (point - 19) * POINT_W + POINT_W / 2


def _stack(x: float, count: int, *, top: bool, mine: bool) -> list[Checker]:
    out = []
    for k in range(min(count, SHOWN)):
        offset = MARGIN + RADIUS + k * 2 * RADIUS
        y = offset if top else HEIGHT - offset
        label = str(count) if count > SHOWN and k == SHOWN - 1 else ""
        out.append(Checker(x, y, mine, label))
    return out


def drawing(position_id: str) -> Drawing:
    """The drawing of a Position ID (IdFormatError when it is not one)."""
    board = board_from_position_id(position_id, side_on_roll=0)
    mine, theirs = board.checkers
    checkers: list[Checker] = []
    for index in range(24):
        point = index + 1
        if mine[index]:
            checkers += _stack(_x(point), mine[index], top=point > 12, mine=True)
        their_point = 24 - index  # their point index + 1 is the mover's point 24 - index
        if theirs[index]:
            checkers += _stack(_x(their_point), theirs[index], top=their_point > 12, mine=False)
    bar_x = MARGIN + 6 * POINT_W + BAR_W / 2
    checkers += _stack(bar_x, mine[24], top=False, mine=True) + _stack(bar_x, theirs[24], top=True, mine=False)
    triangles = []
    for point in range(1, 25):
        x, top = _x(point), point > 12
        base = MARGIN if top else HEIGHT - MARGIN
        tip = base + POINT_H if top else base - POINT_H
        left, right = x - POINT_W / 2, x + POINT_W / 2
        triangles.append((f"{left:g},{base:g} {right:g},{base:g} {x:g},{tip:g}", point % 2 == 0))
    return Drawing(
        width=WIDTH,
        height=HEIGHT,
        triangles=triangles,
        checkers=checkers,
        my_pips=sum((i + 1) * n for i, n in enumerate(mine)),
        their_pips=sum((i + 1) * n for i, n in enumerate(theirs)),
        my_off=board.total - sum(mine),
        their_off=board.total - sum(theirs),
        bar_x=bar_x,
        tray_x=MARGIN + 12 * POINT_W + BAR_W + 12,
    )
