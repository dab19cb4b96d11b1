"""The one error the long nardy core raises, so the API and the pages read its refusals like every other core's."""

from __future__ import annotations

from base.errors import DomainError


class NardyError(DomainError):
    """A long nardy rule or record refused: `code` is stable (invalid_board, invalid_dice, format, ...)."""


class NardyRecordError(NardyError):
    """A text that is no long nardy record; `line` is the 1-based line the reader stopped at (0: the whole file)."""

    def __init__(self, message: str, *, line: int = 0) -> None:
        super().__init__("format", message, line=line)
        self.line = line
