"""The rows <-> the pure core: restore the `core.Auction` from the lot rows (`load`; or replay every stored
step, `load(replay=True)`, the check that the rows are right), copy the core's state back onto the lot rows
(`sync_lots`), and replay ownership changes onto the sales (`replay_ownership`, `write_holdings`). No rule is
re-implemented here."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from base.compiled import CompiledRead
from calcutta import core
from calcutta.models import (
    AuctionAction,
    Bid,
    Bidder,
    Calcutta,
    CalcuttaStatus,
    Holding,
    Lot,
    LotPhase,
    OwnershipChange,
)
from calcutta.selectors import calcutta_entries, lot_members
from calcutta.services.common import refusal


def core_settings(calcutta: Calcutta) -> core.CalcuttaSettings:
    try:
        return core.CalcuttaSettings(
            payout=core.PayoutTable.of([str(p) for p in calcutta.payout_places], str(calcutta.consolation_percent)),
            house_take_percent=Decimal(calcutta.house_take_percent),
            minimum_opening_bid=calcutta.minimum_opening_bid,
            increment=calcutta.increment,
            buy_back_limit=Fraction(Decimal(calcutta.buy_back_limit_percent)) / 100,
            buy_back_deadline=calcutta.buy_back_deadline,
            self_bidding=calcutta.self_bidding,
        )
    except core.CalcuttaError as exc:
        field = {"payout": "payout_places", "consolation_winner": "consolation_percent"}.get(exc.field, exc.field)
        if field and field.startswith("payout place"):
            field = "payout_places"
        exc.field = field or "payout_places"
        raise exc from None


@dataclass
class State:
    """Everything one write decides on, loaded after the lock."""

    calcutta: Calcutta
    entries: list  # the entrants (selectors.EntryRef: id and player)
    lots: dict  # core lot id (number or "field") -> Lot row
    members: dict  # Lot row id -> its entries' ids
    bidders: dict  # bidder id -> Bidder row
    settings: core.CalcuttaSettings
    plan: core.LotPlan
    order: tuple
    auction: core.Auction

    def lot(self, core_id) -> Lot:
        return self.lots[core_id]


def lot_plan(
    entries: Sequence, lots: Iterable[Lot], members: Mapping[int, Sequence[int]] | None = None
) -> core.LotPlan:
    """The core's plan of the lots; `members` (lot id -> entry ids, `selectors.lot_members`) instead of each
    lot's prefetched entries."""
    regular = sorted((lot for lot in lots if not lot.is_field), key=lambda lot: lot.number)

    def entrants(lot: Lot) -> tuple:
        ids = members.get(lot.pk, ()) if members is not None else (e.pk for e in lot.entries.all())
        return tuple(sorted(ids))

    return core.LotPlan(
        entrants=tuple(entry.pk for entry in entries),
        lots=tuple(core.Lot(id=lot.number, entrants=entrants(lot)) for lot in regular),
    )


def auction_order(calcutta: Calcutta, plan: core.LotPlan) -> tuple:
    """The director's order, or the one drawn from the stored seed (the field always comes last)."""
    if calcutta.order:
        return core.check_order(plan, calcutta.order)
    return core.random_order([lot.id for lot in plan.lots], seed=calcutta.seed)


def _core_bidders(bidders: Iterable[Bidder], entries: Sequence) -> list[core.Bidder]:
    entry_of_player = {entry.player_id: entry.pk for entry in entries}
    return [core.Bidder(id=b.pk, entrant=entry_of_player.get(b.player_id) if b.player_id else None) for b in bidders]


def _events(calcutta: Calcutta, lots_by_pk: Mapping[int, Lot]) -> list[tuple[int, str, dict]]:
    """Bids and auctioneer steps in step order, as the core's replay takes them (tuples, no model instances)."""
    steps = [
        (step, action, {})
        for step, action in AuctionAction.objects.filter(calcutta=calcutta).values_list("step", "action")
    ]
    bids = Bid.objects.filter(calcutta=calcutta).values_list("step", "lot_id", "bidder_id", "amount", "idempotency_key")
    for step, lot_id, bidder_id, amount, key in bids:
        arguments = {"lot": lots_by_pk[lot_id].core_id, "bidder": bidder_id, "amount": amount, "key": key or None}
        steps.append((step, "bid", arguments))
    return sorted(steps, key=lambda step: step[0])


# The Calcutta's status as the core's auction status (a settled Calcutta's auction is closed).
AUCTION_STATUS = {
    CalcuttaStatus.SETUP: core.AuctionStatus.SETUP,
    CalcuttaStatus.OPEN: core.AuctionStatus.OPEN,
    CalcuttaStatus.CLOSED: core.AuctionStatus.CLOSED,
    CalcuttaStatus.SETTLED: core.AuctionStatus.CLOSED,
}


def _rows_state(calcutta: Calcutta, lot_rows: Iterable[Lot]) -> dict:
    """The auction's state as the lot rows hold it (`sync_lots` and `place_bid` keep them in step with the core
    after every step), in the shape `core.Auction.restore` takes."""
    lots, current = {}, None
    for lot in lot_rows:
        if lot.pk == calcutta.current_lot_id:
            current = lot.core_id
        if lot.phase == LotPhase.PENDING:
            continue
        lots[lot.core_id] = {
            "phase": lot.phase,
            "high": None if lot.high_bid is None else (lot.high_bidder_id, lot.high_bid),
            "sale": None if lot.price is None else (lot.buyer_id, lot.price),
            "hammer": lot.hammer_index,
        }
    return {"status": AUCTION_STATUS[calcutta.status], "current": current, "lots": lots}


# Every bid restores the auction under the Calcutta's lock: these reads are compiled once per process.
_LOTS = CompiledRead(lambda calcutta_id: Lot.objects.filter(calcutta_id=calcutta_id).order_by("is_field", "number"))
_BIDDERS = CompiledRead(lambda calcutta_id: Bidder.objects.filter(calcutta_id=calcutta_id).order_by("pk"))


def load(calcutta: Calcutta, *, replay: bool = False) -> State:
    """The auction where it stands, restored from the lot rows: a constant number of queries, and time that
    does not grow with the bids placed (a bid late in a long auction costs what the first one did). With
    `replay`, rebuilt instead from every stored step: what the rows must always agree with (`check_rows`)."""
    entries = calcutta_entries(calcutta, refs=True)
    # The models' default orderings start with "calcutta", which joins the Calcutta only to sort by it: every
    # write paid for that join twice while holding the Calcutta's lock.
    lot_rows, bidders = _LOTS.all(calcutta.pk), {b.pk: b for b in _BIDDERS.all(calcutta.pk)}
    for row in (*lot_rows, *bidders.values()):
        row.calcutta = calcutta  # as calcutta.lots and calcutta.bidders would have set it
    settings = core_settings(calcutta)
    try:
        members = lot_members(calcutta)
        plan = lot_plan(entries, lot_rows, members)
        order = auction_order(calcutta, plan)
    except core.CalcuttaError as exc:
        raise refusal(exc) from None
    shape = {"settings": settings, "plan": plan, "order": order, "bidders": _core_bidders(bidders.values(), entries)}
    if replay:
        events = _events(calcutta, {lot.pk: lot for lot in lot_rows})
        auction = core.Auction.replay(**shape, events=[(action, arguments) for _step, action, arguments in events])
    else:
        auction = core.Auction.restore(**shape, **_rows_state(calcutta, lot_rows))
    return State(
        calcutta=calcutta,
        entries=entries,
        lots={lot.core_id: lot for lot in lot_rows},
        members=members,
        bidders=bidders,
        settings=settings,
        plan=plan,
        order=order,
        auction=auction,
    )


def check_rows(calcutta: Calcutta) -> bool:
    """Do the lot rows say what a replay of every stored step says? (The tests ask it after random auctions.)"""
    return load(calcutta).auction.state() == load(calcutta, replay=True).auction.state()


def sync_lots(state: State) -> None:
    """Copy each lot's phase, high bid, sale and hammer position from the core onto the rows pages read."""
    auction = state.auction
    changed = []
    for core_id, lot in state.lots.items():
        high = auction.high_bid(core_id)
        sale = auction.sales.get(core_id)
        values = {
            "phase": auction.phase.get(core_id, LotPhase.PENDING),
            "high_bid": high.amount if high else None,
            "high_bidder_id": high.bidder if high else None,
            "price": sale.price if sale else None,
            "buyer_id": sale.bidder if sale else None,
            "hammer_index": auction.hammered.index(core_id) if core_id in auction.hammered else None,
        }
        if any(getattr(lot, name) != value for name, value in values.items()):
            for name, value in values.items():
                setattr(lot, name, value)
            changed.append(lot)
    if changed:
        Lot.objects.bulk_update(changed, ["phase", "high_bid", "high_bidder", "price", "buyer", "hammer_index"])
    field = state.lots.get(core.FIELD)
    if field is not None:
        wanted = set(auction.field.entrants)
        if set(state.members.get(field.pk, ())) != wanted:
            field.entries.set(wanted)
            state.members[field.pk] = sorted(wanted)
    current = state.lots.get(auction.current) if auction.current is not None else None
    state.calcutta.current_lot = current


def replay_ownership(state: State) -> core.Ownership:
    """The sales of the closed auction with every syndicate and buy-back replayed in order."""
    ownership = core.Ownership.from_auction(state.auction.result())
    entry_of_player = {entry.player_id: entry.pk for entry in state.entries}
    for change in OwnershipChange.objects.filter(calcutta=state.calcutta).select_related("lot"):
        ownership = apply_change(ownership, change, state, entry_of_player)
    return ownership


def apply_change(ownership, change: OwnershipChange, state: State, entry_of_player) -> core.Ownership:
    if change.kind == OwnershipChange.Kind.SYNDICATE:
        return ownership.form_syndicate(
            lot=change.lot.core_id, holder=change.bidder_id, shares={int(k): v for k, v in change.shares.items()}
        )
    bidder = state.bidders[change.bidder_id]
    player = core.Bidder(id=bidder.pk, entrant=entry_of_player.get(bidder.player_id) if bidder.player_id else None)
    return ownership.buy_back(
        lot=change.lot.core_id, player=player, share=change.share, at=change.at, settings=state.settings
    )


def write_holdings(state: State, ownership: core.Ownership) -> None:
    Holding.objects.filter(lot__calcutta=state.calcutta).delete()
    rows = []
    for lot_id in ownership.holdings:
        due = ownership.amounts_due_by_lot(lot_id)
        for owner, share in ownership.owners(lot_id):
            rows.append(
                Holding(
                    lot=state.lot(lot_id),
                    bidder_id=owner,
                    numerator=share.numerator,
                    denominator=share.denominator,
                    amount_due=due[owner],
                )
            )
    Holding.objects.bulk_create(rows)
