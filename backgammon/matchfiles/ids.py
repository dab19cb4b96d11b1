"""Position and match identifiers: GNU Backgammon Position ID and Match ID, and eXtreme Gammon's XGID.

Layouts (docs/games.md, Other formats; checked against GNU Backgammon 1.07's own output):
- Position ID: 80 bits little-endian in 10 bytes, Base64 without padding (14 chars). For each player, points 1..24
  then the bar in that player's own numbering: a 1 per checker, then a 0. The player NOT on roll comes first —
  this is what gnubg 1.07 prints (after X plays 8/5 6/5 the ID begins with X's checkers) and what gnubg's C arrays
  do (anBoard[1] is on roll); the manual's prose says the opposite, the program wins.
- Match ID: 66 bits little-endian in 9 bytes, Base64 (12 chars): cube log2 (4), owner (2: 0, 1, 3 = centred),
  dice owner (1), Crawford (1), game state (3), turn (1), double offered (1), resignation (2), dice (3 + 3),
  match length (15), score of player 0 (15), score of player 1 (15); gnubg 1.07 also uses the last 6 bits of the
  9 bytes (see MatchId.extension).
- XGID: `XGID=<position>:<cube log2>:<owner 1/0/-1>:<turn 1/-1>:<dice|00|D|B|R>:<score bottom>:<score top>:
  <rules>:<match length>:<max cube log2>`; the position has 26 characters: 0 = the top player's bar,
  1..24 = the bottom player's points, 25 = the bottom player's bar; `A`..`O` count the bottom player's checkers,
  `a`..`o` the top player's, `-` is empty. Here the bottom player is side 0, the top player side 1.

Every decoder raises IdFormatError (a ValueError) on malformed input and nothing else.
"""

from __future__ import annotations

import base64
import binascii
import re
from dataclasses import dataclass
from enum import IntEnum

from backgammon.board import Board
from base.errors import DomainError

__all__ = [
    "GameState",
    "IdFormatError",
    "MatchId",
    "XgId",
    "board_from_position_id",
    "match_id",
    "parse_match_id",
    "parse_xgid",
    "position_id",
    "xgid",
]

_BASE64 = re.compile(r"^[A-Za-z0-9+/]+$")


class IdFormatError(DomainError):
    """The text is not a well-formed identifier; the message names what is wrong (bad input, 400)."""


def _decode_base64(text: str, *, length: int, name: str) -> int:
    if not isinstance(text, str):
        raise IdFormatError("not_text", f"a {name} is text, not {type(text).__name__}", name=name)
    text = text.strip()
    if len(text) != length or not _BASE64.match(text):
        raise IdFormatError(
            "bad_length",
            f"a {name} has {length} characters from A–Z, a–z, 0–9, + and /; got {text!r}",
            name=name,
            length=length,
            text=text,
        )
    try:
        raw = base64.b64decode(text + "=" * (-len(text) % 4), validate=True)
    except (binascii.Error, ValueError) as error:
        raise IdFormatError("bad_base64", f"{text!r} is not valid Base64: {error}", text=text) from None
    return int.from_bytes(raw, "little")


def _encode_base64(value: int, *, size: int, length: int) -> str:
    return base64.b64encode(value.to_bytes(size, "little")).decode("ascii")[:length]


# --- Position ID -------------------------------------------------------------------------------------------


def position_id(board: Board, side_on_roll: int) -> str:
    """The 14-character GNU Backgammon Position ID of `board` with `side_on_roll` to play."""
    bits = 0
    position = 0
    for side in (1 - side_on_roll, side_on_roll):
        for count in board.checkers[side]:
            bits |= ((1 << count) - 1) << position
            position += count + 1
    if position > 80:
        raise IdFormatError(
            "too_many_checkers",
            f"a Position ID holds at most 30 checkers; this board has {position - 50}",
            count=position - 50,
        )
    return _encode_base64(bits, size=10, length=14)


def board_from_position_id(text: str, *, side_on_roll: int = 0, total: int = 15) -> Board:
    """The board a Position ID describes, with the player on roll as `side_on_roll`. `total` is the number of
    checkers per side in the variant (15; 3 for hypergammon)."""
    bits = _decode_base64(text, length=14, name="Position ID")
    rows: list[list[int]] = [[], []]
    position = 0
    for row in rows:
        while len(row) < 25:
            count = 0
            while position < 80 and bits >> position & 1:
                count += 1
                position += 1
            if position >= 80:
                raise IdFormatError(
                    "position_bits_short",
                    f"Position ID {text!r} runs out of bits before both sides' 25 places are read",
                    text=text,
                )
            position += 1
            row.append(count)
        if sum(row) > total:
            raise IdFormatError(
                "position_side_overfull",
                f"Position ID {text!r} puts {sum(row)} checkers on one side; at most {total}",
                text=text,
                count=sum(row),
                total=total,
            )
    if bits >> position:
        raise IdFormatError("position_bits_left", f"Position ID {text!r} has bits set after the last place", text=text)
    not_on_roll, on_roll = tuple(rows[0]), tuple(rows[1])
    checkers = (on_roll, not_on_roll) if side_on_roll == 0 else (not_on_roll, on_roll)
    try:
        return Board(checkers=checkers, total=total)
    except ValueError as error:
        raise IdFormatError(
            "impossible_position", f"Position ID {text!r} is not a possible position: {error}", text=text
        ) from None


# --- Match ID ----------------------------------------------------------------------------------------------


class GameState(IntEnum):
    NO_GAME = 0
    PLAYING = 1
    OVER = 2
    RESIGNED = 3
    DROPPED = 4


@dataclass(frozen=True)
class MatchId:
    """The fields of a gnubg Match ID. `cube_owner` None = centred; `dice` None = not rolled; `resignation`
    0 none, 1 single, 2 gammon, 3 backgammon; `length` 0 = money session."""

    cube: int = 1
    cube_owner: int | None = None
    dice_owner: int = 0  # the player on roll, or who did roll
    crawford: bool = False
    game_state: GameState = GameState.PLAYING
    turn: int = 0  # who decides now (differs from dice_owner while a double or resignation is pending)
    double_offered: bool = False
    resignation: int = 0
    dice: tuple[int, int] | None = None
    length: int = 0
    scores: tuple[int, int] = (0, 0)
    # The 6 bits after the 66 the manual describes. gnubg 1.07 sets the lowest (1) unless the Jacoby rule is
    # in force in a money session: a fresh 9-point match prints `cAkgAQAAAAAE`. Kept so IDs round-trip.
    extension: int = 0

    def __post_init__(self) -> None:
        if not 0 <= self.extension < 1 << 6:
            raise IdFormatError("bad_extension", "the Match ID extension is 6 bits (0–63)")
        if self.cube < 1 or self.cube & (self.cube - 1) or self.cube > 1 << 15:
            raise IdFormatError(
                "bad_cube", f"the cube shows a power of two from 1 to 32768, not {self.cube}", cube=self.cube
            )
        if self.cube_owner not in (None, 0, 1) or self.dice_owner not in (0, 1) or self.turn not in (0, 1):
            raise IdFormatError("bad_owner", "cube owner, dice owner and turn are player 0 or 1 (owner None = centred)")
        if self.resignation not in (0, 1, 2, 3):
            raise IdFormatError(
                "bad_resignation", "a resignation is 0 (none), 1 (single), 2 (gammon) or 3 (backgammon)"
            )
        if self.dice is not None and not all(1 <= die <= 6 for die in self.dice):
            raise IdFormatError("bad_dice", f"dice are 1 to 6, not {self.dice}", dice=str(self.dice))
        if not all(0 <= value < 1 << 15 for value in (self.length, *self.scores)):
            raise IdFormatError("bad_scores", "match length and scores are 0 to 32767")


_MATCH_FIELDS = (  # (name, first bit counted from 0, width)
    ("cube", 0, 4),
    ("owner", 4, 2),
    ("dice_owner", 6, 1),
    ("crawford", 7, 1),
    ("game_state", 8, 3),
    ("turn", 11, 1),
    ("double_offered", 12, 1),
    ("resignation", 13, 2),
    ("die1", 15, 3),
    ("die2", 18, 3),
    ("length", 21, 15),
    ("score0", 36, 15),
    ("score1", 51, 15),
    ("extension", 66, 6),
)


def match_id(match: MatchId) -> str:
    """The 12-character gnubg Match ID of these fields."""
    dice = match.dice or (0, 0)
    values = {
        "cube": match.cube.bit_length() - 1,
        "owner": 3 if match.cube_owner is None else match.cube_owner,
        "dice_owner": match.dice_owner,
        "crawford": int(match.crawford),
        "game_state": int(match.game_state),
        "turn": match.turn,
        "double_offered": int(match.double_offered),
        "resignation": match.resignation,
        "die1": dice[0],
        "die2": dice[1],
        "length": match.length,
        "score0": match.scores[0],
        "score1": match.scores[1],
        "extension": match.extension,
    }
    bits = 0
    for name, start, _ in _MATCH_FIELDS:
        bits |= values[name] << start
    return _encode_base64(bits, size=9, length=12)


def parse_match_id(text: str) -> MatchId:
    """The fields of a 12-character gnubg Match ID (e.g. `QYkqASAAIAAA`)."""
    bits = _decode_base64(text, length=12, name="Match ID")
    values = {name: bits >> start & ((1 << width) - 1) for name, start, width in _MATCH_FIELDS}
    if values["owner"] == 2:
        raise IdFormatError(
            "match_id_owner", f"Match ID {text!r} names cube owner 2; it is 0, 1 or 3 (centred)", text=text
        )
    if values["game_state"] > 4:
        raise IdFormatError(
            "match_id_state",
            f"Match ID {text!r} names game state {values['game_state']}; states run 0–4",
            text=text,
            state=values["game_state"],
        )
    die1, die2 = values["die1"], values["die2"]
    if die1 > 6 or die2 > 6 or (die1 == 0) != (die2 == 0):
        raise IdFormatError(
            "match_id_dice",
            f"Match ID {text!r} holds dice {die1} and {die2}; both 1–6, or both 0 (not rolled)",
            text=text,
            die1=die1,
            die2=die2,
        )
    return MatchId(
        cube=1 << values["cube"],
        cube_owner=None if values["owner"] == 3 else values["owner"],
        dice_owner=values["dice_owner"],
        crawford=bool(values["crawford"]),
        game_state=GameState(values["game_state"]),
        turn=values["turn"],
        double_offered=bool(values["double_offered"]),
        resignation=values["resignation"],
        dice=(die1, die2) if die1 else None,
        length=values["length"],
        scores=(values["score0"], values["score1"]),
        extension=values["extension"],
    )


# --- XGID --------------------------------------------------------------------------------------------------

_CUBE_ACTIONS = ("D", "B", "R")  # double offered, beavered, raccooned


@dataclass(frozen=True)
class XgId:
    """The fields of an XGID. Side 0 is XG's bottom player, side 1 the top player.

    `cube_action`: "" normally, "D" a double is offered, "B" beavered, "R" raccooned (then `dice` is None).
    `crawford` applies in match play (length ≥ 1), `jacoby` and `beaver` in money play (length 0).
    """

    board: Board
    cube: int = 1
    cube_owner: int | None = None
    turn: int = 0
    dice: tuple[int, int] | None = None
    cube_action: str = ""
    scores: tuple[int, int] = (0, 0)
    crawford: bool = False
    jacoby: bool = False
    beaver: bool = False
    length: int = 0
    max_cube: int = 1024

    def __post_init__(self) -> None:
        for value, name in ((self.cube, "cube"), (self.max_cube, "maximum cube")):
            if value < 1 or value & (value - 1):
                raise IdFormatError("bad_cube", f"the {name} is a power of two, not {value}", cube=value)
        if self.cube_owner not in (None, 0, 1) or self.turn not in (0, 1):
            raise IdFormatError("bad_owner", "cube owner and turn are side 0 (bottom) or 1 (top); owner None = centred")
        if self.cube_action not in ("", *_CUBE_ACTIONS) or (self.cube_action and self.dice is not None):
            raise IdFormatError("bad_cube_action", "the cube action is D, B or R, and only when no dice are shown")
        if self.dice is not None and not all(1 <= die <= 6 for die in self.dice):
            raise IdFormatError("bad_dice", f"dice are 1 to 6, not {self.dice}", dice=str(self.dice))
        if self.length < 0 or min(self.scores) < 0:
            raise IdFormatError("negative_scores", "match length and scores cannot be negative")
        if self.length and (self.jacoby or self.beaver) or not self.length and self.crawford:
            raise IdFormatError("options_mismatch", "Crawford belongs to match play, Jacoby and beaver to money play")


def _letter(count: int, upper: bool) -> str:
    return chr((ord("A") if upper else ord("a")) + count - 1)


def xgid(position: XgId) -> str:
    """The XGID text of these fields."""
    bottom, top = position.board.checkers
    cells = [_letter(top[24], False) if top[24] else "-"]
    for point in range(1, 25):
        if bottom[point - 1]:
            cells.append(_letter(bottom[point - 1], True))
        elif top[24 - point]:
            cells.append(_letter(top[24 - point], False))
        else:
            cells.append("-")
    cells.append(_letter(bottom[24], True) if bottom[24] else "-")
    owner = 0 if position.cube_owner is None else 1 if position.cube_owner == 0 else -1
    dice = position.cube_action or (f"{position.dice[0]}{position.dice[1]}" if position.dice else "00")
    rules = int(position.crawford) if position.length else int(position.jacoby) | int(position.beaver) << 1
    fields = [
        "".join(cells),
        str(position.cube.bit_length() - 1),
        str(owner),
        "1" if position.turn == 0 else "-1",
        dice,
        str(position.scores[0]),
        str(position.scores[1]),
        str(rules),
        str(position.length),
        str(position.max_cube.bit_length() - 1),
    ]
    return "XGID=" + ":".join(fields)


def _int_field(value: str, name: str, text: str) -> int:
    if not re.fullmatch(r"-?\d{1,6}", value):
        raise IdFormatError(
            "xgid_not_a_number",
            f"XGID {text!r}: the {name} field is {value!r}, not a whole number",
            text=text,
            name=name,
            value=value,
        )
    return int(value)


def parse_xgid(text: str, *, total: int = 15) -> XgId:
    """The fields of an XGID (with or without the `XGID=` prefix; the max-cube field may be missing, then 10).
    `total` is the number of checkers per side in the variant."""
    if not isinstance(text, str):
        raise IdFormatError("not_text", f"an XGID is text, not {type(text).__name__}", name="XGID")
    body = text.strip()
    if body[:5].upper() == "XGID=":
        body = body[5:]
    fields = body.split(":")
    if len(fields) not in (9, 10):
        raise IdFormatError(
            "xgid_fields",
            f"an XGID has 10 fields separated by ':' (position:cube:owner:turn:dice:…); got {text!r}",
            text=text,
        )
    if len(fields) == 9:
        fields.append("10")
    cells = fields[0]
    if not re.fullmatch(r"[-A-Za-z]{26}", cells):
        raise IdFormatError(
            "xgid_position", f"XGID {text!r}: the position has 26 characters of '-', A–Z and a–z", text=text
        )
    bottom, top = [0] * 25, [0] * 25
    for index, cell in enumerate(cells):
        if cell == "-":
            continue
        count = ord(cell.lower()) - ord("a") + 1
        if cell.isupper():
            if index == 0:
                raise IdFormatError(
                    "xgid_top_bar",
                    f"XGID {text!r}: place 0 is the top player's bar; it cannot hold {cell!r}",
                    text=text,
                    cell=cell,
                )
            bottom[24 if index == 25 else index - 1] = count
        else:
            if index == 25:
                raise IdFormatError(
                    "xgid_bottom_bar",
                    f"XGID {text!r}: place 25 is the bottom player's bar; it cannot hold {cell!r}",
                    text=text,
                    cell=cell,
                )
            top[24 if index == 0 else 24 - index] = count
    if max(sum(bottom), sum(top)) > total:
        raise IdFormatError(
            "xgid_side_overfull", f"XGID {text!r} puts more than {total} checkers on one side", text=text, total=total
        )
    cube_log = _int_field(fields[1], "cube", text)
    owner = _int_field(fields[2], "cube owner", text)
    turn = _int_field(fields[3], "turn", text)
    max_cube_log = _int_field(fields[9], "maximum cube", text)
    if not 0 <= cube_log <= 15 or not 0 <= max_cube_log <= 15:
        raise IdFormatError("xgid_cube", f"XGID {text!r}: cube fields are powers of two given as 0–15", text=text)
    if owner not in (-1, 0, 1) or turn not in (-1, 1):
        raise IdFormatError(
            "xgid_owner_turn", f"XGID {text!r}: the cube owner is 1, 0 or -1 and the turn 1 or -1", text=text
        )
    dice_text = fields[4]
    dice: tuple[int, int] | None = None
    cube_action = ""
    if dice_text in _CUBE_ACTIONS:
        cube_action = dice_text
    elif re.fullmatch(r"[1-6][1-6]", dice_text):
        dice = (int(dice_text[0]), int(dice_text[1]))
    elif dice_text != "00":
        raise IdFormatError(
            "xgid_dice",
            f"XGID {text!r}: the dice field is two dice 1–6, 00, D, B or R; got {dice_text!r}",
            text=text,
            dice=dice_text,
        )
    length = _int_field(fields[8], "match length", text)
    rules = _int_field(fields[7], "rules", text)
    if not 0 <= rules <= 3:
        raise IdFormatError("xgid_rules", f"XGID {text!r}: the rules field is 0–3", text=text)
    try:
        board = Board(checkers=(tuple(bottom), tuple(top)), total=total)
        return XgId(
            board=board,
            cube=1 << cube_log,
            cube_owner=None if owner == 0 else 0 if owner == 1 else 1,
            turn=0 if turn == 1 else 1,
            dice=dice,
            cube_action=cube_action,
            scores=(_int_field(fields[5], "bottom score", text), _int_field(fields[6], "top score", text)),
            crawford=bool(rules & 1) if length else False,
            jacoby=bool(rules & 1) if not length else False,
            beaver=bool(rules & 2) if not length else False,
            length=length,
            max_cube=1 << max_cube_log,
        )
    except IdFormatError:
        raise
    except ValueError as error:
        raise IdFormatError(
            "impossible_position", f"XGID {text!r} is not a possible position: {error}", text=text
        ) from None
