"""Team matches (a nations cup): the boards two teams play and the team result from the boards' results.

Why a pure core: when a team match is decided changes who moves on in the bracket, so the rule (decided as soon
as one team has won more than half the boards; a tie of an even number of boards broken by the points scored,
then by board 1) is checked here by properties over every possible sequence of board results, and the adapter
(tournaments.services.teams) only reads the board matches and stores the winner.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

#: How a team match was decided.
BOARDS, POINTS, FIRST_BOARD = "boards", "points", "first_board"


@dataclass(frozen=True)
class Board:
    """One board's result: `winner` 0 (team A's player), 1 (team B's) or None while it is being played, and the
    match points each player scored (0 while open)."""

    winner: int | None
    points_a: int = 0
    points_b: int = 0


@dataclass(frozen=True)
class TeamResult:
    """The team match as far as it is known: the winning side (None while open), how it was decided, and the
    boards each team has won (the pairing's score in a round format)."""

    winner: int | None
    decided_by: str | None
    boards_a: int
    boards_b: int


def lineup(a: Sequence, b: Sequence) -> list[tuple[int, object, object]]:
    """Board k (1-based) is played by the k-th player of each team's lineup. Both lineups have one player per
    board."""
    if len(a) != len(b) or not a:
        raise ValueError("both teams field one player per board")
    return [(k, pa, pb) for k, (pa, pb) in enumerate(zip(a, b, strict=True), start=1)]


def team_result(boards: Sequence[Board]) -> TeamResult:
    """Decided as soon as one team has won more than half the boards (the boards still being played cannot
    change it). With every board played and the boards even, the team that scored more match points wins, and
    with those equal too the winner of board 1 (the top board) does: a team match always ends with a winner."""
    count = len(boards)
    a = sum(1 for b in boards if b.winner == 0)
    b = sum(1 for b in boards if b.winner == 1)
    if 2 * a > count:
        return TeamResult(0, BOARDS, a, b)
    if 2 * b > count:
        return TeamResult(1, BOARDS, a, b)
    if any(board.winner is None for board in boards) or not boards:
        return TeamResult(None, None, a, b)
    points_a = sum(board.points_a for board in boards)
    points_b = sum(board.points_b for board in boards)
    if points_a != points_b:
        return TeamResult(0 if points_a > points_b else 1, POINTS, a, b)
    return TeamResult(boards[0].winner, FIRST_BOARD, a, b)
