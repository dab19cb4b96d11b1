"""The long nardy match record: a text in the spirit of Jellyfish `.mat`, read and written.

Why its own format: a `.mat` reader takes `Variation` to be a backgammon variant and replays the moves on a
backgammon board; a nardy record read that way would be nonsense. This one keeps the `.mat` layout a director
already reads (headers, `N point match`, `Game K`, the score line, numbered lines with one column per player),
requires `; [Variation "Long Nardy"]`, and writes moves as from/to steps on the mover's own numbering
(notation.py). docs/variants.md has an example.

    ; [Variation "Long Nardy"]
    ; [HeadDoubles "33 44 66"]
    ; [SixBlock "ahead"]
    3 point match

     Game 1
     Anna : 0                             Boris : 0
      1) 64: 24/18 18/14                  55: 24/19 19/14 14/9 9/4
      ...
     40)                                  Wins 2 points

The left column is the first-named player. A line whose only cell starts at column 20 or further is the
second player's (so a game the second player opens starts with an empty left cell). A game ends with the
winner's `Wins n point(s)`, ` and the match` after the deciding game.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from backgammon.matchfiles.mat import GAME_LINE, HEADER_LINE, LENGTH_LINE, MOVE_LINE, SCORE_LINE, variation_key
from backgammon.nardy.errors import NardyRecordError
from backgammon.nardy.settings import ANY_HEAD_DOUBLES, BlockRule, NardySettings

VARIATION = "Long Nardy"
MAX_RECORD_BYTES = 2 * 1024 * 1024
RIGHT_COLUMN = 20  # a lone cell starting here or further right is the second player's
_LEFT_WIDTH = 30

# The headers, the match line, `Game K`, the score line and numbered move lines are the .mat grammar
# (backgammon.matchfiles.mat); what differs is only the cells.
_HEADER, _LENGTH, _GAME, _SCORE, _MOVE_LINE = HEADER_LINE, LENGTH_LINE, GAME_LINE, SCORE_LINE, MOVE_LINE
MAX_LENGTH = 9999
_CELL = re.compile(r"(?<!\S)(?:(?P<d1>[1-6])(?P<d2>[1-6]):|Wins\s+(?P<points>\d{1,4})\s+points?)", re.IGNORECASE)
_WIN = re.compile(r"^Wins\s+(\d{1,4})\s+points?(\s+and\s+the\s+match)?$", re.IGNORECASE)


@dataclass(frozen=True)
class NardyAction:
    """A roll and its written move, or (dice None) the winner's `Wins n points` line."""

    player: int  # 0 = the first-named player (left column)
    move_number: int
    dice: tuple[int, int] | None = None
    move: str = ""
    points: int | None = None
    match_won: bool = False
    line: int = field(default=0, compare=False)

    @property
    def text(self) -> str:
        if self.dice is None:
            unit = "point" if self.points == 1 else "points"
            return f"Wins {self.points} {unit}" + (" and the match" if self.match_won else "")
        return f"{self.dice[0]}{self.dice[1]}: {self.move}".rstrip()


@dataclass(frozen=True)
class NardyGame:
    number: int
    scores: tuple[int, int]  # the score before this game, as written
    actions: tuple[NardyAction, ...]
    line: int = field(default=0, compare=False)
    score_line: int = field(default=0, compare=False)


@dataclass(frozen=True)
class NardyRecord:
    length: int  # 0: an open session
    players: tuple[str, str]
    games: tuple[NardyGame, ...]
    headers: tuple[tuple[str, str], ...] = (("Variation", VARIATION),)

    def header(self, key: str, default: str = "") -> str:
        for name, value in self.headers:
            if name.lower() == key.lower():
                return value
        return default

    @property
    def settings(self) -> NardySettings:
        """The club settings the headers name (the defaults where they name none)."""
        return settings_from_headers(self.headers)


def settings_from_headers(headers: tuple[tuple[str, str], ...]) -> NardySettings:
    values = {name.lower(): value.strip() for name, value in headers}
    head = values.get("headdoubles", "")
    doubles = NardySettings().head_doubles
    if head:
        if head.lower() == "any":
            doubles = ANY_HEAD_DOUBLES
        else:
            parts = head.split()
            if not parts or any(len(part) != 2 or part[0] != part[1] or part[0] not in "123456" for part in parts):
                raise NardyRecordError(f"HeadDoubles '{head}': write doubles such as \"33 44 66\", or \"any\"")
            doubles = frozenset(int(part[0]) for part in parts)
    block = values.get("sixblock", BlockRule.AHEAD.value).lower()
    if block not in {rule.value for rule in BlockRule}:
        choices = " or ".join(f'"{rule.value}"' for rule in BlockRule)
        raise NardyRecordError(f"SixBlock '{block}': write {choices}")
    return NardySettings(head_doubles=doubles, block_rule=BlockRule(block))


def settings_headers(settings: NardySettings) -> tuple[tuple[str, str], ...]:
    """The headers that name `settings` (what write_nardy puts after the Variation)."""
    doubles = " ".join(f"{die}{die}" for die in sorted(settings.head_doubles))
    return (("HeadDoubles", doubles), ("SixBlock", settings.block_rule.value))


def _decode(data: bytes | str) -> list[str]:
    if isinstance(data, bytes):
        if len(data) > MAX_RECORD_BYTES:
            raise NardyRecordError("the record is larger than 2 MiB; a match record is far smaller")
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            text = data.decode("latin-1")
    else:
        text = data.removeprefix("\ufeff")
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def _cells(raw: str, offset: int, number: int, move_number: int) -> list[NardyAction]:
    """The actions on one numbered line; `offset` is where the text after `NN)` starts."""
    body = raw[offset:]
    starts = list(_CELL.finditer(body))
    if not starts:
        if body.strip():
            raise NardyRecordError(
                f"'{body.strip()}' is neither a roll ('64: 24/18 18/14') nor 'Wins n points'", line=number
            )
        return []
    if body[: starts[0].start()].strip():
        raise NardyRecordError(f"'{body[: starts[0].start()].strip()}' before the first roll", line=number)
    if len(starts) > 2:
        raise NardyRecordError("a line holds at most two cells, one per player", line=number)
    actions = []
    for index, found in enumerate(starts):
        end = starts[index + 1].start() if index + 1 < len(starts) else len(body)
        text = body[found.start() : end].strip()
        # two cells: left and right; a lone cell: its column tells
        player = index if len(starts) == 2 else int(offset + found.start() >= RIGHT_COLUMN)
        if found.group("d1"):
            dice = (int(found.group("d1")), int(found.group("d2")))
            move = text[3:].strip()
            actions.append(NardyAction(player, move_number, dice=dice, move=move, line=number))
            continue
        win = _WIN.match(text)
        if not win:
            raise NardyRecordError(f"'{text}': write 'Wins n point(s)' with nothing after it", line=number)
        actions.append(
            NardyAction(player, move_number, points=int(win.group(1)), match_won=bool(win.group(2)), line=number)
        )
    return actions


def parse_nardy(data: bytes | str) -> NardyRecord:
    """Read a long nardy record. Raises NardyRecordError naming the line, never anything else."""
    lines = _decode(data)
    headers: list[tuple[str, str]] = []
    length: int | None = None
    players: tuple[str, str] | None = None
    games: list[dict] = []
    for number, raw in enumerate(lines, start=1):
        stripped = raw.strip()
        if not stripped:
            continue
        if "\x00" in raw:
            raise NardyRecordError("the file holds binary data", line=number)
        if stripped.startswith(";"):
            found = _HEADER.match(stripped)
            if found and length is None:
                headers.append((found.group(1).strip(), found.group(2)))
            continue
        if length is None:
            found = _LENGTH.match(stripped)
            if not found:
                raise NardyRecordError("a record starts with 'N point match' (0 for an open session)", line=number)
            length = int(found.group(1))
            if length > MAX_LENGTH:
                raise NardyRecordError(f"a {length}-point match is longer than any match is played", line=number)
            continue
        found = _GAME.match(stripped)
        if found:
            games.append({"number": int(found.group(1)), "line": number, "scores": None, "actions": []})
            continue
        if not games:
            raise NardyRecordError("expected ' Game 1' after the match length", line=number)
        game = games[-1]
        if game["scores"] is None:
            score = _SCORE.match(raw)
            if not score:
                raise NardyRecordError("each 'Game N' line is followed by the score line 'A : x   B : y'", line=number)
            names = (score.group(1).strip(), score.group(3).strip())
            if players is None:
                players = names
            elif names != players:
                raise NardyRecordError(f"game {game['number']} is between {names[0]} and {names[1]}, not "
                                       f"{players[0]} and {players[1]}", line=number)
            game["scores"] = (int(score.group(2)), int(score.group(4)))
            game["score_line"] = number
            continue
        move_line = _MOVE_LINE.match(raw)
        if not move_line:
            raise NardyRecordError(f"'{stripped}': a move line starts with its number, as '12) '", line=number)
        game["actions"] += _cells(raw, move_line.start(2), number, int(move_line.group(1)))
    last = max((number for number, raw in enumerate(lines, start=1) if raw.strip()), default=1)
    _check_whole(headers, length, games, players, last)
    assert length is not None and players is not None
    return NardyRecord(
        length=length,
        players=players,
        games=tuple(
            NardyGame(game["number"], game["scores"], tuple(game["actions"]), game["line"], game["score_line"])
            for game in games
        ),
        headers=tuple(headers),
    )


def _check_whole(headers: list[tuple[str, str]], length: int | None, games: list[dict], players, last: int) -> None:
    variation = next((value for name, value in headers if name.lower() == "variation"), "")
    if variation_key(variation) != variation_key(VARIATION):
        raise NardyRecordError(
            f'a long nardy record names its game in the header ; [Variation "{VARIATION}"]'
            + (f", not '{variation}'" if variation else "")
        )
    settings_from_headers(tuple(headers))
    if length is None:
        raise NardyRecordError("no 'N point match' line", line=last)
    if not games or players is None:
        raise NardyRecordError("the record holds no game", line=last)
    if games[-1]["scores"] is None:
        raise NardyRecordError("the last game has no score line", line=last)


def write_nardy(record: NardyRecord) -> str:
    """The record as text (LF line ends); parse_nardy(write_nardy(r)) == r."""
    out = [f'; [{key} "{value}"]' for key, value in record.headers]
    out += ["", f"{record.length} point match", ""]
    for game in record.games:
        out.append(f" Game {game.number}")
        left = f" {record.players[0]} : {game.scores[0]}"
        out.append(f"{left:<{_LEFT_WIDTH + 6}}{record.players[1]} : {game.scores[1]}")
        rows: list[tuple[int, list[str]]] = []
        for action in game.actions:
            if rows and rows[-1][0] == action.move_number and action.player == 1 and not rows[-1][1][1]:
                rows[-1][1][1] = action.text
            else:
                cells = ["", ""]
                cells[action.player] = action.text
                rows.append((action.move_number, cells))
        for move_number, (left_cell, right_cell) in rows:
            out.append(f"{move_number:3d}) {left_cell:<{_LEFT_WIDTH}} {right_cell}".rstrip())
        out.append("")
    return "\n".join(out) + "\n"
