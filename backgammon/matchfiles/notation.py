"""Move text as record formats write it, decoded into steps in the mover's own numbering (25 = bar, 0 = off).

Every dialect of docs/games.md (Dialects): `24/18`, `bar/22*`, `Bar/24`, `25/22`, `6/off`, `6/Off`, `3/0`, `8/3(2)`,
combined `24/16*`, chains `13/7*/1`. A written step may span several dice; the rules engine splits it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from base.errors import DomainError

Step = tuple[int, int]

BAR = 25
OFF = 0

# What one record may hold, checked by the readers while they read (README: Configuration, record limits).
# The largest real record seen holds 22 games and 872 actions; verifying 30,000 actions takes about 2 s.
MAX_GAMES = 500
MAX_ACTIONS = 30_000
MAX_NAME = 80  # characters of a player's name kept from a record


class RecordFormatError(DomainError):
    """The text cannot be read as a match record. `line` is the 1-based file line (0 when unknown); it is one of
    the `params` too, so a translated message can name it. A record that cannot be read is bad input (400)."""

    def __init__(self, code: str, message: str, line: int = 0, **params: object) -> None:
        super().__init__(code, message, None, line=line, **params)
        self.line = line

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}" if self.line else self.message


@dataclass(frozen=True)
class DecodedMove:
    steps: tuple[Step, ...]
    hits: tuple[int, ...]  # points (mover's numbering) where the text marks a hit


_POINT = r"(?:bar|off|\d{1,2})"
_MOVE_TOKEN = re.compile(rf"^{_POINT}\*?(?:/{_POINT}\*?)+(?:\((\d)\))?$", re.IGNORECASE)


def _point(text: str, *, line: int, token: str) -> int:
    lowered = text.lower()
    if lowered == "bar":
        return BAR
    if lowered == "off":
        return OFF
    value = int(text)
    if not 0 <= value <= BAR:
        raise RecordFormatError(
            "bad_point",
            f"'{token}' names point {value}; points run from 1 to 24 (25 bar, 0 off).",
            line,
            token=token,
            point=value,
        )
    return value


def decode_move(text: str, *, line: int = 0) -> DecodedMove:
    """Steps of a written move such as `13/7*/1 8/3(2)`; an empty text means no checker moved."""
    try:
        return _decode(text)
    except RecordFormatError as error:
        params = {key: value for key, value in error.params.items() if key != "line"}
        raise RecordFormatError(error.code, error.message, line, **params) from None


@lru_cache(maxsize=16384)  # the same moves recur across records (the corpus has about 11,000 different ones)
def _decode(text: str) -> DecodedMove:
    steps: list[Step] = []
    hits: list[int] = []
    for token in text.split():
        token_steps, token_hits = _decode_token(token)
        steps += token_steps
        hits += token_hits
    if len(steps) > 8:
        raise RecordFormatError(
            "too_many_steps",
            f"'{text}' has {len(steps)} steps; a roll moves at most 4 checkers.",
            token=text,
            steps=len(steps),
        )
    return DecodedMove(steps=tuple(steps), hits=tuple(hits))


@lru_cache(maxsize=4096)  # far fewer different tokens than moves: `13/7*`, `bar/22`, `8/3(2)`
def _decode_token(token: str) -> tuple[tuple[Step, ...], tuple[int, ...]]:
    """(steps, points marked as hits) of one token; RecordFormatError (line 0) when it is not a checker move."""
    line = 0
    match = _MOVE_TOKEN.match(token)
    if not match:
        raise RecordFormatError(
            "bad_move",
            f"'{token}' is not a checker move; write moves as from/to, e.g. 24/18, bar/22*, 6/off, 8/3(2).",
            line,
            token=token,
        )
    repeat_text = match.group(1)
    repeat = int(repeat_text) if repeat_text else 1
    if not 1 <= repeat <= 4:
        raise RecordFormatError(
            "bad_repeat",
            f"'{token}' repeats a move {repeat} times; a roll moves at most 4 checkers.",
            line,
            token=token,
            repeat=repeat,
        )
    points = []
    hits = []
    for part in (token.split("(")[0] if repeat_text else token).split("/"):
        marked = part.endswith("*")  # the pattern allows one `*` after a point
        name = part[:-1] if marked else part
        point = _point(name, line=line, token=token) if not name.isdecimal() or len(name) > 1 else int(name)
        points.append(point)
        if marked:
            hits.append(point)
    chain = tuple((points[i], points[i + 1]) for i in range(len(points) - 1))
    return chain * repeat, tuple(hits)


def format_point(point: int) -> str:
    return "bar" if point == BAR else "off" if point == OFF else str(point)


def encode_steps(steps: tuple[Step, ...] | list[Step]) -> str:
    """Steps written one per token (`bar/22 13/11`), as the SGF importer needs to round-trip them."""
    return " ".join(f"{format_point(a)}/{format_point(b)}" for a, b in steps)
