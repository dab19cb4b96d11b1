"""After the sale: syndicates (formed only with every party's consent), buy-backs and payments. Each change is
tried on the current ownership first, then stored, the holdings rewritten and the Calcutta settled again."""

from __future__ import annotations

from collections.abc import Mapping

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from base.errors import Conflict, Invalid, NotAllowed
from base.locks import lock as lock_rows
from calcutta import core
from calcutta.models import Bidder, Calcutta, CalcuttaStatus, Lot, OwnershipChange, SyndicateOffer
from calcutta.services.common import lock, refusal, require_status
from calcutta.services.settlement import settle_calcutta
from calcutta.services.settling import sync_transfers
from calcutta.services.state import State, apply_change, load, replay_ownership, write_holdings
from clubs import access


def _locked_for_change(actor, calcutta: Calcutta, lot_number: int, bidder: Bidder) -> tuple[State, Lot]:
    calcutta = lock(calcutta)
    require_status(calcutta, CalcuttaStatus.CLOSED, CalcuttaStatus.SETTLED, doing=_("change who owns a lot"))
    if bidder.calcutta_id != calcutta.pk:
        raise Invalid(_("This bidder is not registered at this Calcutta."), field="bidder")
    state = load(calcutta)
    lot = state.lots.get(core.FIELD if lot_number == 0 else lot_number)
    if lot is None:
        raise Invalid(_("There is no lot %(n)s in this Calcutta.") % {"n": lot_number}, field="lot")
    return state, lot


def _record_change(state: State, change: OwnershipChange, *, save: bool = True) -> OwnershipChange:
    """Replay the change onto the current ownership (refused as the core says), then store it, rewrite the
    holdings and settle again. With save=False only the check runs (an offer is tried before it is sent)."""
    entry_of_player = {entry.player_id: entry.pk for entry in state.entries}
    try:
        ownership = apply_change(replay_ownership(state), change, state, entry_of_player)
    except core.CalcuttaError as exc:
        raise refusal(exc) from None
    if save:
        change.number = OwnershipChange.objects.filter(calcutta=state.calcutta).count() + 1
        change.save()
        write_holdings(state, ownership)
        settle_calcutta(calcutta=state.calcutta)
    return change


def _change(state: State, lot: Lot, bidder: Bidder, kind: str, actor, **values) -> OwnershipChange:
    return OwnershipChange(
        calcutta=state.calcutta, number=0, kind=kind, lot=lot, bidder=bidder, at=timezone.now(), actor=actor, **values
    )


def _check_share(share, *, field: str) -> None:
    core.parse_share(share, field=field)  # a CalcuttaError `bad_share` naming the field


def _speaks_for(actor, bidders) -> set[int]:
    return {b.pk for b in bidders if access.can(actor, "calcutta.consent_for", b)}


@transaction.atomic
def offer_syndicate(
    *, actor, calcutta: Calcutta, lot_number: int, holder: Bidder, shares: Mapping[Bidder, str]
) -> SyndicateOffer:
    """`holder` offers to split their holding of a lot among a syndicate (shares of that holding, totalling
    100%). The syndicate forms once every party has accepted (answer_syndicate); the proposer's word counts for
    the parties they may answer for, so a director sharing a lot among guests without logins forms it at once.
    The offer is tried on the current ownership first: one that could not take effect is refused now."""
    for member in shares:
        if member.calcutta_id != calcutta.pk:
            raise Invalid(_("Every member of the syndicate must be a bidder at this Calcutta."), field="shares")
    for share in shares.values():
        _check_share(share, field="shares")
    access.require(actor, "calcutta.offer_syndicate", holder)
    state, lot = _locked_for_change(actor, calcutta, lot_number, holder)
    values = {str(member.pk): str(share) for member, share in shares.items()}
    _record_change(state, _change(state, lot, holder, OwnershipChange.Kind.SYNDICATE, actor, shares=values), save=False)
    parties = [holder, *shares]
    offer = SyndicateOffer.objects.create(
        calcutta=state.calcutta,
        lot=lot,
        holder=holder,
        shares=values,
        consents=sorted(_speaks_for(actor, parties)),
        created_by=actor,
    )
    if not offer.waiting_for():
        _form(offer, state, actor)
    return offer


def _form(offer: SyndicateOffer, state: State, actor) -> None:
    change = _change(state, offer.lot, offer.holder, OwnershipChange.Kind.SYNDICATE, actor, shares=offer.shares)
    offer.change = _record_change(state, change)
    offer.status, offer.decided_at = SyndicateOffer.Status.FORMED, timezone.now()
    offer.save(update_fields=["change", "status", "decided_at", "consents"])


@transaction.atomic
def answer_syndicate(*, actor, offer: SyndicateOffer, accept: bool) -> SyndicateOffer:
    """A party accepts or declines a syndicate offer (for themselves; a director for guests without a login).
    The last acceptance forms the syndicate; one refusal declines the offer."""
    calcutta = lock(offer.calcutta)
    offer = lock_rows(SyndicateOffer.objects).select_related("lot", "holder").get(pk=offer.pk)
    if offer.status != SyndicateOffer.Status.PENDING:
        raise Conflict(
            _("This offer was already answered: it is %(status)s.") % {"status": offer.get_status_display()},
            code="offer_answered",
        )
    waiting = list(calcutta.bidders.filter(pk__in=offer.waiting_for()))
    mine = _speaks_for(actor, waiting)
    if not mine:
        raise NotAllowed(
            _("Only the bidders this offer still waits for answer it (a director for guests without a login).")
        )
    if not accept:
        offer.status, offer.decided_at = SyndicateOffer.Status.DECLINED, timezone.now()
        offer.declined_by_id = min(mine)
        offer.save(update_fields=["status", "decided_at", "declined_by"])
        return offer
    offer.consents = sorted(set(offer.consents) | mine)
    if offer.waiting_for():
        offer.save(update_fields=["consents"])
        return offer
    state, _lot = _locked_for_change(actor, calcutta, offer.lot.number, offer.holder)
    _form(offer, state, actor)
    return offer


@transaction.atomic
def buy_back(*, actor, calcutta: Calcutta, lot_number: int, bidder: Bidder, share: str) -> None:
    """A player buys back `share` of their own lot from its owners, at the same fraction of the price (a right
    the Calcutta's settings give, within their limit and deadline: the owners' consent is not asked)."""
    _check_share(share, field="share")
    access.require(actor, "calcutta.buy_back", bidder)
    state, lot = _locked_for_change(actor, calcutta, lot_number, bidder)
    _record_change(state, _change(state, lot, bidder, OwnershipChange.Kind.BUY_BACK, actor, share=str(share)))


@transaction.atomic
def set_paid(*, actor, calcutta: Calcutta, bidder: Bidder, paid: bool) -> Bidder:
    """The director ticks off what an owner has paid in."""
    calcutta = lock(calcutta)
    access.require(actor, "calcutta.direct", calcutta)
    if bidder.calcutta_id != calcutta.pk:
        raise Invalid(_("This bidder is not registered at this Calcutta."), field="bidder")
    bidder.paid = paid
    bidder.paid_at = timezone.now() if paid else None
    bidder.save(update_fields=["paid", "paid_at"])
    sync_transfers(calcutta)  # paid in: the club now owes their winnings, no longer the difference
    return bidder
