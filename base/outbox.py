"""Claim, retry and sweep for rows of `base.models.Outgoing`: work sent by a task that may run twice.

Why here: the notifications' mails and webhook posts need it, and so does the password-reset mail of
accounts, and accounts sits below notifications, so the shared part lives in base. A task claims its row (due ->
sending, one UPDATE whose row count says who won) before it sends, so a retried or duplicated task sends nothing
twice; a failure makes the row due again after a growing delay, and the periodic sweep (base.queue.sweepers)
sends again whatever is due: a claim older than TASK_STALE_SECONDS is a dead worker's and due again too.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from celery import Task
from django.conf import settings
from django.db.models import F
from django.utils import timezone

from base.models import Delivery, Outgoing
from base.queue import enqueue_many

logger = logging.getLogger(__name__)

MAX_ATTEMPTS = 6
BACKOFF_SECONDS = 30  # then 60, 120, ... between attempts
SWEEP_BATCH = 500


def claim(model: type[Outgoing], pk: int) -> bool:
    """Due -> sending, for exactly one caller: a second task for the same row finds it claimed (or gone)."""
    now = timezone.now()
    return bool(
        model._default_manager.filter(pk=pk, delivery=Delivery.DUE, due_at__lte=now).update(
            delivery=Delivery.SENDING, claimed_at=now, attempts=F("attempts") + 1
        )
    )


def sent(row: Outgoing) -> None:
    """The claimed row went out: sent, with no error left on it."""
    row.delivery, row.delivered_at, row.last_error = Delivery.SENT, timezone.now(), ""
    row.save(update_fields=["delivery", "delivered_at", "last_error"])


def retry_later(row: Outgoing, error: Exception, *, final: bool = False) -> None:
    """The claimed row could not be sent: due again after 30 s, 60 s, 120 s, ...; failed for good after
    MAX_ATTEMPTS, or at once when `final` (an answer that trying again cannot change, such as a webhook's
    redirect). The admin shows it with its last error."""
    logger.warning("could not send %s %s (attempt %s): %s", type(row).__name__, row.pk, row.attempts, error)
    row.last_error = f"{type(error).__name__}: {error}"[:300]
    if final or row.attempts >= MAX_ATTEMPTS:
        row.delivery = Delivery.FAILED
    else:
        row.delivery = Delivery.DUE
        row.due_at = timezone.now() + timedelta(seconds=BACKOFF_SECONDS * 2 ** (row.attempts - 1))
    row.save(update_fields=["delivery", "last_error", "due_at"])


def sweep_due(model: type[Outgoing], task: Task | str) -> int:
    """Send `task(pk)` again for every row of `model` due by now (a stale claim counts as due); returns how many
    the broker took. Run from an app's sweeper."""
    now = timezone.now()
    stale = now - timedelta(seconds=settings.TASK_STALE_SECONDS)
    rows = model._default_manager
    rows.filter(delivery=Delivery.SENDING, claimed_at__lt=stale).update(delivery=Delivery.DUE)
    due = rows.filter(delivery=Delivery.DUE, due_at__lte=now).order_by("due_at").values_list("pk", flat=True)
    return enqueue_many(task, [(pk,) for pk in due[:SWEEP_BATCH]])
