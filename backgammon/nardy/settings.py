"""The club settings for the places where the rule texts of long nardy leave room (docs/variants.md).

Why a settings object: the texts disagree on two points, and a verifier that silently picked one reading would
reject records of clubs that play the other. The defaults are the readings docs/variants.md gives; a record names
another choice in its headers.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from backgammon.nardy.errors import NardyError

CLASSIC_HEAD_DOUBLES = frozenset({3, 4, 6})
ANY_HEAD_DOUBLES = frozenset(range(1, 7))


class BlockRule(StrEnum):
    """When a block of six consecutive points is allowed."""

    AHEAD = "ahead"  # at least one opposing checker stands further along its route than the whole block
    OPPONENT_HOME = "opponent home"  # an opposing checker has reached its home (or borne off)


@dataclass(frozen=True)
class NardySettings:
    """head_doubles: the doubles that let two checkers leave the head on a side's own first turn (the classic
    texts: 66, 44, 33; one text: any double). block_rule: see BlockRule."""

    head_doubles: frozenset[int] = CLASSIC_HEAD_DOUBLES
    block_rule: BlockRule = BlockRule.AHEAD

    def __post_init__(self) -> None:
        if not self.head_doubles <= ANY_HEAD_DOUBLES:
            raise NardyError("invalid_settings", f"head doubles must be dice 1–6, got {sorted(self.head_doubles)}")

    def head_budget(self, dice: tuple[int, int], *, first_turn: bool) -> int:
        """How many checkers may leave the head this turn."""
        if first_turn and dice[0] == dice[1] and dice[0] in self.head_doubles:
            return 2
        return 1


DEFAULT_SETTINGS = NardySettings()
