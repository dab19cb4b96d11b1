"""Jellyfish `.mat` match records: reader for every dialect in the corpus, and a writer.

The reader keeps what a director needs to find a mistake: each action's file line and its `NN)` move number.
It never interprets the moves (that is backgammon/verification.py) and only ever raises RecordFormatError.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import StrEnum

from backgammon.matchfiles.notation import MAX_ACTIONS, MAX_GAMES, MAX_NAME, RecordFormatError, decode_move
from backgammon.variants import BackwardHitting
from base.text import clean_text

__all__ = ["Action", "ActionKind", "MatchRecord", "RecordedGame", "RecordFormatError", "parse_mat", "write_mat"]

MAX_RECORD_BYTES = 2 * 1024 * 1024
BACKWARD_VARIATION = "Backgammon with backward hitting"  # the Variation header of the variant
BACKWARD_HEADER = "BackwardHits"  # its setting: "any die" (the default) or "smaller die"


def variation_key(text: str) -> str:
    """A `Variation` header as every reader and the router compare it: case and white space ignored, so
    `LongNardy`, `long  nardy` and `Long Nardy` name one game everywhere (the router once sent `LongNardy`,
    which the nardy reader accepts, to the backgammon verifier)."""
    return "".join(text.lower().split())


class ActionKind(StrEnum):
    ROLL = "roll"  # dice and the written move ("", "Cannot Move" and "????" included)
    DOUBLE = "double"
    TAKE = "take"
    DROP = "drop"
    BEAVER = "beaver"
    RACCOON = "raccoon"
    WIN = "win"
    CONCEDE = "concede"


CANNOT_MOVE = "Cannot Move"
RESIGN_MARK = "????"
RESIGN_MARKS = (RESIGN_MARK, "Concedes")


@dataclass(frozen=True)
class Action:
    player: int  # 0 = the first-named player (left column), 1 = the second
    kind: ActionKind
    move_number: int | None = None
    dice: tuple[int, int] | None = None
    move: str = ""
    value: int | None = None  # cube value offered, or points won
    match_won: bool = False
    line: int = field(default=0, compare=False)
    numbered: bool = field(default=True, compare=False)  # written on a `NN)` line (layout only)
    written: str = field(default="", compare=False)  # the cell exactly as the file has it, for error reports

    @property
    def text(self) -> str:
        """The cell as the writer puts it (and as a director sees it)."""
        if self.kind == ActionKind.ROLL:
            assert self.dice is not None
            dice = f"{self.dice[0]}{self.dice[1]}:"
            return f"{dice} {self.move}" if self.move else dice
        if self.kind in (ActionKind.DOUBLE, ActionKind.BEAVER, ActionKind.RACCOON):
            word = {ActionKind.DOUBLE: "Doubles", ActionKind.BEAVER: "Beavers", ActionKind.RACCOON: "Raccoons"}
            return f"{word[self.kind]} => {self.value}"
        if self.kind == ActionKind.WIN:
            unit = "point" if self.value == 1 else "points"
            return f"Wins {self.value} {unit}" + (" and the match" if self.match_won else "")
        if self.kind == ActionKind.CONCEDE:
            return self.move or "Concedes"
        return {ActionKind.TAKE: "Takes", ActionKind.DROP: "Drops"}[self.kind]


@dataclass(frozen=True)
class RecordedGame:
    number: int
    scores: tuple[int, int]  # as written in the game header: the score before this game
    actions: tuple[Action, ...]
    line: int = field(default=0, compare=False)  # the `Game N` line
    score_line: int = field(default=0, compare=False)
    # The names on this game's score line, when they differ from the record's players (game 1's names): real
    # archives write a player differently in a later game; the verifier decides whether that is a rename.
    names: tuple[str, str] | None = None


@dataclass(frozen=True)
class MatchRecord:
    length: int  # 0 = money session
    players: tuple[str, str]
    games: tuple[RecordedGame, ...]
    headers: tuple[tuple[str, str], ...] = ()

    def header(self, key: str, default: str = "") -> str:
        wanted = key.lower()
        for name, value in self.headers:
            if name.lower() == wanted:
                return value
        return default

    @property
    def variant(self) -> str:
        """standard | nackgammon | hypergammon1..3 | backward, from the Variation header."""
        text = variation_key(self.header("Variation", "Backgammon"))
        if text.startswith("nack"):
            return "nackgammon"
        if "backward" in text:  # `Backgammon with backward hitting`
            return "backward"
        if text.startswith("hyper"):
            digits = re.findall(r"\d", text)
            return f"hypergammon{digits[0] if digits else 3}"
        return "standard"

    @property
    def backward(self) -> BackwardHitting | None:
        """The backward-hitting rule a `Backgammon with backward hitting` record plays by (None: no backward
        hits): either die, or with `; [BackwardHits "smaller die"]` only the smaller die of a non-double."""
        if self.variant != "backward":
            return None
        return backward_rule(self.header(BACKWARD_HEADER))

    def flag(self, key: str, default: bool) -> bool:
        value = self.header(key).strip().lower()
        if value in ("on", "yes", "true", "1"):
            return True
        if value in ("off", "no", "false", "0"):
            return False
        return default

    @property
    def cube_limit(self) -> int | None:
        value = self.header("CubeLimit").strip()
        return int(value) if value.isdigit() and int(value) > 0 else None


# --- reading -------------------------------------------------------------------------------------------------

# The line grammar of every record in the `.mat` layout: this reader's and the Dave record's
# (backgammon/dave/record.py), so both read headers, the match line, `Game K`, the score line and numbered move lines
# alike. Numbers have at most 18 digits: far beyond any match, and int() of them is always cheap.
HEADER_LINE = re.compile(r'^;\s*\[\s*([^"\]]+?)\s+"(.*)"\s*\]\s*$')
LENGTH_LINE = re.compile(r"^\s*(\d{1,18})\s+point\s+match\s*$", re.IGNORECASE)
GAME_LINE = re.compile(r"^\s*Game\s+(\d{1,18})\s*$", re.IGNORECASE)
SCORE_LINE = re.compile(r"^\s*(.+?)\s*:\s*(\d{1,18})\s+(.+?)\s*:\s*(\d{1,18})\s*$")
MOVE_LINE = re.compile(r"^\s*(\d{1,18})\)(.*)$")
_HEADER, _LENGTH, _GAME, _SCORE, _MOVE_LINE = HEADER_LINE, LENGTH_LINE, GAME_LINE, SCORE_LINE, MOVE_LINE
_ACTION_START = re.compile(
    # The lookahead lets the scan skip, cheaply, every position where no action can start.
    r"(?=[0-9DBRTCW?])(?:(?P<roll>\b(?P<d1>\d)(?P<d2>\d):)"
    r"|(?P<cube>\b(?P<cube_word>Doubles|Beavers|Raccoons)\s*=>\s*(?P<cube_value>\d+))"
    r"|(?P<take>\bTakes\b)|(?P<drop>\bDrops\b)|(?P<concede>\bConcedes\b|(?<!\S)\?\?\?\?(?!\S))"
    r"|(?P<win>\bWins\s+(?P<points>\d+)\s+points?(?P<match>\s+and\s+the\s+match)?))",
    re.IGNORECASE,
)
_ROLL, _WIN, _CONCEDE = ActionKind.ROLL, ActionKind.WIN, ActionKind.CONCEDE  # enum lookups done once
_CUBE_KINDS = {"doubles": ActionKind.DOUBLE, "beavers": ActionKind.BEAVER, "raccoons": ActionKind.RACCOON}
_CUBE_KIND_SET = frozenset(_CUBE_KINDS.values())
_FALLBACK_RIGHT_COLUMN = 24


def backward_rule(value: str) -> BackwardHitting:
    """The backward-hitting rule a `BackwardHits` header names: "smaller die", else either die (the default)."""
    return BackwardHitting.SMALLER_DIE if value.strip().lower().startswith("smaller") else BackwardHitting.ANY_DIE


def decode_text(data: bytes | str) -> str:
    """Bytes as real files come: UTF-8 (with or without BOM), else ISO-8859-1, which decodes any byte."""
    if isinstance(data, str):
        text = data
    else:
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            text = data.decode("iso-8859-1")
    return text.removeprefix("\ufeff")


def split_lines(text: str) -> list[str]:
    # Only CR, LF and CRLF end a line: str.splitlines would also split on form feeds and shift line numbers.
    return re.split(r"\r\n|\r|\n", text)


@dataclass
class _Cell:
    column: int
    kind: ActionKind
    text: str
    match: re.Match | None  # None for a roll found by the fast scan (its text starts with the dice and `:`)


def _may_hold_other_action(lowered: str) -> bool:
    """Whether a lower-cased line holds a word that can start an action other than a roll."""
    return (
        "doubles" in lowered
        or "takes" in lowered
        or "drops" in lowered
        or "wins" in lowered
        or "????" in lowered
        or "concedes" in lowered
        or "beavers" in lowered
        or "raccoons" in lowered
    )


def _roll_starts(body: str) -> list[int]:
    """Where `dd:` starts in an ASCII body: what _ACTION_START's roll branch finds, without the regex scan."""
    starts = []
    colon = body.find(":", 2)
    while colon != -1:
        start = colon - 2
        if (
            body[start] in "0123456789"
            and body[start + 1] in "0123456789"
            and (start == 0 or not (body[start - 1].isalnum() or body[start - 1] == "_"))
        ):
            starts.append(start)
        colon = body.find(":", colon + 1)
    return starts


def _cells(body: str, offset: int, line: int) -> list[_Cell]:
    starts: list[tuple[int, int, ActionKind, re.Match | None]] = []
    if body.isascii() and not _may_hold_other_action(body.lower()):
        starts = [(start, start + 3, _ROLL, None) for start in _roll_starts(body)]
    else:
        matches: list[re.Match[str]] = []
        for found in _ACTION_START.finditer(body):
            # `51: ????` and `62: Concedes`: rolled, then resigned. The mark right after the dice belongs to the
            # roll.
            follows_dice = matches and matches[-1].group("roll") and not body[matches[-1].end() : found.start()].strip()
            if found.group("concede") and follows_dice and found.start() - matches[-1].end() <= 2:
                continue
            matches.append(found)
        starts = [(found.start(), found.end(), _kind_of(found), found) for found in matches]
    cells: list[_Cell] = []
    position = 0
    for index, (start, found_end, kind, match) in enumerate(starts):
        if body[position:start].strip():
            text = body[position:start].strip()
            raise RecordFormatError("not_an_action", f"'{text}' is not a roll, cube action or result.", line, text=text)
        end = starts[index + 1][0] if index + 1 < len(starts) else len(body)
        if kind != _ROLL and body[found_end:end].strip():
            text = body[start:end].strip()
            raise RecordFormatError("extra_text", f"'{text}' has extra text after the action.", line, text=text)
        cells.append(_Cell(offset + start, kind, body[start:end], match))
        position = end if kind == _ROLL else found_end
    if body[position:].strip():
        text = body[position:].strip()
        raise RecordFormatError("not_an_action", f"'{text}' is not a roll, cube action or result.", line, text=text)
    if len(cells) > 2:
        raise RecordFormatError("too_many_cells", "a move line holds at most two cells: one per player.", line)
    return cells


def _kind_of(found: re.Match) -> ActionKind:
    if found.group("roll"):
        return _ROLL
    if found.group("cube"):
        return _CUBE_KINDS[found.group("cube_word").lower()]
    if found.group("take"):
        return ActionKind.TAKE
    if found.group("drop"):
        return ActionKind.DROP
    if found.group("concede"):
        return ActionKind.CONCEDE
    return ActionKind.WIN


def _new_action(fields: dict) -> Action:
    """Action(**fields) without the frozen dataclass's one object.__setattr__ per field (the reader makes one
    per cell); the object is the same."""
    action = _object_new(Action)
    action.__dict__.update(fields)
    return action


_object_new = object.__new__


def _action(cell: _Cell, *, player: int, move_number: int | None, line: int, numbered: bool) -> Action:
    found = cell.match
    text = cell.text
    written = " ".join(text.split())

    def make(
        dice: tuple[int, int] | None = None, move: str = "", value: int | None = None, match_won: bool = False
    ) -> Action:
        return _new_action(
            {
                "player": player,
                "kind": cell.kind,
                "move_number": move_number,
                "dice": dice,
                "move": move,
                "value": value,
                "match_won": match_won,
                "line": line,
                "numbered": numbered,
                "written": written,
            }
        )

    if cell.kind == _ROLL:
        dice = (int(text[0]), int(text[1]))  # a roll cell starts with its two dice and `:`
        move = " ".join(text[3:].split())
        # `00: ????` (Backgammon Studio) is a resignation before rolling.
        if not (0 < dice[0] < 7 and 0 < dice[1] < 7) and not (dice == (0, 0) and move in RESIGN_MARKS):
            raise RecordFormatError("bad_dice", f"'{text.strip()}': dice show 1 to 6.", line, text=text.strip())
        if move.lower() == "cannot move":
            move = CANNOT_MOVE
        elif move not in RESIGN_MARKS:
            decode_move(move, line=line)
        return make(dice=dice, move=move)
    assert found is not None
    if cell.kind in _CUBE_KIND_SET:
        value = int(found.group("cube_value"))
        if value < 2 or value & (value - 1) or value > 2**30:
            raise RecordFormatError(
                "bad_cube_value", f"'{text.strip()}': a cube is turned to 2, 4, 8, 16, …", line, text=text.strip()
            )
        return make(value=value)
    if cell.kind == _WIN:
        points = int(found.group("points"))
        if not 0 < points < 10**6:
            raise RecordFormatError(
                "bad_win_points", f"'{text.strip()}': a game is won by at least 1 point.", line, text=text.strip()
            )
        return make(value=points, match_won=bool(found.group("match")))
    if cell.kind == _CONCEDE:
        return make(move=RESIGN_MARK if text.strip() == RESIGN_MARK else "")
    return make()


def parse_mat(data: bytes | str) -> MatchRecord:
    """Read a .mat record. Raises RecordFormatError naming the line, never anything else."""
    if isinstance(data, bytes) and len(data) > MAX_RECORD_BYTES:
        raise RecordFormatError("too_large", "The record is larger than 2 MiB; a match record is far smaller.")
    lines = split_lines(decode_text(data))
    headers: list[tuple[str, str]] = []
    length: int | None = None
    players: tuple[str, str] | None = None
    games: list[dict] = []
    pending_score = False
    cells_read = 0
    for number, raw in enumerate(lines, start=1):
        if "\x00" in raw:
            raise RecordFormatError("binary", "The file holds binary data; upload the .mat text export.", number)
        stripped = raw.strip()
        if not stripped:
            continue
        if stripped.startswith(";"):
            found = _HEADER.match(stripped)
            if found and length is None:
                headers.append((clean_text(found.group(1)).strip(), clean_text(found.group(2))))
            continue
        if length is None:
            found = _LENGTH.match(stripped)
            if not found:
                raise RecordFormatError(
                    "bad_match_line", "A .mat record starts with 'N point match' (0 for a money session).", number
                )
            length = int(found.group(1))
            if length > 999:
                raise RecordFormatError(
                    "bad_length", f"A {length}-point match is not a backgammon match.", number, length=length
                )
            continue
        found = _GAME.match(stripped)
        if found:
            if pending_score:
                raise RecordFormatError(
                    "no_score_line", "Each 'Game N' line is followed by the score line 'A : x   B : y'.", number
                )
            if len(games) == MAX_GAMES:
                raise RecordFormatError(
                    "too_many_games",
                    f"A record may hold at most {MAX_GAMES} games; this one holds more.",
                    number,
                    max=MAX_GAMES,
                )
            games.append({"number": int(found.group(1)), "line": number, "rows": []})
            pending_score = True
            continue
        if not games:
            raise RecordFormatError("no_first_game", "Expected ' Game 1' after the match length.", number)
        game = games[-1]
        if pending_score:
            score = _SCORE.match(raw)
            if not score:
                raise RecordFormatError(
                    "no_score_line", "Each 'Game N' line is followed by the score line 'A : x   B : y'.", number
                )
            names = (clean_text(score.group(1)).strip()[:MAX_NAME], clean_text(score.group(3)).strip()[:MAX_NAME])
            if players is None:
                players = names
            game["names"] = names if names != players else None
            game["scores"] = (int(score.group(2)), int(score.group(4)))
            game["score_line"] = number
            pending_score = False
            continue
        move_line = _MOVE_LINE.match(raw)
        if move_line:
            body, offset, numbered = move_line.group(2), move_line.start(2), True
            move_number: int | None = int(move_line.group(1))
        else:
            body, offset, numbered = raw, 0, False
            move_number = game["rows"][-1][1] if game["rows"] else None
        cells = _cells(body, offset, number)
        cells_read += len(cells)
        if cells_read > MAX_ACTIONS:
            raise RecordFormatError(
                "too_many_actions",
                f"A record may hold at most {MAX_ACTIONS} moves and cube actions; this one holds more.",
                number,
                max=MAX_ACTIONS,
            )
        game["rows"].append((number, move_number, numbered, cells))
    last_line = max((n for n, raw in enumerate(lines, start=1) if raw.strip()), default=1)
    if length is None:
        raise RecordFormatError("no_match_line", "No 'N point match' line: this is not a .mat match record.", last_line)
    if pending_score:
        raise RecordFormatError("last_score_line_missing", "The last game has no score line.", last_line)
    if not games or players is None:
        raise RecordFormatError("no_game", "The record holds no game.", last_line)
    right_column = _right_column(games)
    parsed = []
    for game in games:
        actions = []
        for number, move_number, numbered, cells in game["rows"]:
            sides = [0, 1] if len(cells) == 2 else [1 if cell.column >= right_column else 0 for cell in cells]
            for side, cell in zip(sides, cells, strict=True):
                actions.append(_action(cell, player=side, move_number=move_number, line=number, numbered=numbered))
        parsed.append(
            RecordedGame(
                number=game["number"],
                scores=game["scores"],
                actions=tuple(actions),
                line=game["line"],
                score_line=game["score_line"],
                names=game["names"],
            )
        )
    return MatchRecord(length=length, players=players, games=tuple(parsed), headers=tuple(headers))


def _right_column(games: list[dict]) -> int:
    """Where the second player's cell starts: halfway between the two columns of lines holding both cells.

    A long left cell can push the right one further (`55: 23/18 23/18 21/16 16/11* 62: ...`), so take the
    smallest right start seen.
    """
    lefts, rights = [], []
    for game in games:
        for _, _, _, cells in game["rows"]:
            if len(cells) == 2:
                lefts.append(cells[0].column)
                rights.append(cells[1].column)
    if not rights:
        return _FALLBACK_RIGHT_COLUMN
    return (min(lefts) + min(rights) + 1) // 2


# --- writing -------------------------------------------------------------------------------------------------

_LEFT_WIDTH = 30


def write_mat(record: MatchRecord) -> str:
    """The record as a .mat file (LF line ends); parse_mat(write_mat(r)) == r."""
    out = [f'; [{key} "{value}"]' for key, value in record.headers]
    out += ["", f" {record.length} point match", ""]
    for game in record.games:
        out.append(f" Game {game.number}")
        names = game.names or record.players
        left = f" {names[0]} : {game.scores[0]}"
        out.append(f"{left:<{_LEFT_WIDTH + 6}}{names[1]} : {game.scores[1]}")
        for number, numbered, cells in _rows(game.actions):
            prefix = f"{number:3d}) " if numbered and number is not None else "     "
            left_cell = cells[0].text if cells[0] else ""
            right_cell = cells[1].text if cells[1] else ""
            row = f"{prefix}{left_cell:<{_LEFT_WIDTH}}"
            if right_cell:
                row = f"{row} {right_cell}"
            out.append(row.rstrip())
        out.append("")
    return "\n".join(out) + "\n"


def _rows(actions: tuple[Action, ...]):
    rows: list[tuple[int | None, bool, list[Action | None]]] = []
    for action in actions:
        if rows:
            number, numbered, cells = rows[-1]
            fits = number == action.move_number and numbered == action.numbered and cells[1] is None
            if fits and (action.player == 1 or cells[0] is None):
                cells[action.player] = action
                continue
        cells = [None, None]
        cells[action.player] = action
        rows.append((action.move_number, action.numbered, cells))
    return rows
