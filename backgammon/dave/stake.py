"""The stake of a game of short backgammon with Dave, as a state machine (docs/variants.md).

Why a machine of its own: the Dave replaces the cube, and its rules differ from the cube's in the places that
matter for verification and for the ledger. The stakes follow a progression agreed before play, geometric
(1, 2, 4, 8 …) or arithmetic (1, 2, 3, 4 …); a player offers a Dave before their own roll; at first either
player may offer, after an accepted Dave only the player who accepted may offer the next; the opponent accepts
(the stake becomes the offered one) or gives up, paying the stake before the offered raise; a game played out is
worth the stake whatever the position (no gammon or backgammon in this form).

Every method returns a new state or raises DaveError with a stable code; the state never changes in place.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum

from backgammon.dave.errors import DaveError


class Progression(StrEnum):
    """The stakes agreed before play: stake(0) = 1 is the unit, each accepted Dave moves one step on."""

    GEOMETRIC = "geometric"  # 1, 2, 4, 8 …
    ARITHMETIC = "arithmetic"  # 1, 2, 3, 4 …

    def stake(self, level: int) -> int:
        """The stake after `level` accepted Daves."""
        if level < 0:
            raise DaveError("invalid_settings", f"a stake level is 0 or more, got {level}")
        return 2**level if self is Progression.GEOMETRIC else level + 1

    def level_of(self, stake: int) -> int | None:
        """The level whose stake is `stake`, None when the progression never reaches it."""
        if stake < 1:
            return None
        if self is Progression.ARITHMETIC:
            return stake - 1
        return stake.bit_length() - 1 if stake & (stake - 1) == 0 else None

    @classmethod
    def named(cls, name: str) -> Progression:
        """The progression a record header or a form names; DaveError invalid_settings for any other word."""
        try:
            return cls(name.strip().lower())
        except ValueError:
            choices = " or ".join(f'"{member.value}"' for member in cls)
            raise DaveError("invalid_settings", f"progression '{name}': write {choices}", field="progression") from None


@dataclass(frozen=True)
class StakeState:
    """One game's stake. `holder`: who may offer the next Dave (None: either, as at the start); `turn`: whose
    roll comes next (None before the opening roll, when nobody may offer); `offered_by`: the player whose Dave
    awaits its answer; `winner`/`points`: set once the game is over."""

    progression: Progression = Progression.GEOMETRIC
    level: int = 0
    holder: int | None = None
    turn: int | None = None
    offered_by: int | None = None
    winner: int | None = None
    points: int | None = None

    @property
    def stake(self) -> int:
        """What the game is worth now: a won game, a resignation and a give-up all pay this."""
        return self.progression.stake(self.level)

    @property
    def next_stake(self) -> int:
        """The stake the next Dave offers."""
        return self.progression.stake(self.level + 1)

    @property
    def is_over(self) -> bool:
        return self.winner is not None

    def refusal(self, player: int) -> DaveError | None:
        """Why `player` may not offer a Dave now (None: they may). The order: the game, a pending Dave, the turn,
        the right to offer — the first that refuses names the code."""
        if self.is_over:
            return DaveError("game_over", "the game is over")
        if self.offered_by is not None:
            return self._unanswered()
        if self.turn is None:
            return DaveError("dave_after_roll", "no Dave before the opening roll: a Dave comes before one's own roll")
        if self.turn != player:
            return DaveError("dave_after_roll", "a Dave is offered before one's own roll, not after it")
        if self.holder is not None and self.holder != player:
            return DaveError(
                "dave_not_yours", f"side {self.holder} accepted the last Dave, so only they may offer the next"
            )
        return None

    def may_offer(self, player: int) -> bool:
        return self.refusal(player) is None

    def offer(self, player: int) -> StakeState:
        """`player` offers a Dave (the next stake) before their roll."""
        refusal = self.refusal(player)
        if refusal is not None:
            raise refusal
        return replace(self, offered_by=player)

    def _answering(self, player: int) -> int:
        self._check_not_over()
        if self.offered_by is None or self.offered_by == player:
            raise DaveError("dave_not_offered", f"side {player} has no Dave to answer")
        return self.offered_by

    def accept(self, player: int) -> StakeState:
        """The opponent plays on at the next stake and becomes the only one who may offer the next Dave."""
        self._answering(player)
        return replace(self, level=self.level + 1, holder=player, offered_by=None)

    def give_up(self, player: int) -> StakeState:
        """The opponent gives the game up: the offerer wins the stake before the offered raise."""
        offerer = self._answering(player)
        return replace(self, offered_by=None, winner=offerer, points=self.stake)

    def roll(self, player: int) -> StakeState:
        """`player` rolls and plays; the turn passes. The opening roll may fall to either player."""
        self._check_not_over()
        self._check_answered()
        if self.turn is not None and self.turn != player:
            raise DaveError("out_of_turn", f"side {player} rolled in side {self.turn}'s turn")
        return replace(self, turn=1 - player)

    def win(self, player: int) -> StakeState:
        """`player` has borne off all checkers: the game is worth the stake (no gammon, no backgammon)."""
        self._check_not_over()
        self._check_answered()
        return replace(self, winner=player, points=self.stake)

    def resign(self, player: int) -> StakeState:
        """`player` gives the game up without a Dave (or leaves a pending raise unanswered): the opponent wins the
        current stake, never a raise nobody accepted."""
        self._check_not_over()
        return replace(self, offered_by=None, winner=1 - player, points=self.stake)

    def _check_not_over(self) -> None:
        if self.is_over:
            raise DaveError("game_over", f"the game is over: side {self.winner} won {self.points}")

    def _check_answered(self) -> None:
        if self.offered_by is not None:
            raise self._unanswered()

    def _unanswered(self) -> DaveError:
        return DaveError("dave_unanswered", f"side {self.offered_by}'s Dave to {self.next_stake} awaits its answer")
