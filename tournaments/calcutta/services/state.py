"""The rows <-> the pure core: rebuild the `core.Auction` by replaying the stored steps (`load`), copy the
core's state back onto the lot rows pages read (`sync_lots`), and replay ownership changes onto the sales
(`replay_ownership`, `write_holdings`). No rule is re-implemented here."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from tournaments.calcutta import core
from tournaments.calcutta.models import AuctionAction, Bid, Bidder, Calcutta, Holding, Lot, LotPhase, OwnershipChange
from tournaments.calcutta.selectors import calcutta_entries
from tournaments.calcutta.services.common import refusal


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
    entries: list  # the flight's Entry rows
    lots: dict  # core lot id (number or "field") -> Lot row
    bidders: dict  # bidder id -> Bidder row
    settings: core.CalcuttaSettings
    plan: core.LotPlan
    order: tuple
    auction: core.Auction

    def lot(self, core_id) -> Lot:
        return self.lots[core_id]


def lot_plan(entries: Sequence, lots: Iterable[Lot]) -> core.LotPlan:
    regular = sorted((lot for lot in lots if not lot.is_field), key=lambda lot: lot.number)
    return core.LotPlan(
        entrants=tuple(entry.pk for entry in entries),
        lots=tuple(core.Lot(id=lot.number, entrants=tuple(sorted(e.pk for e in lot.entries.all()))) for lot in regular),
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


def load(calcutta: Calcutta) -> State:
    """Rebuild the auction from the stored steps (a constant number of queries)."""
    entries = calcutta_entries(calcutta)
    lot_rows = list(calcutta.lots.prefetch_related("entries"))
    bidders = {b.pk: b for b in calcutta.bidders.all()}
    settings = core_settings(calcutta)
    try:
        plan = lot_plan(entries, lot_rows)
        order = auction_order(calcutta, plan)
    except core.CalcuttaError as exc:
        raise refusal(exc) from None
    events = _events(calcutta, {lot.pk: lot for lot in lot_rows})
    auction = core.Auction.replay(
        settings=settings,
        plan=plan,
        order=order,
        bidders=_core_bidders(bidders.values(), entries),
        events=[(action, arguments) for _step, action, arguments in events],
    )
    return State(
        calcutta=calcutta,
        entries=entries,
        lots={lot.core_id: lot for lot in lot_rows},
        bidders=bidders,
        settings=settings,
        plan=plan,
        order=order,
        auction=auction,
    )


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
        if {entry.pk for entry in field.entries.all()} != wanted:
            field.entries.set(wanted)
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
