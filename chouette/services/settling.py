"""Settling up a finished table: the payer (or a club director) marks a transfer paid, the payee (or a director)
confirms they received it. The settlement page shows what is still open."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from base.errors import Conflict, NotAllowed, NotFound
from chouette import hooks
from chouette.models import Transfer
from chouette.services.common import lock_session
from clubs.access import is_director, player_of


def _transfer(session, transfer_id: int) -> Transfer:
    found = session.transfers.filter(pk=transfer_id).first()
    if found is None:
        raise NotFound(_("No such transfer at this table."))
    return found


def _may(actor, session, player_id: int) -> bool:
    own = player_of(actor)
    return (own is not None and own.pk == player_id) or is_director(actor, session.club)


@transaction.atomic
def mark_transfer_paid(*, actor, session, transfer_id: int) -> Transfer:
    """The payer says the money is sent (by the transfer code, cash, …); once."""
    session = lock_session(session)
    transfer = _transfer(session, transfer_id)
    if not _may(actor, session, transfer.payer_id):
        raise NotAllowed(_("Only the payer or a director of the club marks a transfer paid."))
    if transfer.paid_at is not None:
        raise Conflict(_("This transfer is marked paid already."), code="transfer_paid")
    transfer.paid_at, transfer.paid_by = timezone.now(), actor
    transfer.save(update_fields=["paid_at", "paid_by"])
    return transfer


@transaction.atomic
def confirm_transfer_received(*, actor, session, transfer_id: int) -> Transfer:
    """The payee confirms the money arrived (also when the payer never marked it); once."""
    session = lock_session(session)
    transfer = _transfer(session, transfer_id)
    if not _may(actor, session, transfer.payee_id):
        raise NotAllowed(_("Only the payee or a director of the club confirms a transfer received."))
    if transfer.confirmed_at is not None:
        raise Conflict(_("This transfer is confirmed already."), code="transfer_confirmed")
    now = timezone.now()
    transfer.confirmed_at, transfer.confirmed_by = now, actor
    fields = ["confirmed_at", "confirmed_by"]
    if transfer.paid_at is None:
        transfer.paid_at, transfer.paid_by = now, actor
        fields += ["paid_at", "paid_by"]
    transfer.save(update_fields=fields)
    return transfer


def sweep_transfer_reminders() -> int:
    """The periodic sweep (config/pipeline.py, SWEEPERS): each transfer still not confirmed TRANSFER_REMINDER_HOURS
    after it was made is reminded once (`hooks.transfer_open`: the payer, or the payee once it is marked paid).
    Each is claimed by setting `reminded_at` where it is still empty, so two sweeps at once remind once."""
    due = timezone.now() - timedelta(hours=settings.TRANSFER_REMINDER_HOURS)
    open_ones = Transfer.objects.filter(confirmed_at__isnull=True, reminded_at__isnull=True, created_at__lte=due)
    reminded = 0
    for transfer in open_ones.select_related("session", "payer", "payee").order_by("pk")[:500]:
        with transaction.atomic():
            claimed = Transfer.objects.filter(pk=transfer.pk, reminded_at__isnull=True, confirmed_at__isnull=True)
            if claimed.update(reminded_at=timezone.now()):
                hooks.transfer_open(transfer)
                reminded += 1
    return reminded
