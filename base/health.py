"""The checks behind /health/: can the site store data, queue work, and is a worker doing the work?

Each check answers {"status": "ok" | "failing", "reason": ...}. The reason says what is wrong and what to look at,
without the raw error (which can name internal hosts): that goes to the log.
"""

from __future__ import annotations

import logging

from celery import current_app as app  # the project's app (config.celery), without importing the layer above
from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone

from base.models import WorkerHeartbeat

logger = logging.getLogger(__name__)

IN_PROCESS = "no broker is configured: tasks run in-process, inside the request"


def _ok(reason: str) -> dict:
    return {"status": "ok", "reason": reason}


def _failing(reason: str) -> dict:
    return {"status": "failing", "reason": reason}


def in_process() -> bool:
    return bool(app.conf.task_always_eager)


# The database check's own bound on PostgreSQL, like the broker's 2 s: a server that accepts the connection but
# does not answer fails the check instead of holding /health/ (connecting is bounded by
# DATABASE_CONNECT_TIMEOUT_SECONDS, waiting for a pooled connection by the pool's timeout).
DATABASE_TIMEOUT_MS = 2000


def check_database() -> dict:
    try:
        with transaction.atomic(), connection.cursor() as cursor:
            if connection.vendor == "postgresql":
                cursor.execute(f"SET LOCAL statement_timeout = {DATABASE_TIMEOUT_MS}")
            cursor.execute("SELECT 1")
    except Exception as error:  # noqa: BLE001 - any failure means the site cannot store data
        logger.warning("health: the database does not answer: %s", error)
        return _failing(f"the database does not answer ({type(error).__name__}); check that it runs and DATABASE_URL")
    return _ok(f"{connection.vendor} answers")


def check_broker() -> dict:
    if in_process():
        return _ok(IN_PROCESS)
    try:
        with app.connection_for_write() as broker:
            broker.ensure_connection(max_retries=0, interval_start=0, timeout=2)
    except Exception as error:  # noqa: BLE001 - any failure means work cannot be queued
        logger.warning("health: the broker does not answer: %s", error)
        return _failing(
            f"the broker does not answer ({type(error).__name__}): uploads and recomputes wait until it is back; "
            "check that Redis runs and CELERY_BROKER_URL"
        )
    return _ok("the broker answers")


def check_worker(*, database_ok: bool) -> dict:
    if in_process():
        return _ok(IN_PROCESS)
    if not database_ok:
        return _failing("unknown: the worker's heartbeats are stored in the database, which does not answer")
    latest = WorkerHeartbeat.objects.order_by("-last_seen").first()
    limit = settings.HEALTH_HEARTBEAT_MAX_AGE_SECONDS
    if latest is None:
        return _failing("no worker has run a heartbeat yet: start the worker and beat (make worker, make beat)")
    age = (timezone.now() - latest.last_seen).total_seconds()
    if age > limit:
        return _failing(
            f"the last worker heartbeat was {age:.0f} s ago (more than {limit} s): the worker or beat is down"
        )
    return _ok(f"worker {latest.worker} ran a heartbeat {age:.0f} s ago")


def report() -> dict:
    """All three checks, and "status": "ok" only when each is."""
    database = check_database()
    checks = {
        "database": database,
        "broker": check_broker(),
        "worker": check_worker(database_ok=database["status"] == "ok"),
    }
    healthy = all(check["status"] == "ok" for check in checks.values())
    return {"status": "ok" if healthy else "failing", "tasks": "in-process" if in_process() else "broker", **checks}
