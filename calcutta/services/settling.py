"""Settling each owner with the club once the Calcutta is settled: one `OwnerTransfer` per owner, which way and how
much from the current settlement and the paid flags (`transfer_due`, the one rule; the settlement page's transfer
codes read it too). The payer marks it paid, the payee confirms, a director may do either (the club's side is the
directors'), and the reminder a day on is the shared `base.settle_up` sweep's, as for chouette transfers."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from base import settle_up
from base.errors import NotAllowed, NotFound
from calcutta.models import Calcutta, OwnerLine, OwnerTransfer
from calcutta.services.common import lock


def transfer_due(line: OwnerLine) -> tuple[bool, int]:
    """(to the club?, cents) settling an owner's line: an owner who paid in is paid their winnings; one who did not
    pays what they are out of pocket (paid in − won), or is paid what they come out ahead by. 0 cents: square."""
    if line.bidder.paid:
        return False, line.won
    net = line.paid_in - line.won
    return net > 0, abs(net)


def sync_transfers(calcutta: Calcutta) -> None:
    """The Calcutta is locked: bring the owners' transfers nobody has marked yet in line with the current
    settlement (none: they go). A transfer marked paid or confirmed keeps its amount (money already moved)."""
    settlement = calcutta.settlements.filter(is_current=True).first()
    lines = list(settlement.owner_lines.select_related("bidder")) if settlement is not None else []
    due = {line.bidder_id: transfer_due(line) for line in lines}
    existing = {t.bidder_id: t for t in calcutta.transfers.all()}
    for bidder_id, transfer in existing.items():
        if transfer.paid_at is not None or transfer.confirmed_at is not None:
            continue
        to_club, cents = due.get(bidder_id, (False, 0))
        if cents <= 0:
            transfer.delete()
        elif (transfer.to_club, transfer.cents) != (to_club, cents):
            transfer.to_club, transfer.cents = to_club, cents
            transfer.save(update_fields=["to_club", "cents"])
    OwnerTransfer.objects.bulk_create(
        OwnerTransfer(calcutta=calcutta, bidder_id=bidder_id, to_club=to_club, cents=cents)
        for bidder_id, (to_club, cents) in due.items()
        if cents > 0 and bidder_id not in existing
    )


def _transfer(calcutta: Calcutta, transfer_id: int) -> OwnerTransfer:
    found = calcutta.transfers.select_related("bidder").filter(pk=transfer_id).first()
    if found is None:
        raise NotFound(_("No such transfer at this Calcutta."))
    return found


def _may(actor, calcutta: Calcutta, transfer: OwnerTransfer, *, owner_side: bool) -> bool:
    """The owner acts for their side by their login; the club's side is its directors' (who may also act for an
    owner, as at a chouette table)."""
    own = owner_side and transfer.bidder.user_id is not None and transfer.bidder.user_id == actor.pk
    return own or calcutta.user_is_director(actor)


@transaction.atomic
def mark_transfer_paid(*, actor, calcutta: Calcutta, transfer_id: int) -> OwnerTransfer:
    """The payer (the owner, or the club's directors) says the money is sent; once."""
    calcutta = lock(calcutta)
    transfer = _transfer(calcutta, transfer_id)
    if not _may(actor, calcutta, transfer, owner_side=transfer.to_club):
        raise NotAllowed(_("Only the payer or a director of the club marks a transfer paid."))
    return settle_up.mark_paid(transfer, actor=actor)


@transaction.atomic
def confirm_transfer_received(*, actor, calcutta: Calcutta, transfer_id: int) -> OwnerTransfer:
    """The payee (the owner, or for the club its directors) confirms the money arrived; once."""
    calcutta = lock(calcutta)
    transfer = _transfer(calcutta, transfer_id)
    if not _may(actor, calcutta, transfer, owner_side=not transfer.to_club):
        raise NotAllowed(_("Only the payee or a director of the club confirms a transfer received."))
    return settle_up.confirm_received(transfer, actor=actor)
