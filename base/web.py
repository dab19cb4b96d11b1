"""Pieces the apps' web views share."""

from collections.abc import Callable

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.db import DatabaseError

from base.api import Conflict
from base.locks import BUSY_MESSAGE, is_busy


def attempt(request, action: Callable[[], object], success: str | Callable[[object], str]) -> bool:
    """Run a service call; show its refusal as a message (a PermissionDenied still answers 403), and so a row
    lock waited on too long (base.locks). `success` is the message, or makes it from what the call returned."""
    try:
        result = action()
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
        return False
    except Conflict as exc:
        messages.error(request, str(exc.detail))
        return False
    except DatabaseError as exc:
        if not is_busy(exc):
            raise
        messages.error(request, str(BUSY_MESSAGE))
        return False
    messages.success(request, success(result) if callable(success) else success)
    return True
