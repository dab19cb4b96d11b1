"""The one error type of the Calcutta core."""

from __future__ import annotations


class CalcuttaError(ValueError):
    """Something the Calcutta rules refuse. `code` is stable for programs, the message is for people.

    `field` names the input at fault when there is one, so an adapter can answer {field: [message]}.
    """

    def __init__(self, code: str, message: str, *, field: str | None = None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.field = field
