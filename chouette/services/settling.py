"""Settling up a finished table: the payer (or a club director) marks a transfer paid, the payee (or a director)
confirms they received it. The settlement page shows what is still open. The steps and the reminder a day on
are `base.settle_up`'s, shared with the Calcutta's settle-ups and the prizes."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from base import settle_up
from base.errors import NotAllowed, NotFound
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
    return settle_up.mark_paid(transfer, actor=actor)


@transaction.atomic
def confirm_transfer_received(*, actor, session, transfer_id: int) -> Transfer:
    """The payee confirms the money arrived (also when the payer never marked it); once."""
    session = lock_session(session)
    transfer = _transfer(session, transfer_id)
    if not _may(actor, session, transfer.payee_id):
        raise NotAllowed(_("Only the payee or a director of the club confirms a transfer received."))
    return settle_up.confirm_received(transfer, actor=actor)
