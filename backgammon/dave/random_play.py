"""Seeded random Dave games and sessions: standard backgammon by random legal plays, with random Daves.

Why: the tests round-trip self-played sessions through the record writer, reader and verifier, and
docs/variants.md shows one; a seed makes every run see the same games.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from backgammon.dave.errors import DaveError
from backgammon.dave.record import DaveAction, DaveGame, DaveRecord, Kind, numbered
from backgammon.dave.stake import Progression, StakeState
from backgammon.moves import format_steps, legal_plays
from backgammon.variants import Variant, starting_board

MAX_TURNS = 1000  # a random game ends in about 60 turns; a game this long means the generator loops


@dataclass(frozen=True)
class Chances:
    """How often the random player offers a Dave when allowed, and accepts one; it offers no stake above
    `max_stake` (without a cap, eager random play reaches stakes no record holds)."""

    offer: float = 0.05
    accept: float = 0.75
    max_stake: int = 2**20


def random_game(rng: random.Random, progression: Progression, chances: Chances = Chances()) -> tuple[
        tuple[DaveAction, ...], StakeState]:
    """One game (actions without move numbers, and the final stake state). The opening roll is one die each,
    so never a double; the higher die moves first with both."""
    board = starting_board(Variant.STANDARD)
    state = StakeState(progression)
    actions: list[DaveAction] = []
    first, second = rng.sample(range(1, 7), 2)
    player = int(first < second)  # player 0 rolled `first`
    dice = (max(first, second), min(first, second))
    for _turn in range(MAX_TURNS):
        if state.may_offer(player) and state.next_stake <= chances.max_stake and rng.random() < chances.offer:
            actions.append(DaveAction(player, 0, Kind.DAVE, value=state.next_stake))
            state = state.offer(player)
            if rng.random() >= chances.accept:
                actions.append(DaveAction(1 - player, 0, Kind.GIVE_UP))
                state = state.give_up(1 - player)
                break
            actions.append(DaveAction(1 - player, 0, Kind.ACCEPT))
            state = state.accept(1 - player)
        state = state.roll(player)
        play = rng.choice(legal_plays(board, player, dice))
        actions.append(DaveAction(player, 0, Kind.ROLL, dice=dice, move=format_steps(play.steps) or "Cannot Move"))
        board = play.result
        if board.off(player) == board.total:
            state = state.win(player)
            break
        player = 1 - player
        dice = (rng.randint(1, 6), rng.randint(1, 6))
    else:
        raise DaveError("game_unfinished", f"random play did not finish a game in {MAX_TURNS} turns")
    assert state.winner is not None
    actions.append(DaveAction(state.winner, 0, Kind.WIN, value=state.points))
    return tuple(actions), state


def random_session(
    *,
    seed: int,
    games: int = 3,
    length: int = 0,
    players: tuple[str, str] = ("White", "Black"),
    progression: Progression = Progression.GEOMETRIC,
    chances: Chances = Chances(),
) -> DaveRecord:
    """`games` games of a money session (length 0), or a whole match to `length` points, as the record a scorer
    would write."""
    rng = random.Random(seed)
    scores = [0, 0]
    played: list[DaveGame] = []
    while (max(scores) < length) if length else (len(played) < games):
        actions, state = random_game(rng, progression, chances)
        assert state.winner is not None and state.points is not None
        before = (scores[0], scores[1])
        scores[state.winner] += state.points
        if length and max(scores) >= length:
            win = actions[-1]
            actions = (*actions[:-1], DaveAction(win.player, 0, Kind.WIN, value=win.value, match_won=True))
        played.append(DaveGame(len(played) + 1, before, numbered(actions)))
    return DaveRecord(length=length, players=players, games=tuple(played), progression=progression)
