"""A dependency's fault (the database, the media disk, the broker) as a clear answer a client can retry: 503 or
507 with Retry-After, in the API's error body or a page of the site, never Django's HTML "Server Error (500)".

Why: measured from outside, a PostgreSQL restart gave 14 of 16 writes an HTML 500 even on /api/ (`OperationalError:
terminating connection due to administrator command`), a pool with every slot held answered 500 after 10 s, and a
full disk under MEDIA_ROOT 500 (`OSError: [Errno 28]`). None of these is the request's fault nor a bug; each passes,
and the client should try the same request again (with the same idempotency key, docs/api.md).

`classify(exc)` is the one place that recognises such a fault; `fault_response(request, fault)` the one answer.
They are hooked in at every edge an exception reaches: the API's exception handler (base.api), the pages'
middleware (base.middleware.DependencyFaultMiddleware) and Django's 500 handler (base.views.server_error), which
sees what a middleware raised before or after the view (a session read or saved while the database is down).

A row lock waited on too long is a database error too, but not this one: it stays 409 `busy` (base.locks.is_busy).
"""

from __future__ import annotations

import errno
import logging
from dataclasses import dataclass

from django.contrib.auth.models import AnonymousUser
from django.db import InterfaceError, OperationalError, connections
from django.http import HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.utils.functional import Promise
from django.utils.html import escape
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from kombu.exceptions import OperationalError as BrokerOperationalError
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from base.locks import is_busy

logger = logging.getLogger(__name__)

__all__ = ["DATABASE", "FULL_DISK", "BROKER", "Fault", "classify", "fault_body", "fault_response"]


@dataclass(frozen=True)
class Fault:
    """One kind of dependency fault: its stable `code`, HTTP status, the seconds a client should wait before
    trying again, and the translated words a person reads."""

    code: str
    status: int
    retry_after: int
    message: Promise
    #: Whether answering may touch the database: a page about the database being down must not ask it who the
    #: user is (the layout's header) and fail again.
    database_down: bool = False

    def caused(self, exc: BaseException) -> bool:
        raise NotImplementedError

    def recover(self) -> None:
        """What this process can do at once so that its next requests do not meet the fault again."""


class DatabaseFault(Fault):
    """The database cannot serve: unreachable, restarting, every pooled connection lent out (psycopg_pool's
    PoolTimeout, which Django raises as OperationalError), a connection that died under the request."""

    def caused(self, exc: BaseException) -> bool:
        return isinstance(exc, OperationalError | InterfaceError) and not is_busy(exc)

    def recover(self) -> None:
        """Check every idle pooled connection now. A restart kills them all; the pool checks one as it lends it,
        but waits a growing backoff (1 s, 2 s, ...) after each dead one, so the first request after a restart
        meets them one by one until its DATABASE_POOL_TIMEOUT. Checked here, the next requests get fresh ones."""
        for wrapper in connections.all(initialized_only=True):
            pool = getattr(wrapper, "pool", None)
            if pool is None:
                continue
            try:
                pool.check()
            except Exception as error:  # noqa: BLE001 - the database may still be down; the pool retries itself
                logger.info("the connection pool could not be checked (%s: %s)", type(error).__name__, error)


class FullDiskFault(Fault):
    """The disk (or the quota) a file is written to is full: 507 Insufficient Storage."""

    def caused(self, exc: BaseException) -> bool:
        return isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, errno.EDQUOT)


class BrokerFault(Fault):
    """The broker (Redis, through kombu) cannot be reached. base.queue already keeps a failed send from failing
    a stored write (the row stays due, the sweep sends it); this answers anything that still reaches the edge."""

    def caused(self, exc: BaseException) -> bool:
        return isinstance(exc, BrokerOperationalError | RedisConnectionError | RedisTimeoutError)


DATABASE = DatabaseFault(
    code="database_unavailable",
    status=503,
    retry_after=5,
    message=_("The database is not answering right now; nothing of this request was stored. Try again in a moment."),
    database_down=True,
)
FULL_DISK = FullDiskFault(
    code="storage_full",
    status=507,
    retry_after=60,
    message=_("There is no room left to store files right now; nothing of this request was stored. Try again later."),
)
BROKER = BrokerFault(
    code="broker_unavailable",
    status=503,
    retry_after=5,
    message=_("A background service is not answering right now. Try again in a moment."),
)
FAULTS: tuple[Fault, ...] = (DATABASE, FULL_DISK, BROKER)


def classify(exc: BaseException | None) -> Fault | None:
    """The dependency fault `exc` is (or was raised from), or None for anything else (a bug stays a 500)."""
    for _depth in range(5):  # the exception, or one it was raised from (`raise ... from error`)
        if exc is None:
            return None
        fault = next((fault for fault in FAULTS if fault.caused(exc)), None)
        if fault is not None:
            return fault
        exc = exc.__cause__
    return None


def note_fault(fault: Fault, exc: BaseException, request) -> None:
    """One line per answered request, naming the cause; no traceback: a storm of them would bury the log. Then
    the fault's `recover` (every edge that answers a fault calls this once)."""
    cause = exc.__cause__ or exc
    logger.warning(
        "%s %s answered %s %s: %s: %s",
        request.method,
        request.path,
        fault.status,
        fault.code,
        type(cause).__name__,
        str(cause).strip().splitlines()[0] if str(cause).strip() else "",
    )
    fault.recover()


def fault_body(fault: Fault) -> dict:
    """The API's error body (base.api.error_body's shape) with the seconds to wait, as a 429's has."""
    return {"code": fault.code, "detail": str(fault.message), "field": None, "retry_after": fault.retry_after}


def fault_response(request, fault: Fault, exc: BaseException | None = None) -> HttpResponse:
    """The answer to a fault: JSON under /api/, else the 503 page inside the site layout; Retry-After on both.
    Logged here, once; Django's own request log (which would add a traceback) is told it was."""
    if exc is not None:
        note_fault(fault, exc, request)
    if request.path.startswith("/api/"):
        response: HttpResponse = JsonResponse(fault_body(fault), status=fault.status)
    else:
        response = HttpResponse(_page(request, fault), status=fault.status)
    response["Retry-After"] = str(fault.retry_after)
    response._has_been_logged = True  # django.utils.log.log_response: logged above, without a traceback
    return response


def _page(request, fault: Fault) -> str:
    """503.html in the layout. With the database down, the layout is rendered as for a visitor (the header would
    load the user and their badges); if the full layout still fails, the same page as a visitor; if that fails
    too, a bare page with the message."""
    calm = {"user": AnonymousUser(), "messages": (), "to_confirm_count": 0}
    context = {"fault": fault, "message": fault.message}
    attempts = [calm] if fault.database_down else [{}, calm]
    for extra in attempts:
        try:
            return render_to_string("503.html", {**context, **extra}, request=request)
        except Exception as error:  # noqa: BLE001 - the page about a fault must not become another 500
            logger.warning("the %s page could not be rendered (%s: %s)", fault.status, type(error).__name__, error)
    title = escape(gettext("Try again in a moment"))
    return f"<!DOCTYPE html><title>{title}</title><h1>{title}</h1><p>{escape(str(fault.message))}</p>"
