"""The one refusal every layer raises (no Django import: the pure cores and the services both subclass it).

Why one type: API clients, web views and tests read a refusal the same way whichever app or layer refused, and
each edge (the API's exception handler in `base.api`, `base.web.attempt` and the page middleware) translates one
type. A refusal carries a stable `code` (clients and the per-app message tables key on it, it never changes once
published), its `message` (a core's English words, or a service's lazily translated text; the fallback when no
translation is registered for the code), the input `field` it is about (None when it is about the state of
things, not one input) and the `params` a translated message is formatted with.

A pure core subclasses DomainError once and says which of its codes describe the state of things (409) rather
than bad input (400), in its class's `conflicts`. A service raises one of the four kinds below, each answering one
status whatever its code: Conflict (409, the state does not allow it now), NotAllowed (403), NotFound (404) and
Invalid (400, naming the `field`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

__all__ = ["Conflict", "DomainError", "Invalid", "NotAllowed", "NotFound", "Refusal"]


class DomainError(ValueError):
    """A rule refused. Subclass it once per core; list the codes that describe state in `conflicts`."""

    #: Codes of this class that describe the state of things (answered 409 Conflict) rather than bad input (400).
    conflicts: ClassVar[frozenset[str]] = frozenset()
    #: The status every refusal of this class answers, whatever its code; None: 409 for `conflicts`, else 400.
    status: ClassVar[int | None] = None

    def __init__(self, code: str, message: str, field: str | None = None, **params: object) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.field = field
        self.params = params

    @property
    def status_code(self) -> int:
        """The HTTP status the edges answer this refusal with."""
        if self.status is not None:
            return self.status
        return 409 if self.code in self.conflicts else 400

    @property
    def is_conflict(self) -> bool:
        return self.status_code == 409

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code!r}, {self.message!r}, field={self.field!r})"


class Refusal(DomainError):
    """A service's refusal, written message first as services write it: `Conflict(_("…"), code="draw_confirmed")`.

    The message is usually a lazily translated text, so it reads in the request's language with no table; a code
    registered in `base.messages` wins over it. Keyword arguments beyond these are `extra`: what a client answers
    by confirming (`Conflict(…, code="no_shows_need_confirmation", no_shows=[…])`), repeated in the error body
    beside `code` and `detail` (each such key declared once in base.api.ERROR_COMPONENTS). `detail` and
    `get_codes()` are the names DRF's exceptions give the text and the code, so code written against either reads
    both.
    """

    status: ClassVar[int | None] = 400
    default_code: ClassVar[str] = "invalid"
    default_message: ClassVar[str] = "This request was refused."

    def __init__(
        self,
        message: str | None = None,
        code: str | None = None,
        field: str | None = None,
        *,
        params: Mapping[str, object] | None = None,
        **extra: object,
    ) -> None:
        super().__init__(code or self.default_code, message or self.default_message, field, **dict(params or {}))
        self.extra = extra

    @property
    def detail(self) -> str:
        return str(self.message)

    def get_codes(self) -> str:
        return self.code

    def __str__(self) -> str:
        return str(self.message)


class Conflict(Refusal):
    """The request is valid but the object is in a state that does not allow it now (409)."""

    status = 409
    default_code = "conflict"
    default_message = "The object is not in a state that allows this."


class NotAllowed(Refusal):
    """The caller may not do this (403): not signed in, not the player concerned, not the director."""

    status = 403
    default_code = "permission_denied"
    default_message = "You do not have permission to perform this action."


class NotFound(Refusal):
    """There is no such object, or the caller may not know of it (404)."""

    status = 404
    default_code = "not_found"
    default_message = "Not found."


class Invalid(Refusal):
    """Bad input (400): the `message` is about `field` (None: the input as a whole).

    A refusal about several fields at once gives all of them in `errors` ({field: [messages]}; `field` is the
    first of them); `message_dict` is every field's messages, under the name Django's ValidationError gives them.
    """

    status = 400
    default_code = "invalid"
    default_message = "This input is not valid."
    #: The field name of a message about the input as a whole.
    WHOLE = "non_field_errors"

    def __init__(
        self,
        message: str | None = None,
        code: str | None = None,
        field: str | None = None,
        *,
        errors: Mapping[str, list[object]] | None = None,
        params: Mapping[str, object] | None = None,
        **extra: object,
    ) -> None:
        self.errors = dict(errors) if errors else None
        super().__init__(message, code, field or next(iter(self.errors or ()), None), params=params, **extra)

    @property
    def messages(self) -> list[str]:
        """Every message, field after field (Django's name for them, too)."""
        return [text for texts in self.message_dict.values() for text in texts]

    @property
    def error_dict(self) -> dict[str, list[Invalid]]:
        """This refusal under each field it names (Django's name: a caller reads `.code` of a field's refusal)."""
        return {name: [self] for name in (self.errors or [self.field or self.WHOLE])}

    @property
    def message_dict(self) -> dict[str, list[str]]:
        if self.errors:
            return {name: [str(text) for text in texts] for name, texts in self.errors.items()}
        return {self.field or self.WHOLE: [str(self.message)]}
