"""How a game ended: single, gammon or backgammon (docs/games.md, Scoring and the cube)."""

from __future__ import annotations

from backgammon.board import Board
from backgammon.scoring import GameKind, ScoringError


def game_kind(board: Board, winner: int) -> GameKind:
    """Single when the loser has borne off a checker; else gammon, or backgammon when the loser still has a
    checker on the bar or in the winner's home board (the loser's points 19–24). The winner must be off."""
    if winner not in (0, 1):
        raise ScoringError("bad_winner", "The winner is side 0 or side 1.")
    if board.off(winner) != board.total:
        raise ScoringError(
            "game_not_over",
            f"Side {winner} has {board.total - board.off(winner)} checkers left: the game is not over.",
            side=winner,
            left=board.total - board.off(winner),
        )
    loser = 1 - winner
    if board.off(loser):
        return GameKind.SINGLE
    if any(board.checkers[loser][18:25]):
        return GameKind.BACKGAMMON
    return GameKind.GAMMON
