"""GNU Backgammon SGF (`GM[6]`): import into a MatchRecord and export from one.

docs/games.md (Other formats) and gnubg's sgf.c: one game tree per game; the root holds
`MI[length:L][game:G][ws:a][bs:b]`,
`PW`/`PB` (White = the first-named player, Black = the second), `RU[Crawford…]` and `RE[W+2]` (`R` appended
for a resignation). Moves are `;W[52mhhf]`: the dice, then from/to letter pairs, a–x the points seen from
Black (White counts them from the other end), y the bar and z off; `;B[double]`, `;W[take]`, `;W[drop]`.
"""

from __future__ import annotations

import re
from dataclasses import replace

from backgammon.board import Board
from backgammon.matchfiles.mat import BACKWARD_VARIATION, Action, ActionKind, MatchRecord, RecordedGame, decode_text
from backgammon.matchfiles.notation import (
    BAR,
    MAX_ACTIONS,
    MAX_GAMES,
    MAX_NAME,
    OFF,
    RecordFormatError,
    Step,
    decode_move,
)
from backgammon.matchfiles.written import play_written
from backgammon.variants import Variant, starting_board
from base.text import clean_text

__all__ = ["parse_sgf", "write_sgf"]

_RESULT = re.compile(r"^([WB])\+(\d+)(R?)$")
_SIDE = {"W": 0, "B": 1}
_VARIANT_NAMES = {
    "nackgammon": "NackGammon",
    "hypergammon1": "HyperGammon (1)",
    "hypergammon2": "HyperGammon (2)",
    "hypergammon3": "HyperGammon (3)",
    "backward": BACKWARD_VARIATION,  # not a gnubg rule: kept so the variant survives a round trip (any die only)
}


def _point(letter: str, player: int, *, line: int) -> int:
    if letter == "y":
        return BAR
    if letter == "z":
        return OFF
    if not "a" <= letter <= "x":
        raise RecordFormatError(
            "bad_sgf_point", f"'{letter}' is not an SGF backgammon point (a–x, y bar, z off).", line, letter=letter
        )
    index = ord(letter) - ord("a")
    return index + 1 if player == 1 else 24 - index


def _letter(point: int, player: int) -> str:
    if point == BAR:
        return "y"
    if point == OFF:
        return "z"
    index = point - 1 if player == 1 else 24 - point
    return chr(ord("a") + index)


# Limits of the SGF reader (README: Configuration): gnubg writes no variations and short values, so these
# only stop hostile files: 100,000 nested variations took 37 s of CPU, a 1.8 MB escaped value 383 MiB.
MAX_DEPTH = 32
MAX_NODES = MAX_ACTIONS + MAX_GAMES
MAX_VALUE_CHARS = 65_536

_NEXT = re.compile(r"[()\[;\n]|[A-Za-z]+")
_VALUE_BODY = re.compile(r"(?:[^\\\]]++|\\.)*+", re.DOTALL)
_ESCAPE = re.compile(r"\\(.)", re.DOTALL)
_VALUE_TOO_LONG = f"An SGF value may hold at most {MAX_VALUE_CHARS} characters; this one holds more."

Node = tuple[int, dict[str, list[str]]]


def _read_trees(text: str) -> list[tuple[int, list[Node]]]:
    """Each top-level `( … )` game tree with its line and its nodes (those of variations in document order).

    One pass over the text, counting lines as it goes, bounded by MAX_DEPTH, MAX_NODES and MAX_VALUE_CHARS;
    brackets inside values do not count. Text outside game trees is ignored, as gnubg does.
    """
    trees: list[tuple[int, list[Node]]] = []
    depth, line, position, nodes_read = 0, 1, 0, 0
    props: dict[str, list[str]] | None = None
    ident = ""
    while (found := _NEXT.search(text, position)) is not None:
        token, position = found.group(), found.end()
        if token == "\n":
            line += 1
        elif token == "(":
            depth += 1
            if depth > MAX_DEPTH:
                raise RecordFormatError(
                    "too_deep",
                    f"SGF variations may nest at most {MAX_DEPTH} deep; this record nests deeper.",
                    line,
                    max=MAX_DEPTH,
                )
            if depth == 1:
                if len(trees) == MAX_GAMES:
                    raise RecordFormatError(
                        "too_many_games",
                        f"A record may hold at most {MAX_GAMES} games; this one holds more.",
                        line,
                        max=MAX_GAMES,
                    )
                trees.append((line, []))
            props, ident = None, ""
        elif token == ")":
            depth -= 1
            if depth < 0:
                raise RecordFormatError("unbalanced", "An SGF ')' closes nothing.", line)
            props, ident = None, ""
        elif depth == 0:
            continue  # text between game trees
        elif token == ";":
            nodes_read += 1
            if nodes_read > MAX_NODES:
                raise RecordFormatError(
                    "too_many_nodes",
                    f"An SGF record may hold at most {MAX_NODES} nodes; this one holds more.",
                    line,
                    max=MAX_NODES,
                )
            props, ident = {}, ""
            trees[-1][1].append((line, props))
        elif token == "[":
            value, position, lines = _read_value(text, position, line)
            if props is not None and ident:
                props.setdefault(ident, []).append(value)
            line += lines
        else:
            ident = "".join(letter for letter in token if letter.isupper())  # FF[3] lower case is decoration
    if depth != 0:
        raise RecordFormatError("unexpected_end", "The SGF text ends inside a game tree or a value.", line)
    return trees


def _read_value(text: str, position: int, line: int) -> tuple[str, int, int]:
    """The unescaped value starting at `position` (after its `[`): (value, position after `]`, lines in it).

    One possessive regex scan (no backtracking state kept, so no memory per escape) over a window just large
    enough for MAX_VALUE_CHARS escaped characters. Control characters are dropped (base.text): a NUL in a
    player name cannot be stored by PostgreSQL.
    """
    window = min(len(text), position + 2 * MAX_VALUE_CHARS + 2)
    body = _VALUE_BODY.match(text, position, window)
    assert body is not None  # the pattern matches the empty string
    end = body.end()
    if end == len(text) or text[end] != "]":
        if window < len(text):  # cut at the window: longer than any value may be
            raise RecordFormatError("value_too_long", _VALUE_TOO_LONG, line, max=MAX_VALUE_CHARS)
        raise RecordFormatError(
            "unexpected_end", "The SGF text ends inside a game tree or a value.", line + text.count("\n", position, end)
        )
    raw = text[position:end]
    value = _ESCAPE.sub(r"\1", raw) if "\\" in raw else raw
    if len(value) > MAX_VALUE_CHARS:
        raise RecordFormatError("value_too_long", _VALUE_TOO_LONG, line, max=MAX_VALUE_CHARS)
    return clean_text(value, multiline=True), end + 1, raw.count("\n")


def parse_sgf(data: bytes | str) -> MatchRecord:
    """Read a gnubg SGF match. Raises RecordFormatError naming the line, never anything else."""
    text = decode_text(data)
    trees = _read_trees(text)
    if not trees:
        raise RecordFormatError("no_game_tree", "No SGF game tree '(;GM[6]…)' found.", 1)
    length, players, crawford, variation = 0, ("", ""), True, "Backgammon"
    games: list[RecordedGame] = []
    for tree_line, nodes in trees:
        if not nodes:
            raise RecordFormatError("empty_game_tree", "An SGF game tree without nodes.", tree_line)
        root_line, root = nodes[0]
        if root.get("GM", ["6"])[0].strip() != "6":
            raise RecordFormatError("not_backgammon", "This SGF file is not backgammon (GM[6]).", root_line)
        info = dict(value.split(":", 1) for value in root.get("MI", []) if ":" in value)
        try:
            length = int(info.get("length", length))
            number = int(info.get("game", len(games))) + 1
            scores = (int(info.get("ws", 0)), int(info.get("bs", 0)))
        except ValueError as error:
            raise RecordFormatError(
                "bad_match_info", "MI[length:…][game:…][ws:…][bs:…] must hold whole numbers.", root_line
            ) from error
        if not 0 <= length <= 999 or min(scores) < 0:
            raise RecordFormatError(
                "match_info_range", "The match length and scores in MI[…] are out of range.", root_line
            )
        players = (
            clean_text(root.get("PW", [players[0] or "White"])[0]).strip()[:MAX_NAME],
            clean_text(root.get("PB", [players[1] or "Black"])[0]).strip()[:MAX_NAME],
        )
        rules = ":".join(root.get("RU", [])).lower()
        crawford = "crawford" in rules or (crawford and not root.get("RU"))
        variation = next((name for key, name in _VARIANT_NAMES.items() if name.lower() in rules), variation)
        actions = _with_cube_values([_action(node, line) for line, node in nodes[1:] if "W" in node or "B" in node])
        result = root.get("RE", [""])[0].strip()
        if result:
            found = _RESULT.match(result)
            if not found:
                raise RecordFormatError(
                    "bad_result",
                    f"RE[{result}] is not a result such as RE[W+2] or RE[B+4R].",
                    root_line,
                    result=result,
                )
            winner, points = _SIDE[found.group(1)], int(found.group(2))
            if points < 1:
                raise RecordFormatError(
                    "bad_result_points", f"RE[{result}]: a game is won by at least 1 point.", root_line, result=result
                )
            match_won = length > 0 and scores[winner] + points >= length
            move_number = actions[-1].move_number if actions else 1
            actions.append(
                Action(
                    player=winner,
                    kind=ActionKind.WIN,
                    move_number=move_number,
                    value=points,
                    match_won=match_won,
                    line=root_line,
                )
            )
        games.append(RecordedGame(number=number, scores=scores, actions=_number(actions), line=root_line))
    headers = (("Variation", variation), ("Crawford", "On" if crawford else "Off"))
    return MatchRecord(length=length, players=players, games=tuple(games), headers=headers)


def _action(node: dict[str, list[str]], line: int) -> Action:
    colour = "W" if "W" in node else "B"
    player = _SIDE[colour]
    value = (node[colour] or [""])[0].strip()
    simple = {"double": ActionKind.DOUBLE, "take": ActionKind.TAKE, "drop": ActionKind.DROP}
    if value in simple:
        return Action(player=player, kind=simple[value], line=line)
    if len(value) < 2 or not value[:2].isdigit() or not all(1 <= int(d) <= 6 for d in value[:2]):
        raise RecordFormatError(
            "bad_sgf_roll",
            f"{colour}[{value}] is not a roll such as {colour}[52mhhf].",
            line,
            value=f"{colour}[{value}]",
        )
    letters = value[2:]
    if len(letters) % 2 or len(letters) > 8:
        raise RecordFormatError(
            "bad_sgf_move",
            f"{colour}[{value}]: moves are from/to letter pairs, at most four.",
            line,
            value=f"{colour}[{value}]",
        )
    steps = [
        (_point(letters[i], player, line=line), _point(letters[i + 1], player, line=line))
        for i in range(0, len(letters), 2)
    ]
    move = " ".join(f"{_name(a)}/{_name(b)}" for a, b in steps)
    return Action(player=player, kind=ActionKind.ROLL, dice=(int(value[0]), int(value[1])), move=move, line=line)


def _with_cube_values(actions: list[Action]) -> list[Action]:
    """SGF writes a bare `double`: the value it turns the cube to follows from the takes before it."""
    cube, out = 1, []
    for action in actions:
        if action.kind == ActionKind.DOUBLE:
            action = replace(action, value=cube * 2)
        elif action.kind == ActionKind.TAKE:
            cube *= 2
        out.append(action)
    return out


def _name(point: int) -> str:
    return "bar" if point == BAR else "off" if point == OFF else str(point)


def _number(actions: list[Action]) -> tuple[Action, ...]:
    """Give SGF actions .mat move numbers: a new number when the first-named player acts after the second."""
    numbered, number, last_player = [], 1, None
    for action in actions:
        if action.kind == ActionKind.WIN:
            numbered.append(action)
            continue
        if last_player == 1 and action.player == 0:
            number += 1
        last_player = action.player
        numbered.append(replace(action, move_number=number))
    if numbered and numbered[-1].kind == ActionKind.WIN:
        numbered[-1] = replace(numbered[-1], move_number=number)
    return tuple(numbered)


def _single_die_steps(steps: tuple[Step, ...], dice: tuple[int, int]) -> list[Step]:
    """SGF writes one die per pair: split a written `24/16` (one checker, several dice) into its dice."""
    out: list[Step] = []
    for start, end in steps:
        distance = start - end if end != OFF else None
        die = dice[0] if dice[0] == dice[1] else None
        if distance and die and distance > die and distance % die == 0:
            points = [start - die * k for k in range(distance // die + 1)]
            out.extend(zip(points, points[1:], strict=False))
        elif distance and dice[0] != dice[1] and distance == sum(dice):
            middle = start - max(dice)
            out.extend([(start, middle), (middle, end)])
        else:
            out.append((start, end))
    return out


def write_sgf(record: MatchRecord) -> str:
    """The record as gnubg SGF, one game tree per game (a resignation is written as RE[…R])."""
    trees = []
    crawford = record.flag("Crawford", True)
    for index, game in enumerate(record.games):
        root = [
            "FF[4]GM[6]CA[UTF-8]AP[bgclub]",
            f"MI[length:{record.length}][game:{index}][ws:{game.scores[0]}][bs:{game.scores[1]}]",
            f"PW[{_escape(record.players[0])}]PB[{_escape(record.players[1])}]",
        ]
        rules = (["Crawford"] if crawford and record.length > 0 else []) + (
            [_VARIANT_NAMES[record.variant]] if record.variant != "standard" else []
        )
        if rules:
            root.append(f"RU[{':'.join(rules)}]")
        board: Board | None = starting_board(Variant(record.variant))
        backward = record.backward
        nodes = []
        result = ""
        resigned = False
        for action in game.actions:
            colour = "W" if action.player == 0 else "B"
            if (
                action.kind == ActionKind.ROLL
                and action.move in ("????", "Concedes")
                or action.kind == ActionKind.CONCEDE
            ):
                resigned = True
                continue
            if action.kind == ActionKind.ROLL:
                assert action.dice is not None
                move = "" if action.move == "Cannot Move" else action.move
                decoded = decode_move(move)
                written = decoded.steps
                # The engine knows the intermediate points of a combined move such as 24/15 (24/18/15 or
                # 24/21/15); past an illegal move the board is unknown, so split by the dice alone.
                check = (
                    play_written(board, action.player, action.dice, decoded, backward=backward)
                    if board
                    else None
                )
                if check is not None and check.ok and check.result is not None:
                    combined = any(end != OFF and start - end not in action.dice for start, end in written)
                    steps = list(check.steps) if combined and check.steps else list(written)
                    board = check.result
                else:
                    steps, board = _single_die_steps(written, action.dice), None
                letters = "".join(_letter(a, action.player) + _letter(b, action.player) for a, b in steps)
                nodes.append(f";{colour}[{action.dice[0]}{action.dice[1]}{letters}]")
            elif action.kind in (ActionKind.DOUBLE, ActionKind.TAKE, ActionKind.DROP):
                nodes.append(f";{colour}[{action.kind.value}]")
            elif action.kind == ActionKind.WIN:
                result = f"RE[{colour}+{action.value}{'R' if resigned else ''}]"
        trees.append("(;" + "".join(root) + result + "\n" + "\n".join(nodes) + ")")
    return "\n".join(trees) + "\n"


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace("]", "\\]")
