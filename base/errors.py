"""The one error every pure core raises (no Django import: the cores subclass it).

Why one class: API clients, web views and tests read a refusal the same way whichever app refused. A refusal
carries a stable `code` (clients and the per-app message tables key on it, it never changes once published), the
core's English `message` (logs, the pure tests, the fallback when no translation exists), the input `field` it is
about (None when it is about the state of things, not one input) and the `params` a translated message is
formatted with.

Whether a code is bad input (400) or a state that does not allow the request now (409) is a fact of the rule, so
each core says it once, in its class's `conflicts`; the exception handler in `base.api` reads it.
"""

from __future__ import annotations

from typing import ClassVar

__all__ = ["DomainError"]


class DomainError(ValueError):
    """A rule refused. Subclass it once per core; list the codes that describe state in `conflicts`."""

    #: Codes of this class that describe the state of things (answered 409 Conflict) rather than bad input (400).
    conflicts: ClassVar[frozenset[str]] = frozenset()

    def __init__(self, code: str, message: str, field: str | None = None, **params: object) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.field = field
        self.params = params

    @property
    def is_conflict(self) -> bool:
        return self.code in self.conflicts

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code!r}, {self.message!r}, field={self.field!r})"
