"""A whole record reviewed by GNU Backgammon: both players' figures for the match and for each game, and the
checker plays and cube actions that lost the most, each with its position (docs/games.md, "Analysis of records").

The program runs in the runner's sandbox (`runner.run_gnubg_sandboxed`, the one the command-file runner uses too)
with a Python script instead of a bare command file, because only its Python interface (`gnubg.match()`) hands
out each decision's analysis. The
script runs the same commands as `runner.commands` (so the match figures are what `show statistics match`
prints), but analyses game by game and prints a progress line after each, then writes the per-game figures and
the decisions to a JSON file. The players are renamed `side0` / `side1` first: gnubg's statistics table cannot
hold a name with a space, and the record's own names are known to the caller anyway (side 0 is the record's
left column).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from backgammon.analysis.gnubg_stats import PlayerFigures, StatisticsError, parse
from backgammon.analysis.runner import (
    DEFAULT_MEMORY_MB,
    DEFAULT_TIME_LIMIT,
    GNUBG,
    Analysis,
    AnalysisFailed,
    program_version,
    run_gnubg_sandboxed,
)

PROGRESS = re.compile(r"^BGCLUB PROGRESS (\d+) (\d+)$")
KEPT_DECISIONS = 50  # the costliest decisions the script hands back; a page shows the first few

# Runs inside gnubg (its embedded Python 3). Side 0 is gnubg's player 0, "X", the record's left column.
SCRIPT = r"""
import json, sys
import gnubg

PLIES = {plies}
for line in (
    "set analysis chequerplay evaluation plies %d" % PLIES,
    "set analysis cubedecision evaluation plies %d" % PLIES,
    "show matchequitytable 1",
    "import mat match.mat",
    "set player 0 name side0",
    "set player 1 name side1",
):
    gnubg.command(line)
total = len(gnubg.match(analysis=False, boards=False)["games"])
gnubg.command("first game")
for number in range(1, total + 1):
    gnubg.command("analyse game")
    print("BGCLUB PROGRESS %d %d" % (number, total))
    sys.stdout.flush()
    if number < total:
        gnubg.command("next game")
sys.stdout.flush()
gnubg.command("show statistics match")
match = gnubg.match(analysis=True, boards=True, statistics=True)
SIDE = {{"X": 0, "O": 1}}
length = int((match.get("match-info") or {{}}).get("match-length") or 0)
games, decisions = [], []
crawford_played = False


def cube_equities(analysis, cube, owner, side, score, crawford):
    # gnubg hands cube decisions out as match winning chances; like gnubg's own analysis (mwc2eq with the cube
    # as it is), they become normalised equities (EMG), where the doubler's win of the cube (a pass) is 1.
    info = gnubg.cubeinfo(cube, owner, side, length, tuple(score), int(crawford), 0)
    no_double = gnubg.mwc2eq(analysis["nd-cubeful-eq"], info)
    take = gnubg.mwc2eq(analysis["dt-cubeful-eq"], info)
    return no_double, min(take, 1.0), take


for number, game in enumerate(match["games"], start=1):
    info = game["info"]
    score = [info.get("score-X", 0), info.get("score-O", 0)]
    crawford = bool(length) and (length - 1) in score and not crawford_played
    crawford_played = crawford_played or crawford
    cube, owner, offered = 1, -1, None
    games.append({{"number": number, "score": score, "stats": game.get("stats") or {{}}}})
    for index, row in enumerate(game["game"], start=1):
        action, analysis = row.get("action"), row.get("analysis") or {{}}
        side = SIDE.get(row.get("player"))
        base = {{"game": number, "index": index, "side": side, "position": row.get("board", ""),
                 "score": list(score)}}
        if action in ("move", "double") and "nd-cubeful-eq" in analysis and length:
            no_double, doubled, take = cube_equities(analysis, cube, owner, side, score, crawford)
            best = max(no_double, doubled)
            right = "double" if doubled > no_double else "no-double"
            if action == "double":
                offered = (dict(base), take)
                loss, played = best - doubled, "double"
            else:
                loss, played = best - no_double, "no-double"
            if loss > 1e-6:
                decisions.append(dict(base, kind="cube", dice=[], played=played, best=right, loss=loss))
        if action in ("take", "drop") and offered is not None:
            where, take = offered
            right = "take" if take <= 1.0 else "pass"
            played = "take" if action == "take" else "pass"
            loss = (take - 1.0) if played == "take" else (1.0 - take)
            if loss > 1e-6:
                decisions.append(dict(where, index=index, side=side, kind="cube", dice=[], played=played, best=right,
                                      loss=loss))
            if action == "take":
                cube, owner = cube * 2, side
            offered = None
        if action == "move" and analysis.get("moves"):
            played = [tuple(step) for step in row.get("move") or ()]
            options = analysis["moves"]
            mine = [m for m in options if [tuple(s) for s in m["move"]] == played]
            if not mine:
                continue
            loss = options[0]["score"] - mine[0]["score"]
            if loss > 1e-6:
                decisions.append(dict(base, kind="move", dice=list(row.get("dice") or ()), played=row.get("move"),
                                      best=options[0]["move"], loss=loss))
decisions.sort(key=lambda d: -d["loss"])
with open("review.json", "w") as out:
    json.dump({{"games": games, "decisions": decisions[:{kept}]}}, out)
"""


@dataclass(frozen=True)
class GameFigures:
    """One side's figures of one game (gnubg's own per-game statistics)."""

    unforced_decisions: int
    error_total: float  # EMG, a loss (≥ 0)
    error_rate: float  # mEMG per unforced decision
    checker_error_total: float
    cube_error_total: float
    errors: int  # checker plays marked doubtful or bad, and cube errors
    blunders: int  # checker plays marked very bad
    luck_total: float  # EMG, signed (positive: lucky)


CUBE_ACTIONS = ("no-double", "double", "take", "pass")


@dataclass(frozen=True)
class Decision:
    """One costly decision: a checker play (kind "move", the plays as "24/18 13/8") or a cube action (kind
    "cube", `played` and `best` one of CUBE_ACTIONS; the position is the doubler's, for a take or pass too).
    gnubg's Python interface gives a cube decision's cubeful values as match winning chances; the script turns
    them into normalised equities as gnubg's analysis does (mwc2eq with the cube as it stands), so a cube
    error's loss is in EMG like a play's and is what gnubg's statistics count."""

    game: int
    index: int  # the decision's place in the game (gnubg's numbering, from 1)
    side: int
    kind: str
    position: str  # gnubg Position ID before the decision, the decider on roll
    score: tuple[int, int]  # the score before the game, side 0 first
    loss: float  # EMG
    dice: tuple[int, ...] = ()
    played: str = ""
    best: str = ""


@dataclass(frozen=True)
class Review:
    analysis: Analysis
    games: list[tuple[GameFigures, GameFigures]] = field(default_factory=list)
    decisions: list[Decision] = field(default_factory=list)


def _steps(steps) -> str:
    """gnubg's [[24, 18], [18, 13]] as "24/18 18/13" (25 the bar, 0 off)."""

    def point(number: int) -> str:
        return "bar" if number == 25 else "off" if number <= 0 else str(number)

    return " ".join(f"{point(a)}/{point(b)}" for a, b in steps or ())


def game_figures(stats: dict) -> GameFigures:
    moves, cube, dice = stats.get("moves", {}), stats.get("cube", {}), stats.get("dice", {})
    marked = moves.get("marked", {})
    unforced = int(moves.get("unforced-moves", 0)) + int(cube.get("close-cube", 0))
    checker, cube_total = abs(float(moves.get("error-skill", 0.0))), abs(float(cube.get("error-skill", 0.0)))
    cube_errors = sum(
        int(cube.get(key, 0))
        for key in (
            "missed-double-below-cp",
            "missed-double-above-cp",
            "wrong-double-below-dp",
            "wrong-double-above-tg",
            "wrong-take",
            "wrong-drop",
        )
    )
    return GameFigures(
        unforced_decisions=unforced,
        error_total=checker + cube_total,
        error_rate=1000.0 * (checker + cube_total) / unforced if unforced else 0.0,
        checker_error_total=checker,
        cube_error_total=cube_total,
        errors=int(marked.get("doubtful", 0)) + int(marked.get("bad", 0)) + cube_errors,
        blunders=int(marked.get("very bad", 0)),
        luck_total=float(dice.get("luck", 0.0)),
    )


def read_review(text: str, found: dict, *, plies: int, version: str, seconds: float) -> Review:
    """The review from the program's output and its JSON file; AnalysisFailed when either is not as expected."""
    try:
        players: tuple[PlayerFigures, PlayerFigures] = parse(text)
        games = [(game_figures(g["stats"].get("X", {})), game_figures(g["stats"].get("O", {}))) for g in found["games"]]
        decisions = [
            Decision(
                game=int(d["game"]),
                index=int(d["index"]),
                side=int(d["side"]),
                kind=str(d["kind"]),
                position=str(d.get("position") or ""),
                score=(int(d["score"][0]), int(d["score"][1])),
                loss=float(d["loss"]),
                dice=tuple(int(x) for x in d.get("dice") or ()),
                played=_steps(d.get("played")) if d["kind"] == "move" else str(d.get("played", "")),
                best=_steps(d.get("best")) if d["kind"] == "move" else str(d.get("best", "")),
            )
            for d in found["decisions"]
        ]
    except StatisticsError as exc:
        tail = " ".join(text.strip().splitlines()[-3:])[:300]
        raise AnalysisFailed(f"gnubg gave no statistics ({exc}); it said: {tail}") from None
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
        raise AnalysisFailed(f"gnubg's analysis was not as expected ({type(exc).__name__}: {exc})") from None
    met = re.search(r"Match equity table: (.+)", text)
    analysis = Analysis(
        engine="gnubg",
        version=version,
        plies=plies,
        met=met.group(1).strip() if met else "unknown",
        players=players,
        seconds=seconds,
    )
    return Review(analysis=analysis, games=games, decisions=decisions)


def review_with_gnubg(
    record: bytes,
    *,
    plies: int,
    on_progress: Callable[[int, int], None] | None = None,
    program: str = GNUBG,
    time_limit: float = DEFAULT_TIME_LIMIT,
    memory_mb: int = DEFAULT_MEMORY_MB,
) -> Review:
    """Analyse a .mat record at `plies`; `on_progress(done, total)` after each game. AnalysisFailed otherwise."""

    def progress(line: str) -> None:
        found = PROGRESS.match(line.strip())
        if found and on_progress is not None:
            on_progress(int(found.group(1)), int(found.group(2)))

    run = run_gnubg_sandboxed(
        {"match.mat": record, "review.py": SCRIPT.format(plies=int(plies), kept=KEPT_DECISIONS)},
        ["-t", "-q", "-p", "review.py"],
        plies=plies,
        program=program,
        time_limit=time_limit,
        memory_mb=memory_mb,
        on_line=progress,
        keep=["review.json"],
    )
    out, seconds = run.output, run.seconds
    try:
        found = json.loads(run.files["review.json"])
    except (KeyError, ValueError):
        tail = " ".join(out.strip().splitlines()[-3:])[:300]
        raise AnalysisFailed(f"gnubg wrote no analysis; it said: {tail}") from None
    return read_review(out, found, plies=plies, version=program_version(program), seconds=seconds)
