"""What a game is worth, and how a match score moves: Crawford, post-Crawford and the end of a match.

docs/games.md (Scoring and the cube, Match play): a win scores 1, a gammon 2, a backgammon 3, times the cube;
a drop pays the cube value before the double; a resignation pays the cube times the level resigned (1, 2 or
3). The first time a player reaches length − 1, the next game is the Crawford game (no doubling at all); later
games are post-Crawford.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum

from base.errors import DomainError


class GameKind(StrEnum):
    SINGLE = "single"
    GAMMON = "gammon"
    BACKGAMMON = "backgammon"
    DROP = "drop"
    RESIGN = "resign"


KIND_MULTIPLIER = {GameKind.SINGLE: 1, GameKind.GAMMON: 2, GameKind.BACKGAMMON: 3}


class ScoringError(DomainError):
    """A result, cube or score the rules do not allow. `code` is stable for programs, the message is for people;
    `params` hold the numbers in the message, for a translated text. A score, cube or game that breaks the rules
    is bad input (400); nothing here depends on stored state."""


def is_cube_value(value: int) -> bool:
    return isinstance(value, int) and value >= 1 and value & (value - 1) == 0


def game_points(
    *,
    kind: GameKind | str,
    cube: int,
    resign_level: int | None = None,
    jacoby: bool = False,
    turned: bool = False,
) -> int:
    """Points a game is worth to its winner: the one place that knows single/gammon/backgammon values, drops,
    resignations and the Jacoby rule (verification, match scoresheets and chouette all ask it).

    `cube` is the cube value at the end of the game; for a drop, the value before the refused double.
    `jacoby` (money play only): gammons and backgammons count as singles unless the cube was `turned` — someone
    offered a double and it was taken. A cube raised only by automatic doubles (Murphy) was not turned, so
    its value does not say whether the rule applies.
    """
    kind = GameKind(kind)
    if not is_cube_value(cube):
        raise ScoringError("bad_cube", f"A cube shows 1, 2, 4, 8, … — not {cube}.", cube=cube)
    if kind == GameKind.DROP:
        return cube
    singles_only = jacoby and not turned
    if kind == GameKind.RESIGN:
        if resign_level not in (1, 2, 3):
            raise ScoringError(
                "bad_resignation", "A resignation gives up a single (1), a gammon (2) or a backgammon (3)."
            )
        return cube * (1 if singles_only else resign_level)
    return cube * (1 if singles_only else KIND_MULTIPLIER[kind])


def cube_in_play(*, crawford_game: bool) -> bool:
    """The Crawford rule: in the Crawford game the cube is out of play — no double by either side, so the cube
    stays at 1. Every check of a double or of a game's cube (the cube core, the record verifier, the match
    scoresheet through MatchState.cube_allowed) asks this."""
    return not crawford_game


def possible_points(*, cube: int) -> tuple[int, ...]:
    """Every amount a game can be worth with this final cube (for checking a written `Wins n`)."""
    return (cube, 2 * cube, 3 * cube)


@dataclass(frozen=True)
class MatchState:
    """The score of a match before its next game, from the point of view of both players (index 0 and 1).

    A money session is not a match: length must be at least 1.
    """

    length: int
    scores: tuple[int, int] = (0, 0)
    crawford_rule: bool = True
    holland_rule: bool = False
    crawford_game: bool = False  # the next game is the Crawford game
    crawford_done: bool = False  # the Crawford game has been played: later games are post-Crawford
    games_played: int = 0

    def __post_init__(self) -> None:
        if self.length < 1:
            raise ScoringError("bad_length", "A match is played to at least 1 point.")
        if min(self.scores) < 0:
            raise ScoringError("bad_score", "A score cannot be negative.")

    @classmethod
    def at_score(
        cls,
        *,
        length: int,
        scores: tuple[int, int],
        crawford_rule: bool = True,
        crawford_played: bool | None = None,
        holland_rule: bool = False,
    ) -> MatchState:
        """The state at a score read from a record or typed by a director.

        Whether the Crawford game is next follows from the score unless `crawford_played` says it is over
        (when someone stands at length − 1, the Crawford game is next unless it has been played already).
        """
        state = cls(
            length=length, scores=(scores[0], scores[1]), crawford_rule=crawford_rule, holland_rule=holland_rule
        )
        at_match_point = crawford_rule and length > 1 and (length - 1) in scores and max(scores) < length
        if at_match_point:
            done = bool(crawford_played)
            return replace(state, crawford_game=not done, crawford_done=done)
        return state

    @property
    def is_over(self) -> bool:
        return max(self.scores) >= self.length

    @property
    def winner(self) -> int | None:
        if not self.is_over:
            return None
        return 0 if self.scores[0] >= self.length else 1

    @property
    def post_crawford(self) -> bool:
        return self.crawford_done and not self.is_over

    @property
    def cube_allowed(self) -> bool:
        """No doubling at all in the Crawford game."""
        return cube_in_play(crawford_game=self.crawford_game)

    def away(self, player: int) -> int:
        return max(0, self.length - self.scores[player])

    def after_game(self, *, winner: int, points: int) -> MatchState:
        """The state after `winner` scored `points`; refuses games after the match is decided."""
        if winner not in (0, 1):
            raise ScoringError("bad_winner", "The winner is player 0 or player 1.")
        if self.is_over:
            raise ScoringError(
                "play_after_match_end",
                f"The match was already decided at {self.scores[0]}–{self.scores[1]}: no further game can count.",
                a=self.scores[0],
                b=self.scores[1],
            )
        if points < 1:
            raise ScoringError("wrong_points", "A game is worth at least 1 point.")
        scores = list(self.scores)
        scores[winner] += points
        was_crawford = self.crawford_game
        crawford_game = False
        crawford_done = self.crawford_done or was_crawford
        if (
            self.crawford_rule
            and not crawford_done
            and self.length > 1
            and max(scores) < self.length
            and (self.length - 1) in scores
        ):
            crawford_game = True
        return replace(
            self,
            scores=(scores[0], scores[1]),
            crawford_game=crawford_game,
            crawford_done=crawford_done,
            games_played=self.games_played + 1,
        )


def is_game_value(points: int, *, cube_allowed: bool = True) -> bool:
    """Can one game be worth `points`? 1, 2 or 3 times a cube of 1, 2, 4, …; without a cube (the Crawford game)
    only 1, 2 or 3. A drop or a resignation pays one of these amounts too."""
    return any(
        points % multiplier == 0 and is_cube_value(points // multiplier) and (cube_allowed or points == multiplier)
        for multiplier in KIND_MULTIPLIER.values()
    )


def game_values_between(low: int, high: int) -> list[int]:
    """The amounts a game can be worth from `low` to `high`, smallest first (a handful: they double)."""
    values = {m << k for m in KIND_MULTIPLIER.values() for k in range(max(high, 1).bit_length())}
    return sorted(v for v in values if low <= v <= high)


def _nearest_game_values(low: int, high: int) -> tuple[int, int]:
    """The largest game value below `low` and the smallest above `high` (low >= 2)."""
    below = game_values_between(1, low - 1)[-1]
    return below, game_values_between(high + 1, 2 * high + 2)[0]


def _oriented(winner: int, winner_score: int, loser_score: int) -> tuple[int, int]:
    return (winner_score, loser_score) if winner == 0 else (loser_score, winner_score)


def check_final_score(
    *, length: int, scores: tuple[int, int], start: tuple[int, int] = (0, 0), crawford_rule: bool = True
) -> int:
    """Refuse a final score no legal sequence of games reaches from `start`; returns the winning side.

    Why this is exact without enumerating games: scores only grow, and a game worth 1 is always legal, so every
    score below the length on both sides is reachable one point at a time. What can fail is the last game:
    the match ends the moment the winner reaches the length, so that game starts at (w, loser's final score)
    with the winner's w below the length, and it must be worth exactly the rest. A game is worth 1, 2 or 3 times
    the cube (is_game_value), and only 1, 2 or 3 when it is the Crawford game. It is the Crawford game only when
    no path to that score passes an earlier score with someone at length − 1: the first such score is followed by
    the Crawford game, so any later one is post-Crawford (MatchState.at_score knows the rest).
    """
    first = MatchState.at_score(length=length, scores=start, crawford_rule=crawford_rule)
    if first.is_over:
        raise ScoringError(
            "start_decided",
            f"A match that starts at {start[0]}–{start[1]} is decided before its first game.",
            a=start[0],
            b=start[1],
        )
    a, b = scores
    winner = final_score_winner(length=length, scores=scores, start=start)
    loser = 1 - winner
    final, lost = scores[winner], scores[loser]
    least, most = final - (length - 1), final - start[winner]
    crawford_blocked: tuple[tuple[int, int], int] | None = None
    for points in game_values_between(least, most):
        before = final - points
        # Did some path pass an earlier score with someone at length − 1? Then the Crawford game is behind us.
        crawford_played = (before == length - 1 and lost > start[loser]) or (
            lost == length - 1 and before > start[winner]
        )
        state = MatchState.at_score(
            length=length,
            scores=_oriented(winner, before, lost),
            crawford_rule=crawford_rule,
            crawford_played=crawford_played,
        )
        if is_game_value(points, cube_allowed=state.cube_allowed):
            return winner
        if crawford_blocked is None:
            crawford_blocked = (state.scores, points)
    if crawford_blocked is not None:
        (before_a, before_b), points = crawford_blocked
        raise ScoringError(
            "crawford_no_cube",
            f"{a}–{b} cannot be the final score of this {length}-point match: only a game worth {points} points "
            f"from {before_a}–{before_b} would end it there, but at {before_a}–{before_b} the next game is the "
            "Crawford game, played without the cube, so it is worth 1, 2 or 3 points. No other score before the "
            "last game works: a game is worth 1, 2 or 3 times the cube (1, 2, 4, 8, …).",
            a=a, b=b, length=length, before_a=before_a, before_b=before_b, points=points,
        )  # fmt: skip
    below, above = _nearest_game_values(least, most)
    raise ScoringError(
        "no_deciding_game",
        f"{a}–{b} cannot be the final score of this {length}-point match: before the last game the winner had "
        f"at least {start[winner]} and at most {length - 1} points, so that game would have been worth "
        f"{least} to {most} points. A game is worth 1, 2 or 3 times the cube (1, 2, 4, 8, …), so {below} or "
        f"{above} come closest. Check the score for a typo.",
        a=a, b=b, length=length, side=winner, low=start[winner], high=length - 1, least=least, most=most,
        below=below, above=above,
    )  # fmt: skip


def final_score_winner(*, length: int, scores: tuple[int, int], start: tuple[int, int] = (0, 0)) -> int:
    """The side a final score makes the winner, refusing what no match of `length` can end at whatever its games
    are worth: a negative score, both at the length, nobody at it, or the loser below where they started. Every
    variant's final score asks this first (check_final_score adds the backgammon values of the last game)."""
    a, b = scores
    if a < 0 or b < 0:
        raise ScoringError("bad_score", "A score cannot be negative.")
    if a >= length and b >= length:
        raise ScoringError(
            "loser_at_length",
            f"In a {length}-point match the loser can have at most {length - 1} points: the match ends as soon as "
            f"one player reaches {length}, so {a}–{b} cannot be a final score.",
            a=a, b=b, length=length, most=length - 1,
        )  # fmt: skip
    if a < length and b < length:
        raise ScoringError(
            "match_unfinished",
            f"{a}–{b} is not a final score of a {length}-point match: one player must reach {length}.",
            a=a, b=b, length=length,
        )  # fmt: skip
    winner = 0 if a >= length else 1
    loser = 1 - winner
    if scores[loser] < start[loser]:
        raise ScoringError(
            "below_start",
            f"{a}–{b} cannot be the final score: player {'AB'[loser]} starts this match with {start[loser]} points "
            "and a player never loses points.",
            a=a, b=b, side=loser, start=start[loser],
        )  # fmt: skip
    return winner
