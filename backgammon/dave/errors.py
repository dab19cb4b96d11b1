"""The one error the Dave core raises, so the API and the pages read its refusals like every other core's."""

from __future__ import annotations

from typing import ClassVar

from base.errors import DomainError


class DaveError(DomainError):
    """A Dave rule or record refused; `code` is stable.

    Bad input (400): invalid_settings, wrong_stake, format. The state of the game refusing a request now (409):
    the codes in `conflicts`.
    """

    conflicts: ClassVar[frozenset[str]] = frozenset(
        {
            "dave_not_yours",  # the opponent accepted the last Dave: only they may offer the next
            "dave_after_roll",  # a Dave is offered before one's own roll, never after it or in the other's turn
            "dave_unanswered",  # a Dave awaits its answer: nothing else may happen first
            "dave_not_offered",  # an answer to a Dave nobody offered (or one's own)
            "out_of_turn",  # a roll by the player whose turn it is not
            "game_over",  # the game has been won or given up
        }
    )


class DaveRecordError(DaveError):
    """A text that is no Dave record; `line` is the 1-based line the reader stopped at (0: the whole file)."""

    def __init__(self, message: str, *, line: int = 0) -> None:
        super().__init__("format", message, line=line)
        self.line = line
