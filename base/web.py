"""Pieces the apps' web views share: a refusal reads on a page as it reads in the API (translated, by code)."""

from collections.abc import Callable

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.db import DatabaseError
from django.http import Http404
from django.utils.translation import gettext as _

from base import api, idempotency
from base.errors import DomainError, Invalid
from base.locks import BUSY_MESSAGE, is_busy

#: The statuses a page answers with its own page (403.html, 404.html) rather than as a message on the form.
PAGE_STATUSES = frozenset({403, 404})


def refusal_text(exc: Exception) -> str:
    """The translated text of any refusal: a DomainError (a core's or a service's; an Invalid about several
    fields says every field's message), or a view's or form's own ValidationError."""
    if isinstance(exc, Invalid) and exc.errors:
        return " ".join(exc.messages)
    if isinstance(exc, DomainError):
        return api.refusal_text(exc)
    if isinstance(exc, ValidationError):
        return " ".join(exc.messages)
    return str(exc)


def attempt(request, action: Callable[[], object], success: str | Callable[[object], str]) -> bool:
    """Run a service call; show its refusal as a message (a NotAllowed or NotFound still answers 403 or 404, by
    base.middleware.RefusalPageMiddleware), and so a row lock waited on too long (base.locks). `success` is the
    message, or makes it from what the call returned. A refusal marks the request `idempotency_refused`: its
    redirect is then no answer to keep for a retry (base.idempotency)."""
    try:
        result = action()
    except (ValidationError, DomainError) as exc:
        if isinstance(exc, DomainError) and exc.status_code in PAGE_STATUSES:
            raise
        idempotency.refused(request)
        messages.error(request, refusal_text(exc))
        return False
    except DatabaseError as exc:
        if not is_busy(exc):
            raise
        idempotency.refused(request)
        messages.error(request, str(BUSY_MESSAGE))
        return False
    messages.success(request, success(result) if callable(success) else success)
    return True


def settle_up_step(request, step: str, *, paid: Callable, received: Callable, **arguments) -> None:
    """A settle-up page's button (base.settle_up; chouette transfers, Calcutta owners): the service `paid` when
    the payer marks it paid, `received` when the payee confirms it arrived, each called with `arguments`; 404 for
    any other step."""
    steps = {"paid": (paid, _("Marked paid.")), "received": (received, _("Confirmed received."))}
    if step not in steps:
        raise Http404(_("No such step."))
    service, message = steps[step]
    attempt(request, lambda: service(**arguments), message)
