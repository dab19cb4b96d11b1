"""Pieces the apps' web views share."""

from collections.abc import Callable

from django.contrib import messages
from django.core.exceptions import ValidationError

from core.api import Conflict


def attempt(request, action: Callable[[], object], success: str) -> bool:
    """Run a service call; show its refusal as a message (a PermissionDenied still answers 403)."""
    try:
        action()
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
        return False
    except Conflict as exc:
        messages.error(request, str(exc.detail))
        return False
    messages.success(request, success)
    return True
