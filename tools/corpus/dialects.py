"""Write the dialect samples, flawed records and untidy records of tests/data/corpus from its gnubg records.

Real archives write the same match in several layouts (eXtreme Gammon, Backgammon Studio, BackgammonGalaxy,
FIBS-era text logs). The project cannot ship other people's records, so it writes its own: each sample is a
gnubg self-play match re-laid in one dialect's layout (its headers, move notation, dance and resignation
marks, encoding and line ends). Every written file is verified before it is kept: a dialect sample must get
the same verdict as its source, a flawed record exactly the error its mutation makes, an untidy record a
valid verdict with its warning.

    .venv/bin/python tools/corpus/dialects.py tests/data/corpus

The output is reproducible (a fixed random seed picks the dice written for resignations and the die order
of FIBS-era logs); tests/data/corpus/README.md lists every file and its source.
"""

from __future__ import annotations

import random
import sys
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from backgammon.matchfiles.mat import Action, ActionKind, MatchRecord, RecordedGame, parse_mat  # noqa: E402
from backgammon.matchfiles.notation import BAR, OFF, decode_move  # noqa: E402
from backgammon.verification import Verdict, check_record, verify  # noqa: E402


@dataclass(frozen=True)
class Dialect:
    """How one family of programs lays out a .mat record."""

    name: str
    players: tuple[str, str]  # the names in the game headers
    headers: tuple[tuple[str, str], ...]
    length_line: str  # with {length}
    bar: str  # how the bar is written as a starting point
    off: str
    group: bool  # `8/3(2)` for the same step played twice
    combine: bool  # `24/15`, `13/7*/1`: one checker's steps in one token
    every_point: bool  # a combined token names every point it passes (`24/18/13`), not only hits (`24/13`)
    dance: str  # the move written for a roll that cannot be played
    resign: str  # "mark": `51: ????` or `Concedes`; "bare": a roll with no move; "none": the win line alone
    point_word: str  # "point" for Backgammon Studio's `Wins 2 point`, "" for correct plurals
    win_numbered: bool  # `7)  Wins 1 point` rather than an unnumbered line under the column
    left_width: int
    encoding: str
    newline: str = "\n"
    shuffle_dice: bool = False  # `25:` as well as `52:`: the dice in the order they fell
    pad: int = 0  # trailing spaces some exporters leave (cells padded to this width)
    match_won: bool = False  # `Wins 3 points and the match` on the last game's result


XG = Dialect(
    name="xg",
    players=("Anna Lindqvist", "Tomás Ruiz"),
    headers=(
        ("Site", "eXtreme Gammon"),
        ("Match ID", "{seed}"),
        ("Event", "Club Night Open"),
        ("Round", "Round {round}"),
        ("Player 1", "Anna Lindqvist"),
        ("Player 2", "Tomás Ruiz"),
        ("Player 1 Elo", "1612.40/212"),
        ("Player 2 Elo", "1588.05/97"),
        ("EventDate", "2024.03.{round:02d}"),
        ("EventTime", "19.30"),
        ("Variation", "Backgammon"),
        ("Unrated", "Off"),
        ("Crawford", "On"),
        ("CubeLimit", "1024"),
    ),
    length_line="{length} point match",
    bar="Bar",
    off="Off",
    group=True,
    combine=True,
    every_point=False,
    dance="Cannot Move",
    resign="mark",
    point_word="",
    win_numbered=True,
    left_width=34,
    encoding="utf-8-sig",
    pad=30,
    match_won=True,
)
STUDIO = Dialect(
    name="bgstudio",
    players=("kestrel", "mole_42"),
    headers=(
        ("Site", "Backgammon Studio"),
        ("Match ID", "{seed}"),
        ("Event", "Online League"),
        ("Round", "Round {round}"),
        ("Player 1", "kestrel"),
        ("Player 2", "mole_42"),
        ("EventDate", "2023.09.{round:02d}"),
        ("EventTime", "20.05"),
        ("Variation", "Backgammon"),
        ("Unrated", "Off"),
        ("Crawford", "On"),
        ("CubeLimit", "1024"),
        ("ClockType", "Live8 780/10"),
    ),
    length_line="{length} point match",
    bar="bar",
    off="off",
    group=True,
    combine=False,
    every_point=False,
    dance="Cannot Move",
    resign="mark",
    point_word="point",
    win_numbered=True,
    left_width=34,
    encoding="ascii",
    match_won=True,
)
GALAXY = Dialect(
    name="galaxy",
    players=("sørensen", "blitzkid"),
    headers=(
        ("Site", "BackgammonGalaxy"),
        ("Match ID", "{seed}"),
        ("Event", "Galaxy Weekly"),
        ("Round", "Round {round}"),
        ("Player 1", "Mette Sørensen"),
        ("Player 2", "Kid Blitz"),
        ("Variation", "Backgammon"),
        ("Unrated", "Off"),
        ("Crawford", "On"),
        ("CubeLimit", "1024"),
    ),
    length_line="{length} point match",
    bar="25",
    off="0",
    group=False,
    combine=False,
    every_point=False,
    dance="",
    resign="none",
    point_word="",
    win_numbered=False,
    left_width=28,
    encoding="utf-8",
)
FIBS = Dialect(
    name="fibs",
    players=("Jürgen", "marvin"),
    headers=(),
    length_line=" {length} point match",
    bar="bar",
    off="off",
    group=False,
    combine=True,
    every_point=True,
    dance="",
    resign="bare",
    point_word="",
    win_numbered=True,
    left_width=28,
    encoding="iso-8859-1",
    newline="\r\n",
    shuffle_dice=True,
)
# Which gnubg records each dialect re-lays: together they hold every feature the tests look for (bar entries
# with hits, bear-offs, doubled steps, dances, drops, takes, resignations with the cube at 1 and higher).
SOURCES = {
    XG: ("standard_0004_9p", "standard_0013_5p", "standard_0027_11p", "standard_0073_8p"),
    STUDIO: ("standard_0002_5p", "standard_0015_9p", "standard_0026_9p", "standard_0071_4p"),
    GALAXY: ("standard_0005_11p", "standard_0024_5p", "standard_0074_10p"),
    FIBS: ("standard_0003_7p", "standard_0014_7p", "standard_0035_5p", "standard_0072_6p"),
}


# --- writing one record in a dialect ------------------------------------------------------------------------


def move_text(move: str, dialect: Dialect, *, plain: bool) -> str:
    """A gnubg move (`25/22 8/3 8/3`, `6/0`) in the dialect's notation; `plain` keeps one token per step."""
    decoded = decode_move(move)
    hits = set(decoded.hits)
    chains: list[list[int]] = []
    for start, end in decoded.steps:
        if dialect.combine and not plain and chains and chains[-1][-1] == start:
            chains[-1].append(end)
        else:
            chains.append([start, end])

    def point(number: int, *, first: bool) -> str:
        name = dialect.bar if number == BAR and first else dialect.off if number == OFF else str(number)
        return name + ("*" if not first and number in hits else "")

    def kept(chain: list[int]) -> list[int]:
        """The points a combined token writes: all of them, or (`24/15`, `13/7*/1`) the ends and the hits."""
        if dialect.every_point:
            return chain
        return [n for i, n in enumerate(chain) if i in (0, len(chain) - 1) or n in hits]

    tokens = ["/".join(point(n, first=i == 0) for i, n in enumerate(kept(chain))) for chain in chains]
    if not dialect.group or plain:
        return " ".join(tokens)
    counted: dict[str, int] = {}
    for token in tokens:
        counted[token] = counted.get(token, 0) + 1
    return " ".join(
        f"{token}({count})" if count > 1 and "*" not in token else " ".join([token] * count)
        for token, count in counted.items()
    )


def cell(action: Action, dialect: Dialect, *, plain: bool, rng: random.Random) -> str:
    if action.kind == ActionKind.ROLL:
        assert action.dice is not None
        dice = action.dice
        if dialect.shuffle_dice and rng.random() < 0.5:
            dice = (dice[1], dice[0])
        if action.move in ("????", "Concedes"):
            move = action.move
        elif action.move in ("", "Cannot Move"):
            move = dialect.dance
        else:
            move = move_text(action.move, dialect, plain=plain)
        return f"{dice[0]}{dice[1]}:" + (f" {move}" if move else "")
    if action.kind == ActionKind.WIN:
        unit = dialect.point_word or ("point" if action.value == 1 else "points")
        return f" Wins {action.value} {unit}" + (" and the match" if action.match_won else "")
    return " " + action.text


def with_resignation(game: RecordedGame, dialect: Dialect, rng: random.Random) -> tuple[Action, ...]:
    """gnubg writes a resignation as the winner's `Wins` line alone; some dialects also write the loser's mark."""
    actions = game.actions
    win = actions[-1]
    loser = 1 - win.player
    rolls = [action for action in actions if action.kind == ActionKind.ROLL]
    loser_to_move = bool(rolls) and rolls[-1].player == win.player
    if dialect.resign == "none" or (dialect.resign == "bare" and not loser_to_move):
        return actions
    dice = (rng.randint(1, 6), rng.randint(1, 6))
    if dialect.resign == "bare":
        mark = Action(player=loser, kind=ActionKind.ROLL, dice=dice, move="")
    elif loser_to_move:
        # Backgammon Studio also writes `00: ????` (resigned before rolling) and `62: Concedes`.
        dice, move = rng.choice([(dice, "????"), (dice, "Concedes"), ((0, 0), "????")])
        mark = Action(player=loser, kind=ActionKind.ROLL, dice=dice, move=move)
    else:
        mark = Action(player=loser, kind=ActionKind.CONCEDE, move="Concedes")
    return (*actions[:-1], mark, win)


def write(record: MatchRecord, verdict: Verdict, dialect: Dialect, *, seed: int, plain: set[tuple[int, int]]):
    """The record's text in the dialect, and which (game, action) each file line holds."""
    rng = random.Random(seed)
    lines = [f'; [{key} "{value.format(seed=seed, round=seed % 28 + 1)}"]' for key, value in dialect.headers]
    if dialect.headers:
        lines.append("")
    lines += [dialect.length_line.format(length=record.length), ""]
    where: dict[int, tuple[int, int]] = {}
    names = dialect.players
    prefix = 5
    for index, game in enumerate(record.games):
        kind = verdict.games[index].kind
        actions = with_resignation(game, dialect, rng) if kind == "resign" else game.actions
        lines.append(f" Game {game.number}")
        left = f" {names[0]} : {game.scores[0]}"
        lines.append(f"{left:<{dialect.left_width + prefix}} {names[1]} : {game.scores[1]}")
        row: list[tuple[int, str] | None] = [None, None]
        number = 0

        def flush(index: int = index) -> None:
            nonlocal number, row
            if row == [None, None]:
                return
            number += 1
            cells = [text if text is not None else "" for text in (c[1] if c else None for c in row)]
            left_cell = cells[0].ljust(dialect.pad) if dialect.pad and cells[0] else cells[0]
            right_cell = cells[1].ljust(dialect.pad) if dialect.pad and cells[1] else cells[1]
            text = f"{number:3d}) {left_cell:<{dialect.left_width}} {right_cell}"
            lines.append(text if dialect.pad else text.rstrip())
            for side in (0, 1):
                if row[side] is not None:
                    where[len(lines)] = (index, row[side][0])  # type: ignore[index]
            row = [None, None]

        for position, action in enumerate(actions):
            source = game.actions.index(action) if action in game.actions else -1
            if action.kind == ActionKind.WIN and dialect.match_won and game is record.games[-1]:
                action = replace(action, match_won=True)
            text = cell(action, dialect, plain=(index, source) in plain, rng=rng)
            if action.kind == ActionKind.WIN and not dialect.win_numbered:
                flush()
                indent = prefix + (dialect.left_width + 1 if action.player else 0)
                lines.append(" " * indent + text.strip())
                continue
            if row[action.player] is not None or (action.player == 0 and row[1] is not None):
                flush()
            row[action.player] = (source, text)
            del position
        flush()
        lines.append("")
    return dialect.newline.join(lines) + dialect.newline, where


def relay(record: MatchRecord, dialect: Dialect, *, seed: int) -> bytes:
    """The record in the dialect, verified: same verdict as the source. A combined or grouped token the
    verifier reads differently from gnubg's steps is written plain (one token per step) and tried again."""
    verdict = verify(record)
    plain: set[tuple[int, int]] = set()
    for _ in range(50):
        text, where = write(record, verdict, dialect, seed=seed, plain=plain)
        data = text.encode(dialect.encoding)
        status, again = check_record(data)
        if status == "valid":
            assert (again.final_score, again.winner is not None) == (verdict.final_score, True), again
            assert [(g.points, g.kind, g.cube) for g in again.games] == [
                (g.points, g.kind, g.cube) for g in verdict.games
            ]
            return data
        spots = {where[error.line] for error in again.errors if error.line in where}
        if not spots - plain:
            raise SystemExit(f"{dialect.name} seed {seed}: {again.errors[0].message}")
        plain |= spots
    raise SystemExit(f"{dialect.name} seed {seed}: still invalid")


# --- flawed and untidy records -----------------------------------------------------------------------------


def replace_line(text: str, number: int, old: str, new: str) -> str:
    lines = text.split("\n")
    assert old in lines[number - 1], (number, lines[number - 1], old)
    lines[number - 1] = lines[number - 1].replace(old, new, 1)
    return "\n".join(lines)


def flawed(gnubg: Path) -> dict[str, tuple[str, str]]:
    """Three documented mutations of gnubg records: file name → (text, the error it must give)."""
    out: dict[str, tuple[str, str]] = {}
    # 1. A resignation with the cube at 2 written as a 5-point win: it can only win 2, 4 or 6.
    for path in sorted(gnubg.glob("standard_*.mat")):
        record = parse_mat(path.read_bytes())
        verdict = verify(record)
        found = [(i, g) for i, g in enumerate(verdict.games) if g.kind == "resign" and g.cube == 2 and g.points == 2]
        if found:
            index, _ = found[0]
            win = record.games[index].actions[-1]
            text = replace_line(path.read_text(), win.line, "Wins 2 points", "Wins 5 points")
            out["resign_cube2_wrong_points.mat"] = (text, "wrong_points")
            break
    source = gnubg / "standard_0007_15p.mat"
    record = parse_mat(source.read_bytes())
    # 2. An illegal move: a 6-5 whose second step is written one pip short.
    roll = next(
        a
        for a in record.games[1].actions
        if a.kind == ActionKind.ROLL and a.dice == (6, 5) and len(decode_move(a.move).steps) == 2
    )
    start, end = decode_move(roll.move).steps[1]
    wrong = roll.move.replace(f"{start}/{end}", f"{start}/{end + 1}")
    text = replace_line(source.read_text(), roll.line, f"65: {roll.move}", f"65: {wrong}")
    out["illegal_move.mat"] = (text, "illegal_move")
    # 3. A wrong header score: the last game's header gives the first player one point more than the games
    # before it won (the last game, so that the replay, which goes on from the written score, finds no other).
    game = record.games[-1]
    lines = source.read_text().split("\n")
    header = lines[game.score_line - 1]
    first = f"{record.players[0]} : {game.scores[0]}"
    lines[game.score_line - 1] = header.replace(first, f"{record.players[0]} : {game.scores[0] + 1}", 1)
    out["wrong_header_score.mat"] = ("\n".join(lines), "score_mismatch")
    return out


def untidy(gnubg: Path) -> dict[str, tuple[str, str]]:
    """Two legal records with departures real archives hold: file name → (text, the warning it must give)."""
    out: dict[str, tuple[str, str]] = {}
    # 1. A player renamed from game 2 on (the same column): "gnubg" becomes "GNU Bg".
    source = gnubg / "standard_0005_11p.mat"
    record = parse_mat(source.read_bytes())
    lines = source.read_text().split("\n")
    for game in record.games[1:]:
        lines[game.score_line - 1] = lines[game.score_line - 1].replace(" gnubg : ", " GNU Bg : ", 1)
    out["player_renamed.mat"] = ("\n".join(lines), "player_renamed")
    # 2. A record starting mid-match: the games before the first one at 4–3 (either way) were not transcribed.
    for path in sorted(gnubg.glob("standard_*.mat")):
        record = parse_mat(path.read_bytes())
        later = [g for g in record.games[1:] if sorted(g.scores) == [3, 4]]
        if later:
            game = later[0]
            lines = path.read_text().split("\n")
            kept = lines[: record.games[0].line - 1] + lines[game.line - 1 :]
            text = "\n".join(kept)
            for number, old in enumerate(record.games[game.number - 1 :], start=1):
                text = text.replace(f" Game {old.number}\n", f" Game {number}\n", 1)
            out["starts_mid_match.mat"] = (text, "starts_mid_match")
            break
    return out


def main(out: Path) -> None:
    gnubg = out / "gnubg"
    for folder in ("dialects", "flawed", "untidy"):
        (out / folder).mkdir(exist_ok=True)
        for old in (out / folder).glob("*.mat"):
            old.unlink()
    for dialect, sources in SOURCES.items():
        for name in sources:
            seed = int(name.split("_")[1])
            record = parse_mat((gnubg / f"{name}.mat").read_bytes())
            target = out / "dialects" / f"{dialect.name}_{name.split('_', 1)[1]}.mat"
            target.write_bytes(relay(record, dialect, seed=seed))
            print(target)
    for folder, made, expected_status in (("flawed", flawed(gnubg), "invalid"), ("untidy", untidy(gnubg), "valid")):
        for name, (text, code) in made.items():
            status, verdict = check_record(text.encode())
            found = verdict.errors if expected_status == "invalid" else verdict.warnings
            codes = [problem.code for problem in found]
            assert status == expected_status and codes == [code], (name, status, verdict.errors, verdict.warnings)
            (out / folder / name).write_text(text)
            print(out / folder / name)


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "tests/data/corpus"))
