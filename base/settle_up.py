"""Settling up, one mechanism for every kind of money handed over outside the site (`base.models.SettleUp`):
chouette transfers, a Calcutta owner's settle-up with the club, a flight's prizes. Each app checks who may act
(the payer or a director marks paid, the payee or a director confirms) and locks its own rows; the steps and the
reminder sweep are written here once.

The sweep (`sweep_reminders`, in config/pipeline.py's SWEEPERS) is the one place that says "after a day, remind":
every concrete SettleUp model still not confirmed TRANSFER_REMINDER_HOURS after its `remind_from` is reminded once
through the hook `still_open` (notifications: the payer, or the payee once it is marked paid). Each row is claimed
by setting `reminded_at` where it is still empty, so two sweeps at once remind once."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import timedelta

from django.apps import apps
from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from base.errors import Conflict
from base.hooks import Hook
from base.models import SettleUp

logger = logging.getLogger(__name__)

# Called as still_open(row) by the sweep, once per row, for a settle-up still not confirmed a day on.
still_open = Hook()


@dataclass(frozen=True)
class Reminder:
    """Whom a row still open reminds and what it says: `role` payer ("pay it and mark it paid") or payee
    ("confirm you received it"), `other` the other side's name, `where` the table, Calcutta or flight."""

    users: tuple[int, ...]
    role: str
    other: str
    cents: int
    where: str
    url: str
    key: str
    directors_of: int | None = None  # the club's side: its directors are reminded (a club id)


def mark_paid(row: SettleUp, *, actor) -> SettleUp:
    """The payer says the money is sent; once (the caller holds its lock and checked who may)."""
    if row.paid_at is not None:
        raise Conflict(_("This transfer is marked paid already."), code="transfer_paid")
    row.paid_at, row.paid_by = timezone.now(), actor
    _save(row, ["paid_at", "paid_by"])
    return row


def confirm_received(row: SettleUp, *, actor) -> SettleUp:
    """The payee confirms the money arrived, also when the payer never marked it (then it is paid now too); once."""
    if row.confirmed_at is not None:
        raise Conflict(_("This transfer is confirmed already."), code="transfer_confirmed")
    now = timezone.now()
    row.confirmed_at, row.confirmed_by = now, actor
    fields = ["confirmed_at", "confirmed_by"]
    if row.paid_at is None:
        row.paid_at, row.paid_by = now, actor
        fields += ["paid_at", "paid_by"]
    _save(row, fields)
    return row


def _save(row: SettleUp, fields: list[str]) -> None:
    """A row made by this step (a prize recorded when it is marked paid) is inserted; else only the step's fields
    are written."""
    if row.pk is None:
        row.save()
    else:
        row.save(update_fields=fields)


def kinds() -> list[type[SettleUp]]:
    """Every concrete settle-up model of the installed apps."""
    return [model for model in apps.get_models() if issubclass(model, SettleUp)]


def sweep_reminders() -> int:
    """The periodic sweep: each settle-up still open TRANSFER_REMINDER_HOURS after its clock started is reminded
    once. Returns how many were."""
    due = timezone.now() - timedelta(hours=settings.TRANSFER_REMINDER_HOURS)
    reminded = 0
    for model in kinds():
        since = {f"{model.remind_from}__lte": due}
        open_ones = model._default_manager.filter(confirmed_at__isnull=True, reminded_at__isnull=True, **since)
        for row in open_ones.order_by("pk")[:500]:
            with transaction.atomic():
                claimed = model._default_manager.filter(pk=row.pk, reminded_at__isnull=True, confirmed_at__isnull=True)
                if claimed.update(reminded_at=timezone.now()):
                    still_open(row)
                    reminded += 1
    return reminded
