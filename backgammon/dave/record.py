"""The record of short backgammon with Dave: a Jellyfish `.mat` text whose cube actions are Daves.

Why not plain `.mat`: a `.mat` reader takes `Doubles => 2` for the cube and scores gammons; a Dave game has
neither. This record keeps the layout a director reads (headers, `N point match`, `Game K`, the score line,
numbered lines with one column per player), requires `; [Variation "Short Backgammon with Dave"]`, names the
progression in `; [Progression "geometric"]` (or "arithmetic"), and writes the Dave actions where `.mat` writes
the cube's:

     Game 1
     Anna : 0                             Boris : 0
      1) 31: 8/5 6/5                      Dave => 2
      2)  Accepts                         64: 24/18 13/9
      ...
     30)                                  Dave => 4
     31)  Gives up                        Wins 2 points

`Dave => n` offers the next stake n, `Accepts` plays on for it, `Gives up` pays the stake before it; moves are
backgammon moves (`24/18 13/9`, `bar/22*`, `6/off`, `Cannot Move`). A game ends with the winner's `Wins n
point(s)`, ` and the match` after a match's deciding game. `0 point match` is a money session: the score line
then holds each player's stake units won so far. docs/variants.md has a whole example.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from enum import StrEnum

from backgammon.dave.errors import DaveError, DaveRecordError
from backgammon.dave.stake import Progression
from backgammon.matchfiles.mat import (
    GAME_LINE,
    HEADER_LINE,
    LENGTH_LINE,
    MOVE_LINE,
    SCORE_LINE,
    decode_text,
    split_lines,
    variation_key,
)
from backgammon.matchfiles.notation import MAX_ACTIONS, MAX_GAMES

VARIATION = "Short Backgammon with Dave"
MAX_RECORD_BYTES = 2 * 1024 * 1024
RIGHT_COLUMN = 20  # until a line with two cells shows the columns, a lone cell here or further right is the second's
_RIGHT_AT = 36  # the column the writer puts the second player's cells at

# The headers, the match line, `Game K`, the score line and numbered move lines are the .mat grammar
# (backgammon.matchfiles.mat); what differs is only the cells.
_HEADER, _LENGTH, _GAME, _SCORE, _NUMBERED = HEADER_LINE, LENGTH_LINE, GAME_LINE, SCORE_LINE, MOVE_LINE
MAX_LENGTH = 9999
_CELL_START = re.compile(
    r"(?<!\S)(?:[1-6][1-6]:|Dave\s*=>|Accepts(?!\S)|Gives\s+up(?!\S)|Wins\s+\d|(?:Doubles|Takes|Drops|Beavers)\b)",
    re.IGNORECASE,
)
_CUBE = re.compile(r"^(?:Doubles|Takes|Drops|Beavers)\b", re.IGNORECASE)
_ROLL = re.compile(r"^([1-6])([1-6]):\s*(.*)$")
_DAVE = re.compile(r"^Dave\s*=>\s*(\d{1,18})$", re.IGNORECASE)
_WIN = re.compile(r"^Wins\s+(\d{1,18})\s+points?(\s+and\s+the\s+match)?$", re.IGNORECASE)
_WORDS = {"accepts": "accept", "gives up": "give_up"}


class Kind(StrEnum):
    ROLL = "roll"
    DAVE = "dave"  # an offer; value: the stake offered
    ACCEPT = "accept"
    GIVE_UP = "give_up"
    WIN = "win"  # value: the points won


@dataclass(frozen=True)
class DaveAction:
    player: int  # 0 = the first-named player (left column)
    move_number: int
    kind: Kind
    dice: tuple[int, int] | None = None
    move: str = ""  # a roll's written move ("Cannot Move" or "" when nothing moved)
    value: int | None = None
    match_won: bool = False
    line: int = field(default=0, compare=False)

    @property
    def text(self) -> str:
        """The cell as the writer puts it and a director sees it."""
        if self.kind is Kind.ROLL:
            assert self.dice is not None
            return f"{self.dice[0]}{self.dice[1]}: {self.move}".rstrip()
        if self.kind is Kind.DAVE:
            return f"Dave => {self.value}"
        if self.kind is Kind.WIN:
            unit = "point" if self.value == 1 else "points"
            return f"Wins {self.value} {unit}" + (" and the match" if self.match_won else "")
        return "Accepts" if self.kind is Kind.ACCEPT else "Gives up"


@dataclass(frozen=True)
class DaveGame:
    number: int
    scores: tuple[int, int]  # before this game, as written (stake units won so far in a money session)
    actions: tuple[DaveAction, ...]
    line: int = field(default=0, compare=False)  # the ` Game K` line, where errors about the whole game point


@dataclass(frozen=True)
class DaveRecord:
    length: int  # 0: a money session
    players: tuple[str, str]
    games: tuple[DaveGame, ...]
    progression: Progression = Progression.GEOMETRIC
    extra_headers: tuple[tuple[str, str], ...] = ()  # Event, Player 1, … kept as written

    @property
    def headers(self) -> tuple[tuple[str, str], ...]:
        return (("Variation", VARIATION), ("Progression", self.progression.value), *self.extra_headers)


def numbered(actions: Iterable[DaveAction]) -> tuple[DaveAction, ...]:
    """The actions with the move numbers the writer's layout gives them: the first player's action opens a new
    line, the second player's fills the right cell of the current line, or opens one with an empty left cell."""
    out: list[DaveAction] = []
    number, right_taken = 0, True
    for action in actions:
        if action.player == 0 or right_taken:
            number += 1
        right_taken = action.player == 1
        out.append(replace(action, move_number=number))
    return tuple(out)


def _action(text: str, player: int, move_number: int, line: int) -> DaveAction:
    roll = _ROLL.match(text)
    if roll:
        dice = (int(roll.group(1)), int(roll.group(2)))
        return DaveAction(player, move_number, Kind.ROLL, dice=dice, move=roll.group(3).strip(), line=line)
    offer = _DAVE.match(text)
    if offer:
        return DaveAction(player, move_number, Kind.DAVE, value=int(offer.group(1)), line=line)
    win = _WIN.match(text)
    if win:
        return DaveAction(player, move_number, Kind.WIN, value=int(win.group(1)), match_won=bool(win.group(2)),
                          line=line)
    if _CUBE.match(text):
        raise DaveRecordError(f"'{text}': a Dave game has no cube; write 'Dave => n', 'Accepts' or 'Gives up'",
                              line=line)
    word = " ".join(text.lower().split())
    if word in _WORDS:
        return DaveAction(player, move_number, Kind(_WORDS[word]), line=line)
    raise DaveRecordError(
        f"'{text}': a cell is a roll ('64: 24/18 13/9'), 'Dave => n', 'Accepts', 'Gives up' or 'Wins n points'",
        line=line,
    )


def _line_actions(raw: str, offset: int, line: int, move_number: int, split: int) -> tuple[list[DaveAction], int]:
    """The one or two cells after `NN)` (`offset`: where that text starts in the line) and the column that
    separates the players from here on. A lone cell at or right of `split` is the second player's; a line with
    two cells moves `split` halfway between them, so a compact hand-written layout reads too."""
    body = raw[offset:]
    starts = [found.start() for found in _CELL_START.finditer(body)]
    if not starts:
        if body.strip():
            raise DaveRecordError(f"'{body.strip()}' is no roll, Dave, answer or win", line=line)
        return [], split
    if body[: starts[0]].strip():
        raise DaveRecordError(f"'{body[: starts[0]].strip()}' before the first cell", line=line)
    if len(starts) > 2:
        raise DaveRecordError("a line holds at most two cells, one per player", line=line)
    ends = [*starts[1:], len(body)]
    if len(starts) == 2:
        players, split = [0, 1], offset + (starts[0] + starts[1] + 1) // 2
    else:
        players = [int(offset + starts[0] >= split)]
    actions = [
        _action(body[start:end].strip(), player, move_number, line)
        for player, start, end in zip(players, starts, ends, strict=True)
    ]
    return actions, split


class _Reader:
    """The state of one pass over the lines: what has been read so far."""

    def __init__(self) -> None:
        self.headers: list[tuple[str, str]] = []
        self.length: int | None = None
        self.players: tuple[str, str] | None = None
        self.games: list[dict] = []
        self.split = RIGHT_COLUMN
        self.actions = 0  # cells read, against the limit the backgammon reader applies too

    def read(self, raw: str, line: int) -> None:
        stripped = raw.strip()
        if stripped.startswith(";"):
            header = _HEADER.match(stripped)
            if header and self.length is None:
                self.headers.append((header.group(1).strip(), header.group(2)))
        elif self.length is None:
            length = _LENGTH.match(stripped)
            if not length:
                raise DaveRecordError("a record starts with 'N point match' (0 for a money session)", line=line)
            self.length = int(length.group(1))
            if self.length > MAX_LENGTH:
                raise DaveRecordError(f"a {self.length}-point match is longer than any match is played", line=line)
        elif game := _GAME.match(stripped):
            if len(self.games) == MAX_GAMES:
                raise DaveRecordError(f"a record may hold at most {MAX_GAMES} games; this one holds more", line=line)
            self.games.append({"number": int(game.group(1)), "line": line, "scores": None, "actions": []})
        elif not self.games:
            raise DaveRecordError("expected ' Game 1' after the match length", line=line)
        elif self.games[-1]["scores"] is None:
            self.score(raw, line)
        else:
            found = _NUMBERED.match(raw)
            if not found:
                raise DaveRecordError(f"'{stripped}': a move line starts with its number, as '12) '", line=line)
            actions, self.split = _line_actions(raw, found.start(2), line, int(found.group(1)), self.split)
            self.games[-1]["actions"] += actions
            self.actions += len(actions)
            if self.actions > MAX_ACTIONS:
                raise DaveRecordError(f"a record may hold at most {MAX_ACTIONS} rolls and Dave actions; this one "
                                      "holds more", line=line)

    def score(self, raw: str, line: int) -> None:
        found = _SCORE.match(raw)
        if not found:
            raise DaveRecordError("each 'Game N' line is followed by the score line 'A : x   B : y'", line=line)
        names = (found.group(1).strip(), found.group(3).strip())
        if self.players is not None and names != self.players:
            raise DaveRecordError(f"this game is between {names[0]} and {names[1]}, not {self.players[0]} and "
                                  f"{self.players[1]}", line=line)
        self.players = names
        self.games[-1]["scores"] = (int(found.group(2)), int(found.group(4)))


def parse_dave(data: bytes | str) -> DaveRecord:
    """Read a Dave record. Raises DaveRecordError naming the line, never anything else."""
    if isinstance(data, bytes) and len(data) > MAX_RECORD_BYTES:
        raise DaveRecordError("the record is larger than 2 MiB; a session record is far smaller")
    lines = split_lines(decode_text(data))
    reader = _Reader()
    for line, raw in enumerate(lines, start=1):
        if "\x00" in raw:
            raise DaveRecordError("the file holds binary data", line=line)
        if raw.strip():
            reader.read(raw, line)
    last = max((line for line, raw in enumerate(lines, start=1) if raw.strip()), default=1)
    values = {name.lower(): value for name, value in reader.headers}
    # the first Variation header names the game, as for the router and the other readers
    variation = next((value for name, value in reader.headers if name.lower() == "variation"), "")
    if variation_key(variation) != variation_key(VARIATION):
        raise DaveRecordError(f'a Dave record names its game in the header ; [Variation "{VARIATION}"]'
                              + (f", not '{variation}'" if variation else ""))
    try:
        progression = Progression.named(values.get("progression", Progression.GEOMETRIC.value))
    except DaveError as error:
        raise DaveRecordError(error.message) from None
    if reader.length is None or reader.players is None or reader.games[-1]["scores"] is None:
        raise DaveRecordError("the record holds no whole game: 'N point match', ' Game 1' and its score line",
                              line=last)
    return DaveRecord(
        length=reader.length,
        players=reader.players,
        games=tuple(
            DaveGame(game["number"], game["scores"], tuple(game["actions"]), game["line"])
            for game in reader.games
        ),
        progression=progression,
        extra_headers=tuple(
            (name, value) for name, value in reader.headers if name.lower() not in {"variation", "progression"}
        ),
    )


def _row(lead: str, left: str, right: str) -> str:
    """One line in the two columns: the score line (`lead` a space) and the move lines (`lead` the `NN) `) put
    the second player's text at the same column."""
    return f"{lead}{left:<{_RIGHT_AT - 1 - len(lead)}} {right}".rstrip()


def write_dave(record: DaveRecord) -> str:
    """The record as text (LF line ends); parse_dave(write_dave(r)) == r when the actions are `numbered`."""
    out = [f'; [{key} "{value}"]' for key, value in record.headers]
    out += ["", f"{record.length} point match", ""]
    for game in record.games:
        names, scores = record.players, game.scores
        out += [f" Game {game.number}", _row(" ", f"{names[0]} : {scores[0]}", f"{names[1]} : {scores[1]}")]
        rows: dict[int, list[str]] = {}
        for action in game.actions:
            rows.setdefault(action.move_number, ["", ""])[action.player] = action.text
        out += [_row(f"{number:3d}) ", left, right) for number, (left, right) in rows.items()]
        out.append("")
    return "\n".join(out) + "\n"
