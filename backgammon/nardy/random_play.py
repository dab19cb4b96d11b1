"""Seeded random legal play of long nardy: games, whole match records, and a sample of reachable positions.

Why: the tests round-trip self-played matches through the record writer, reader and verifier, and the
benchmark times the move generator on positions real play reaches; a seed makes every run see the same games.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

from backgammon.nardy.board import CHECKERS, NardyBoard
from backgammon.nardy.errors import NardyError
from backgammon.nardy.moves import Step, legal_plays
from backgammon.nardy.notation import format_steps
from backgammon.nardy.record import VARIATION, NardyAction, NardyGame, NardyRecord, settings_headers
from backgammon.nardy.scoring import POINTS, game_result
from backgammon.nardy.settings import DEFAULT_SETTINGS, NardySettings

MAX_TURNS = 1000  # a random game ends in about 120 turns; a game this long means the generator loops


@dataclass(frozen=True)
class Turn:
    player: int
    dice: tuple[int, int]
    steps: tuple[Step, ...]
    before: NardyBoard
    first_turn: bool


@dataclass(frozen=True)
class PlayedGame:
    turns: tuple[Turn, ...]
    winner: int
    points: int
    final: NardyBoard


def random_game(rng: random.Random, settings: NardySettings = DEFAULT_SETTINGS) -> PlayedGame:
    """One game of random legal plays; the starter is drawn (the one-die roll) and rolls both dice afresh."""
    board = NardyBoard.start()
    player = rng.randrange(2)
    played = [False, False]
    turns: list[Turn] = []
    while len(turns) < MAX_TURNS:
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        first_turn = not played[player]
        play = rng.choice(legal_plays(board, player, dice, first_turn=first_turn, settings=settings))
        turns.append(Turn(player, dice, play.steps, board, first_turn))
        played[player] = True
        board = play.result
        if board.off[player] == CHECKERS:
            return PlayedGame(tuple(turns), player, POINTS[game_result(board, player)], board)
        player = 1 - player
    raise NardyError("game_unfinished", f"random play did not finish a game in {MAX_TURNS} turns")


def random_match(
    *,
    seed: int,
    length: int,
    players: tuple[str, str] = ("White", "Black"),
    settings: NardySettings = DEFAULT_SETTINGS,
) -> NardyRecord:
    """A whole match to `length` points of random legal play, as the record a scorer would write."""
    rng = random.Random(seed)
    scores = [0, 0]
    games: list[NardyGame] = []
    while max(scores) < length:
        game = random_game(rng, settings)
        actions: list[NardyAction] = []
        move_number = 0
        for turn in game.turns:
            if turn.player == 0 or move_number == 0:
                move_number += 1
            actions.append(NardyAction(turn.player, move_number, dice=turn.dice, move=format_steps(turn.steps)))
        before = (scores[0], scores[1])
        scores[game.winner] += game.points
        move_number += 1  # the win goes on a line of its own, in the column of the winner (who moved last)
        actions.append(
            NardyAction(game.winner, move_number, points=game.points, match_won=max(scores) >= length)
        )
        games.append(NardyGame(len(games) + 1, before, tuple(actions)))
    headers = (("Variation", VARIATION), *settings_headers(settings))
    return NardyRecord(length=length, players=players, games=tuple(games), headers=headers)


def random_positions(
    *, seed: int, count: int, settings: NardySettings = DEFAULT_SETTINGS
) -> Iterator[tuple[NardyBoard, int, tuple[int, int], bool]]:
    """`count` tuples (board, side on roll, dice, first turn) met in seeded random games."""
    rng = random.Random(seed)
    produced = 0
    while produced < count:
        for turn in random_game(rng, settings).turns:
            if produced == count:
                return
            yield turn.before, turn.player, turn.dice, turn.first_turn
            produced += 1
