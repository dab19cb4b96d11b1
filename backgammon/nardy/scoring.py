"""What a long nardy game is worth, and the score of a match to N points. There is no cube.

Oin: the loser bore off at least one checker, 1 point. Mars: the loser bore off none, 2 points. (In short,
i.e. standard, backgammon the same words name a single and a gammon; backgammon/scoring.py scores those.)
A match is won by the first side to reach or pass N points.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from backgammon.nardy.board import CHECKERS, NardyBoard
from backgammon.nardy.errors import NardyError


class NardyResult(StrEnum):
    OIN = "oin"
    MARS = "mars"


POINTS = {NardyResult.OIN: 1, NardyResult.MARS: 2}


def game_result(board: NardyBoard, winner: int) -> NardyResult:
    """The result of a game `winner` has finished by bearing off all fifteen."""
    if board.off[winner] != CHECKERS:
        raise NardyError("game_unfinished", f"side {winner} has borne off {board.off[winner]} of {CHECKERS}")
    return NardyResult.MARS if board.off[1 - winner] == 0 else NardyResult.OIN


def allowed_points(board: NardyBoard, winner: int) -> tuple[int, ...]:
    """The points a game may be written as won with: the result when `winner` bore everything off; a
    resignation before that gives up oin, or mars while the resigner has borne off none."""
    if board.off[winner] == CHECKERS:
        return (POINTS[game_result(board, winner)],)
    return (1, 2) if board.off[1 - winner] == 0 else (1,)


@dataclass(frozen=True)
class NardyMatch:
    """The score of a match to `length` points (length 0: an open session nobody wins)."""

    length: int
    scores: tuple[int, int] = (0, 0)

    def __post_init__(self) -> None:
        if self.length < 0 or min(self.scores) < 0:
            raise NardyError("invalid_match", f"a match needs a length ≥ 0 and scores ≥ 0, got {self}")

    @property
    def winner(self) -> int | None:
        if not self.length:
            return None
        for side in (0, 1):
            if self.scores[side] >= self.length:
                return side
        return None

    @property
    def is_over(self) -> bool:
        return self.winner is not None

    def after_game(self, *, winner: int, points: int) -> NardyMatch:
        if self.is_over:
            raise NardyError("match_over", f"the match ended at {self.scores[0]}–{self.scores[1]}")
        if points not in (1, 2):
            raise NardyError("wrong_points", f"a long nardy game is worth 1 (oin) or 2 (mars), not {points}")
        scores = list(self.scores)
        scores[winner] += points
        return NardyMatch(self.length, (scores[0], scores[1]))


# The game kinds a long nardy scoresheet takes: the two results, and a resignation giving up one of them.
SCORESHEET_KINDS = ("oin", "mars", "resign")


def scoresheet_points(*, kind: str, cube: int = 1, resign_level: int | None = None) -> int:
    """What a long nardy game entered on a match's scoresheet is worth: oin 1, mars 2, a resignation the oin
    (1) or mars (2) given up. There is no cube, so a cube value other than 1 and the backgammon kinds (gammon,
    backgammon, a dropped double) are refused, with the reason, rather than scored as something else."""
    if cube != 1:
        raise NardyError(
            "nardy_no_cube", f"long nardy is played without a cube: a game cannot be worth {cube} times", field="cube",
            cube=cube,
        )  # fmt: skip
    if kind == "resign":
        if resign_level not in (1, 2):
            raise NardyError(
                "nardy_bad_resignation", "a resignation in long nardy gives up oin (1) or mars (2)",
                field="resign_level",
            )  # fmt: skip
        return resign_level
    if kind not in POINTS:
        raise NardyError(
            "nardy_no_such_result", f"a long nardy game ends in oin or mars, not '{kind}'", field="kind", kind=kind
        )
    return POINTS[NardyResult(kind)]


def check_final_score(*, length: int, winner_score: int) -> None:
    """The winner of a long nardy match to `length` ends at most one point past it: the last game (oin 1 or
    mars 2) started below the length."""
    if winner_score > length + 1:
        raise NardyError(
            "nardy_final_score",
            f"a long nardy match to {length} ends at {length} or {length + 1} for the winner, not {winner_score}: "
            "the last game is worth 1 or 2",
            field="scores", length=length, most=length + 1, score=winner_score,
        )  # fmt: skip
