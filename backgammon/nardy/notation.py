"""Long nardy moves as text: from/to steps on the mover's own numbering (24 = the head, `off` = borne off).

Why not the backgammon notation module: nardy has no bar and no hits, and its points are not mirrored, so the
bar, `*` and the 25 − p arithmetic of backgammon/matchfiles/notation.py would all be wrong here.

Read: `24/18 18/14`, a chain `24/18/14`, a combined step `24/14`, repeats `24/20(2)`, `6/off` (or `6/0`),
`Cannot Move` or nothing for a roll with no play. Written: one from/to per die, in the order played.
"""

from __future__ import annotations

import re

from backgammon.nardy.errors import NardyError

Segment = tuple[int, int]  # (from, to) as written; to = 0 is off; may span several dice
CANNOT_MOVE = "Cannot Move"
_TOKEN = re.compile(r"^(\d{1,2}|off)(?:/(\d{1,2}|off))+(?:\((\d)\))?$", re.IGNORECASE)


class NotationError(NardyError):
    def __init__(self, message: str) -> None:
        super().__init__("illegal_move", message)


def _point(text: str, token: str) -> int:
    if text.lower() == "off":
        return 0
    point = int(text)
    if not 0 <= point <= 24:
        raise NotationError(f"'{token}': points run from 24 to 1 (off is 0)")
    return point


def parse_move(text: str) -> list[Segment]:
    """The written segments, in the order written; [] for no play."""
    text = text.strip()
    if not text or text.lower() == CANNOT_MOVE.lower():
        return []
    segments: list[Segment] = []
    for token in text.split():
        found = _TOKEN.match(token)
        if not found:
            raise NotationError(f"'{token}' is not a move: write from/to steps such as 24/18 or 6/off")
        repeat = int(found.group(3) or 1)
        points = [_point(part, token) for part in token.split("(")[0].split("/")]
        if points[0] == 0:
            raise NotationError(f"'{token}': a move cannot start from off")
        chain = list(zip(points, points[1:], strict=False))
        for start, end in chain:
            if end >= start:
                raise NotationError(f"'{token}': checkers move from higher to lower points")
        if not 1 <= repeat <= 4:
            raise NotationError(f"'{token}': a step repeats 1 to 4 times")
        segments += chain * repeat
    if len(segments) > 4:
        raise NotationError(f"'{text}' has {len(segments)} steps; a roll plays at most four")
    return segments


def format_point(point: int) -> str:
    return "off" if point == 0 else str(point)


def format_steps(steps: list[Segment] | tuple[Segment, ...]) -> str:
    """One from/to per step, in order; `Cannot Move` for none."""
    if not steps:
        return CANNOT_MOVE
    return " ".join(f"{start}/{format_point(end)}" for start, end in steps)
