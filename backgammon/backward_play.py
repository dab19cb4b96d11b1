"""Seeded random matches of backgammon with backward hitting, or of standard backgammon, as the `.mat` record a
scorer would write.

Why: the tests round-trip self-played matches of the variant through the record writer, reader and verifier,
and docs/variants.md shows one; a seed makes every run see the same games. The verify benchmark replays 440
standard ones (rule None) beside a yardstick built on gnubg-nn. There is no cube (a random cube adds nothing the
standard verifier's tests do not already cover), so each game is worth 1, 2 or 3 points.
"""

from __future__ import annotations

import random

from backgammon.board import Board
from backgammon.matchfiles.mat import BACKWARD_HEADER, BACKWARD_VARIATION, Action, ActionKind, MatchRecord, RecordedGame
from backgammon.moves import Step, format_steps, legal_plays
from backgammon.outcome import game_kind
from backgammon.scoring import game_points
from backgammon.variants import BackwardHitting, Variant, starting_board

MAX_TURNS = 1000  # a random game ends in about 60 turns; a game this long means the generator loops


def _written(board: Board, side: int, steps: tuple[Step, ...]) -> str:
    """The play as a scorer writes it, each hit marked with `*` (`8/12* 12/6`): a step hits when it lands on a
    lone opposing checker that no earlier step of the play has hit."""
    opponent = board.checkers[1 - side]
    blots = {point for point in range(1, 25) if opponent[24 - point] == 1}  # in the mover's numbering
    tokens = []
    for step in steps:
        hit = step[1] in blots
        blots.discard(step[1])
        tokens.append(format_steps([step]) + ("*" if hit else ""))
    return " ".join(tokens)


def random_game(rng: random.Random, rule: BackwardHitting | None) -> tuple[tuple[Action, ...], int, int]:
    """(actions numbered as a record numbers them, winner, points) of one game by random legal plays (standard
    backgammon when `rule` is None). The opening roll is one die each, so never a double; the higher die moves
    first with both."""
    board = starting_board(Variant.STANDARD if rule is None else Variant.BACKWARD)
    first, second = rng.sample(range(1, 7), 2)
    player = int(first < second)  # player 0 rolled `first`
    dice = (max(first, second), min(first, second))
    actions: list[Action] = []
    number = 1
    for _turn in range(MAX_TURNS):
        plays = legal_plays(board, player, dice, backward=rule)
        # Uniform random play hits backwards so often that a game lasts over a thousand turns; the better of
        # two random plays by the mover's pip count still hits backwards now and then but ends in about 150.
        play = min(rng.choice(plays), rng.choice(plays), key=lambda chosen: chosen.result.pip_count(player))
        move = _written(board, player, play.steps) or "Cannot Move"
        actions.append(Action(player, ActionKind.ROLL, move_number=number, dice=dice, move=move))
        number += player  # the right column closes a numbered line
        board = play.result
        if board.off(player) == board.total:
            points = game_points(kind=game_kind(board, player), cube=1)
            number += 1 - player
            actions.append(Action(player, ActionKind.WIN, move_number=number, value=points))
            return tuple(actions), player, points
        player = 1 - player
        dice = (rng.randint(1, 6), rng.randint(1, 6))
    raise RuntimeError(f"random play did not finish a game in {MAX_TURNS} turns")


def random_match(
    *,
    seed: int,
    length: int = 1,
    players: tuple[str, str] = ("White", "Black"),
    rule: BackwardHitting | None = BackwardHitting.ANY_DIE,
) -> MatchRecord:
    """A whole match to `length` points of the variant under `rule`, with the headers that name it (standard
    backgammon, with no headers, when `rule` is None)."""
    rng = random.Random(seed)
    scores = [0, 0]
    games: list[RecordedGame] = []
    while max(scores) < length:
        actions, winner, points = random_game(rng, rule)
        before = (scores[0], scores[1])
        scores[winner] += points
        if max(scores) >= length:
            win = actions[-1]
            actions = (*actions[:-1], Action(win.player, ActionKind.WIN, win.move_number, value=points, match_won=True))
        games.append(RecordedGame(len(games) + 1, before, actions))
    headers = () if rule is None else (("Variation", BACKWARD_VARIATION), (BACKWARD_HEADER, str(rule)))
    return MatchRecord(length=length, players=players, games=tuple(games), headers=headers)
