"""A whole record reviewed by the `gnubg-nn` package: the engine where the GNU Backgammon program is not installed
(a fresh clone's `make run`). Checker play only, cubeless money equities at 0 or 1 ply (backgammon.analysis.nn):
every roll of every game is replayed from the usual start, each play's loss against the best of its roll is what
the package's own evaluation of the two positions says, and the figures follow gnubg's definitions (unforced: a
roll with more than one distinct result; doubtful, bad, very bad from 0.04, 0.08, 0.16 EMG). No cube decisions,
no luck, no match score: the figures say so (engine "gnubg-nn", `checker_only`), and never share an average or a
ranking with the program's (games.analysis.selectors keep each engine and ply apart)."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

import gnubg_nn

from backgammon.analysis import nn
from backgammon.analysis.gnubg_stats import PlayerFigures
from backgammon.analysis.review import Decision, GameFigures, Review
from backgammon.analysis.runner import Analysis, AnalysisFailed
from backgammon.matchfiles.mat import CANNOT_MOVE, ActionKind, MatchRecord, parse_mat

START = (0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0)  # one side, gnubg's numbering
DOUBTFUL, BAD, VERY_BAD = 0.04, 0.08, 0.16  # gnubg's default marks, EMG
KEPT_DECISIONS = 50
NO_MOVE = ("", CANNOT_MOVE)


def written_steps(text: str) -> list[tuple[int, int]]:
    """(from, to) per hop of a written move such as `bar/22* 13/7/1 6/off(2)`; 25 = bar, 0 = off."""
    steps = []
    for token in text.split():
        repeat = 1
        if token.endswith(")"):
            token, _, count = token[:-1].partition("(")
            repeat = int(count)
        points = [
            25 if part == "bar" else 0 if part == "off" else int(part) for part in token.replace("*", "").split("/")
        ]
        steps += [(points[i], points[i + 1]) for i in range(len(points) - 1)] * repeat
    return steps


def play(mover: list[int], opponent: list[int], steps: list[tuple[int, int]]) -> None:
    """The written hops on the two sides' counts (a blot on the mover's `end` is the opponent's 25 - end)."""
    for start, end in steps:
        mover[start - 1] -= 1
        if end:
            mover[end - 1] += 1
            if opponent[24 - end] == 1:
                opponent[24 - end] = 0
                opponent[24] += 1


@dataclass
class _Tally:
    moves: int = 0
    unforced: int = 0
    total: float = 0.0
    marks: list[int] = field(default_factory=lambda: [0, 0, 0])  # doubtful, bad, very bad

    def add(self, loss: float, unforced: bool) -> None:
        self.moves += 1
        if not unforced:
            return
        self.unforced += 1
        self.total += loss
        if loss >= VERY_BAD:
            self.marks[2] += 1
        elif loss >= BAD:
            self.marks[1] += 1
        elif loss >= DOUBTFUL:
            self.marks[0] += 1

    def game(self) -> GameFigures:
        rate = 1000.0 * self.total / self.unforced if self.unforced else 0.0
        return GameFigures(
            unforced_decisions=self.unforced,
            error_total=self.total,
            error_rate=rate,
            checker_error_total=self.total,
            cube_error_total=0.0,
            errors=self.marks[0] + self.marks[1],
            blunders=self.marks[2],
            luck_total=0.0,
        )

    def player(self, name: str) -> PlayerFigures:
        rate = 1000.0 * self.total / self.unforced if self.unforced else 0.0
        return PlayerFigures(
            name=name,
            moves=self.moves,
            unforced_moves=self.unforced,
            cube_decisions=0,
            checker_error_total=self.total,
            checker_error_rate=rate,
            cube_error_total=0.0,
            cube_error_rate=0.0,
            error_total=self.total,
            error_rate=rate,
            doubtful=self.marks[0],
            bad=self.marks[1],
            very_bad=self.marks[2],
            cube_errors=0,
            luck_total=0.0,
            luck_rate=0.0,
        )


def review_with_nn(
    record: bytes | MatchRecord, *, plies: int, on_progress: Callable[[int, int], None] | None = None
) -> Review:
    """Analyse a .mat record's checker play at `plies` (0 or 1); `on_progress(done, total)` after each game.
    AnalysisFailed when the record cannot be replayed from the usual start (another variant's record)."""
    if plies not in nn.PLIES:
        raise AnalysisFailed(f"gnubg-nn analyses at 0 or 1 ply, not {plies}; deeper needs the gnubg program")
    started = time.perf_counter()
    parsed = record if isinstance(record, MatchRecord) else parse_mat(record)
    match = [_Tally(), _Tally()]
    games: list[tuple[GameFigures, GameFigures]] = []
    decisions: list[Decision] = []
    for number, game in enumerate(parsed.games, 1):
        tallies = [_Tally(), _Tally()]
        sides = [list(START), list(START)]
        for index, action in enumerate(game.actions, 1):
            if action.kind is not ActionKind.ROLL or action.dice is None:
                continue
            mover, opponent = sides[action.player], sides[1 - action.player]
            before = gnubg_nn.position_id([list(opponent), list(mover)])  # the mover on roll
            results = gnubg_nn.moves([opponent, mover], action.dice[0], action.dice[1], 0)
            board = [list(opponent), list(mover)]
            if action.move not in NO_MOVE:
                play(mover, opponent, written_steps(action.move))
            elif results:
                raise AnalysisFailed(f"game {number}: a roll of {action.dice} has a play but none is written")
            if not results:
                continue
            key = gnubg_nn.key_of_board([opponent, mover])
            plays = nn.play_losses(board, *action.dice, plies=plies, must=key)
            played = next((p for p in plays if p.key == key), None)
            if played is None:
                raise AnalysisFailed(
                    f"game {number}: {action.move!r} is not a legal play from the usual start's replay "
                    "(gnubg-nn reads standard backgammon only)"
                )
            unforced = len(results) > 1
            for tally in (tallies[action.player], match[action.player]):
                tally.add(played.loss, unforced)
            if unforced and played.loss > 0:
                decisions.append(
                    Decision(
                        game=number,
                        index=index,
                        side=action.player,
                        kind="move",
                        position=before,
                        score=(game.scores[0], game.scores[1]),
                        loss=played.loss,
                        dice=tuple(action.dice),
                        played=_written(played.steps),
                        best=_written(plays[0].steps),
                    )
                )
        games.append((tallies[0].game(), tallies[1].game()))
        if on_progress is not None:
            on_progress(number, len(parsed.games))
    decisions.sort(key=lambda d: -d.loss)
    names = parsed.players
    analysis = Analysis(
        engine=nn.ENGINE,
        version=nn.version(),
        plies=plies,
        met="none (cubeless money equities)",
        players=(match[0].player(str(names[0])), match[1].player(str(names[1]))),
        seconds=time.perf_counter() - started,
        checker_only=True,
    )
    return Review(analysis=analysis, games=games, decisions=decisions[:KEPT_DECISIONS])


def _written(steps: tuple[tuple[int, int], ...]) -> str:
    def point(number: int) -> str:
        return "bar" if number == 25 else "off" if number <= 0 else str(number)

    return " ".join(f"{point(a)}/{point(b)}" for a, b in steps)


def decision_lines(record: MatchRecord) -> dict[tuple[int, str, str], int]:
    """(game, kind, Position ID with the decider on roll) -> the record's line of that decision: each roll's
    written move ("move") and each double ("cube"), so an engine's decision, which names its game and position,
    links to its line in the record. Replayed from the usual start as the review does; a record that does not
    replay (another variant's) maps what it reached."""
    lines: dict[tuple[int, str, str], int] = {}
    for number, game in enumerate(record.games, 1):
        sides = [list(START), list(START)]
        for action in game.actions:
            mover, opponent = sides[action.player], sides[1 - action.player]
            if action.kind is ActionKind.DOUBLE:
                lines.setdefault((number, "cube", gnubg_nn.position_id([list(opponent), list(mover)])), action.line)
            if action.kind is not ActionKind.ROLL or action.dice is None:
                continue
            lines.setdefault((number, "move", gnubg_nn.position_id([list(opponent), list(mover)])), action.line)
            if action.move not in NO_MOVE:
                try:
                    play(mover, opponent, written_steps(action.move))
                except (ValueError, IndexError):
                    break  # not a standard record from the usual start: the rest of this game is not mapped
    return lines
