"""Pieces the apps' web views share: a refusal reads on a page as it reads in the API (translated, by code)."""

from collections.abc import Callable

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.db import DatabaseError

from base.api import Conflict
from base.errors import DomainError
from base.locks import BUSY_MESSAGE, is_busy
from base.messages import translate


def refusal_text(exc: Exception) -> str:
    """The translated text of any refusal a service raises (a core error, a Conflict, a ValidationError)."""
    if isinstance(exc, DomainError):
        return translate(exc)
    if isinstance(exc, ValidationError):
        return " ".join(exc.messages)
    if isinstance(exc, Conflict):
        return str(exc.detail)
    return str(exc)


def attempt(request, action: Callable[[], object], success: str | Callable[[object], str]) -> bool:
    """Run a service call; show its refusal as a message (a PermissionDenied still answers 403), and so a row
    lock waited on too long (base.locks). `success` is the message, or makes it from what the call returned."""
    try:
        result = action()
    except (ValidationError, Conflict, DomainError) as exc:
        messages.error(request, refusal_text(exc))
        return False
    except DatabaseError as exc:
        if not is_busy(exc):
            raise
        messages.error(request, str(BUSY_MESSAGE))
        return False
    messages.success(request, success(result) if callable(success) else success)
    return True
