"""The live auction: the auctioneer's steps and the bids. Every write takes the Calcutta row lock, restores the
auction from the lot rows (state.load: no replay, so a bid late in a long auction costs what the first did),
lets the core decide, stores the new step and keeps the lot rows in step."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from base.errors import Invalid, NotAllowed
from calcutta import core, selectors
from calcutta.models import AuctionAction, Bid, Bidder, Calcutta, CalcuttaStatus, LotPhase
from calcutta.services.common import (
    MAX_CENTS,
    lock,
    refusal,
    require_first_round_not_started,
    require_status,
)
from calcutta.services.settlement import settle_calcutta
from calcutta.services.state import load, sync_lots, write_holdings
from clubs import access


@transaction.atomic
def auctioneer_step(*, actor, calcutta: Calcutta, action: str) -> Calcutta:
    """One of the auctioneer's steps: open, open_next_lot, going_once, going_twice, sell, pass_lot, undo_last,
    close. Closing hands the sales to ownership (each lot owned wholly by its buyer) and settles if it can."""
    if action not in AuctionAction.Kind.values:
        raise Invalid(
            _("Choose one of: %(actions)s.") % {"actions": ", ".join(AuctionAction.Kind.values)}, field="action"
        )
    calcutta = lock(calcutta)
    access.require(actor, "calcutta.direct", calcutta)
    require_status(calcutta, CalcuttaStatus.SETUP, CalcuttaStatus.OPEN, doing=_("run the auction"))
    if action == AuctionAction.Kind.OPEN:
        require_first_round_not_started(calcutta.flight)
    state = load(calcutta)
    before = state.auction.current
    try:
        getattr(state.auction, action)()
    except core.CalcuttaError as exc:
        raise refusal(exc) from None
    acted_on = state.auction.current if state.auction.current is not None else before
    if action == AuctionAction.Kind.UNDO_LAST:
        acted_on = state.auction.current
    calcutta.steps += 1
    AuctionAction.objects.create(
        calcutta=calcutta,
        step=calcutta.steps,
        action=action,
        lot=state.lots.get(acted_on) if acted_on is not None else None,
        actor=actor,
    )
    sync_lots(state)
    if action == AuctionAction.Kind.OPEN:
        calcutta.status = CalcuttaStatus.OPEN
        calcutta.entrants = [entry.pk for entry in state.entries]
    if action == AuctionAction.Kind.CLOSE:
        calcutta.status = CalcuttaStatus.CLOSED
    calcutta.save(update_fields=["steps", "status", "current_lot", "entrants", "updated_at"])
    if action == AuctionAction.Kind.CLOSE:
        write_holdings(state, core.Ownership.from_auction(state.auction.result()))
        settle_calcutta(calcutta=calcutta)
    return calcutta


UP = (LotPhase.OPEN, LotPhase.GOING_ONCE, LotPhase.GOING_TWICE)


def _too_low(minimum: int, code: str) -> Invalid:
    message = _("Bid at least %(minimum)s.") % {"minimum": selectors.display_money(minimum)}
    return Invalid(message, code=code, field="amount")


def _refuse_a_beaten_bid(*, calcutta: Calcutta, lot_number: int, bidder: Bidder, amount: int, key: str) -> None:
    """Refuse, without the Calcutta lock, a bid that a committed high bid already beats.

    Why: when twenty people bid on one lot, most bids arrive beaten, and each used to wait its turn for the lock
    only to be told so. A high bid never falls (bids are never removed, and an undone hammer reopens the lot with
    its bids), so a bid below a committed high bid plus the increment is refused by the locked path too, with
    the same message. Only that case is decided here, on one read of the lot's row: every other outcome (another
    lot, a bid on one's own lot, an idempotency key sent again, a first bid) goes the locked way."""
    if calcutta.status != CalcuttaStatus.OPEN:
        return
    high = selectors.committed_high_bid(
        calcutta_id=calcutta.pk,
        lot_number=lot_number,
        phases=UP,
        # the core refuses a bid on one's own lot first: such a lot is left to the locked path
        not_a_lot_of_player=None if calcutta.self_bidding else bidder.player_id,
    )
    if high is None or amount >= high + calcutta.increment:
        return
    if key and Bid.objects.filter(calcutta=calcutta, idempotency_key=key).exists():
        return
    raise _too_low(high + calcutta.increment, "below_increment")


def place_bid(
    *, actor, calcutta: Calcutta, lot_number: int, bidder: Bidder, amount: int, idempotency_key: str = ""
) -> tuple[Bid, bool]:
    """Place a bid (cents) on the lot that is up; returns (bid, created). The same idempotency key sent again
    returns the bid already placed instead of placing it twice. The auctioneer bids for anyone in the room; a
    registered bidder bids for themselves."""
    # Who may bid for whom, and how much at most, does not change while the auction runs: asked before the lock,
    # since twenty bidders on one lot take the lock one after the other.
    if not getattr(actor, "is_authenticated", False):
        raise NotAllowed(_("Sign in to bid."))
    if bidder.calcutta_id != calcutta.pk:
        raise Invalid(_("This bidder is not registered at this Calcutta."), field="bidder")
    access.require(actor, "calcutta.bid_as", bidder)
    key = (idempotency_key or "").strip()
    if amount > MAX_CENTS:
        most = selectors.display_money(MAX_CENTS)
        raise Invalid(_("A bid is at most %(max)s.") % {"max": most}, field="amount")
    # Outside the transaction too: a refusal here costs its one read, not a BEGIN and a ROLLBACK around it.
    _refuse_a_beaten_bid(calcutta=calcutta, lot_number=lot_number, bidder=bidder, amount=amount, key=key)
    return _place_bid(actor=actor, calcutta=calcutta, lot_number=lot_number, bidder=bidder, amount=amount, key=key)


@transaction.atomic
def _place_bid(*, actor, calcutta: Calcutta, lot_number: int, bidder: Bidder, amount: int, key: str):
    """place_bid's decision under the Calcutta's lock, on the auction as it stands after the lock."""
    calcutta = lock(calcutta, with_event=False)
    if calcutta.status == CalcuttaStatus.SETUP:
        raise refusal(core.CalcuttaError("auction_not_open", "The auction has not opened yet."))
    state = load(calcutta)
    core_id = core.FIELD if lot_number == 0 else lot_number
    if core_id not in state.lots:
        raise Invalid(_("There is no lot %(n)s in this Calcutta.") % {"n": lot_number}, field="lot")
    earlier = Bid.objects.filter(calcutta=calcutta, idempotency_key=key).select_related("lot").first() if key else None
    if earlier is not None:  # the restored auction knows only the high bids: tell it the bid this key placed
        state.auction.remember(
            core.Bid(lot=earlier.lot.core_id, bidder=earlier.bidder_id, amount=earlier.amount, key=key)
        )
    try:
        result = state.auction.bid(lot=core_id, bidder=bidder.pk, amount=amount, key=key or None)
    except core.CalcuttaError as exc:
        if exc.code == "below_minimum" or exc.code == "below_increment":
            raise _too_low(state.auction.minimum_next_bid(core_id), exc.code) from None
        raise refusal(exc) from None
    if not result.placed:
        return earlier, False
    lot = state.lot(core_id)
    calcutta.steps += 1
    bid = Bid.objects.create(
        calcutta=calcutta,
        lot=lot,
        bidder=bidder,
        amount=amount,
        idempotency_key=key,
        step=calcutta.steps,
        placed_by=actor,
    )
    lot.high_bid, lot.high_bidder, lot.phase = amount, bidder, state.auction.phase[core_id]
    lot.save(update_fields=["high_bid", "high_bidder", "phase"])
    calcutta.save(update_fields=["steps", "updated_at"])
    return bid, True
