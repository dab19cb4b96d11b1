"""The live auction as a state machine.

    setup → open → [lot open ⇄ going once → going twice → sold | passed into the field] … → closed

Only registered bidders bid (a bidder need not be a player). The first bid on a lot is at least the minimum
opening bid, every later one at least the increment above the high bid; any bid re-opens a lot that was going.
A lot with no bid is passed: its entrants join the field, which is auctioned last. Before the next lot opens
the auctioneer may undo the last hammer (the lot re-opens with its bids). A bid carries an idempotency key:
sending the same bid again with the same key returns the bid already placed instead of placing it twice.

Every refusal is a CalcuttaError with a stable code. Every accepted action is appended to `events`, and
`Auction.replay` rebuilds the same auction from them — an adapter stores the events (or rows that say the
same) and never re-implements a rule.

A bid decides only on where the auction stands now (the lot up, each lot's phase and high bid, the sales, the
hammer order), never on the bids below the high one. So `Auction.restore` rebuilds an auction from that state
alone, in time that does not grow with the bids placed: the adapter keeps it on its lot rows and restores from
them for each write; `state()` is what a restore takes and what a replay must give (the check of the rows).
The one thing older bids still decide is a retried key: the adapter tells a restored auction the earlier bid
with that key (`remember`).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from .auction_settings import CalcuttaSettings
from .errors import CalcuttaError
from .lots import FIELD, Entrant, Lot, LotId, LotPlan, check_order
from .money import format_money

BidderId = Hashable


class AuctionStatus(StrEnum):
    SETUP = "setup"
    OPEN = "open"
    CLOSED = "closed"


class LotPhase(StrEnum):
    OPEN = "open"
    GOING_ONCE = "going_once"
    GOING_TWICE = "going_twice"
    SOLD = "sold"
    PASSED = "passed"


@dataclass(frozen=True)
class Bidder:
    id: BidderId
    entrant: Entrant | None = None  # the entrant this bidder is, when the bidder plays in the flight


@dataclass(frozen=True)
class Bid:
    lot: LotId
    bidder: BidderId
    amount: int  # cents
    key: str | None = None


@dataclass(frozen=True)
class BidResult:
    bid: Bid
    placed: bool  # False: a retry with a key already used; nothing new was placed


@dataclass(frozen=True)
class Sale:
    lot: LotId
    bidder: BidderId
    price: int  # cents


@dataclass(frozen=True)
class AuctionResult:
    """What a closed auction hands to ownership and settlement: the final lots (the field with everyone it
    gathered) in the order their hammer fell, and the sales."""

    lots: tuple[Lot, ...]
    sales: Mapping[LotId, Sale]
    passed: tuple[LotId, ...] = ()  # lots that found no bidder; their entrants are in the field

    @property
    def total(self) -> int:
        return sum(sale.price for sale in self.sales.values())


class Auction:
    ACTIONS = frozenset(
        {"open", "open_next_lot", "bid", "going_once", "going_twice", "sell", "pass_lot", "undo_last", "close"}
    )

    def __init__(
        self, *, settings: CalcuttaSettings, plan: LotPlan, order: Sequence[LotId], bidders: Iterable[Bidder]
    ) -> None:
        self.settings = settings
        self.plan = plan
        self.order = check_order(plan, order)
        self.bidders = {bidder.id: bidder for bidder in bidders}
        self.status = AuctionStatus.SETUP
        self.current: LotId | None = None
        self.phase: dict[LotId, LotPhase] = {}
        self.bids: dict[LotId, list[Bid]] = {}
        self.sales: dict[LotId, Sale] = {}
        self.hammered: list[LotId] = []  # lots sold or passed, in order
        self.events: list[tuple[str, dict[str, Any]]] = []
        self._by_key: dict[str, Bid] = {}

    @classmethod
    def replay(
        cls,
        *,
        settings: CalcuttaSettings,
        plan: LotPlan,
        order: Sequence[LotId],
        bidders: Iterable[Bidder],
        events: Iterable[tuple[str, Mapping[str, Any]]],
    ) -> Auction:
        auction = cls(settings=settings, plan=plan, order=order, bidders=bidders)
        for action, arguments in events:
            if action not in cls.ACTIONS:
                raise CalcuttaError("unknown_action", f"'{action}' is not an auction action.", action=str(action))
            getattr(auction, action)(**arguments)
        return auction

    @classmethod
    def restore(
        cls,
        *,
        settings: CalcuttaSettings,
        plan: LotPlan,
        order: Sequence[LotId],
        bidders: Iterable[Bidder],
        status: str,
        current: LotId | None,
        lots: Mapping[LotId, Mapping[str, Any]],
    ) -> Auction:
        """The auction as `state()` describes it: `lots` maps each lot that has been up to its `phase`, `high`
        ((bidder, amount) or None), `sale` ((bidder, price) or None) and `hammer` (its place in the hammer order,
        or None). Its `events` start empty: they are the actions taken after the restore."""
        auction = cls(settings=settings, plan=plan, order=order, bidders=bidders)
        auction.status = AuctionStatus(status)
        auction.current = current
        hammered = []
        for lot_id, lot in lots.items():
            auction.phase[lot_id] = LotPhase(lot["phase"])
            high = lot.get("high")
            auction.bids[lot_id] = [] if high is None else [Bid(lot=lot_id, bidder=high[0], amount=high[1])]
            if lot.get("sale") is not None:
                bidder, price = lot["sale"]
                auction.sales[lot_id] = Sale(lot=lot_id, bidder=bidder, price=price)
            if lot.get("hammer") is not None:
                hammered.append((lot["hammer"], lot_id))
        auction.hammered = [lot_id for _index, lot_id in sorted(hammered)]
        return auction

    def state(self) -> dict[str, Any]:
        """Where the auction stands, in the shape `restore` takes: what every next action decides on."""
        lots = {}
        for lot_id, phase in self.phase.items():
            high = self.high_bid(lot_id)
            sale = self.sales.get(lot_id)
            lots[lot_id] = {
                "phase": str(phase),
                "high": None if high is None else (high.bidder, high.amount),
                "sale": None if sale is None else (sale.bidder, sale.price),
                "hammer": self.hammered.index(lot_id) if lot_id in self.hammered else None,
            }
        return {"status": str(self.status), "current": self.current, "lots": lots}

    def remember(self, bid: Bid) -> None:
        """An earlier bid carrying a key (a restored auction knows only the high bids): a retry with that key
        is then answered with it, and the key refused for a different bid, as after a replay."""
        if bid.key is not None:
            self._by_key[bid.key] = bid

    # --- reading -------------------------------------------------------------------------------------------

    def lot(self, lot_id: LotId) -> Lot:
        if lot_id == FIELD:
            return self.field
        return self.plan.lot(lot_id)

    @property
    def field(self) -> Lot:
        """The field as it stands: entrants in no lot, then those of passed lots in the order they were passed."""
        passed = [
            entrant
            for lot_id in self.hammered
            if lot_id != FIELD and self.phase[lot_id] == LotPhase.PASSED
            for entrant in self.plan.lot(lot_id).entrants
        ]
        return Lot(id=FIELD, entrants=self.plan.field.entrants + tuple(passed))

    def high_bid(self, lot_id: LotId) -> Bid | None:
        bids = self.bids.get(lot_id)
        return bids[-1] if bids else None

    def minimum_next_bid(self, lot_id: LotId) -> int:
        high = self.high_bid(lot_id)
        return self.settings.minimum_opening_bid if high is None else high.amount + self.settings.increment

    def next_lot(self) -> LotId | None:
        for lot_id in self.order:
            if lot_id not in self.phase:
                return lot_id
        if FIELD not in self.phase and self.field.entrants:
            return FIELD
        return None

    def result(self) -> AuctionResult:
        if self.status != AuctionStatus.CLOSED:
            raise CalcuttaError("auction_not_closed", "The auction is still running; close it first.")
        # a passed lot lives on only inside the field, so it is not a lot of the result
        kept = [lot_id for lot_id in self.hammered if lot_id == FIELD or self.phase[lot_id] == LotPhase.SOLD]
        passed = tuple(lot_id for lot_id in self.hammered if lot_id not in kept)
        return AuctionResult(lots=tuple(self.lot(lot_id) for lot_id in kept), sales=dict(self.sales), passed=passed)

    # --- acting --------------------------------------------------------------------------------------------

    def open(self) -> None:
        if self.status != AuctionStatus.SETUP:
            raise CalcuttaError("already_open", "The auction has already been opened.")
        self.status = AuctionStatus.OPEN
        self._record("open")

    def open_next_lot(self) -> LotId:
        self._require_running()
        if self.current is not None:
            raise CalcuttaError(
                "lot_running", f"Lot {self.current} is still up; sell or pass it first.", lot=self.current
            )
        lot_id = self.next_lot()
        if lot_id is None:
            raise CalcuttaError("nothing_left", "Every lot has been auctioned; close the auction.")
        self.current = lot_id
        self.phase[lot_id] = LotPhase.OPEN
        self.bids.setdefault(lot_id, [])
        self._record("open_next_lot")
        return lot_id

    def bid(self, *, lot: LotId, bidder: BidderId, amount: int, key: str | None = None) -> BidResult:
        if key is not None and key in self._by_key:
            earlier = self._by_key[key]
            if (earlier.lot, earlier.bidder, earlier.amount) != (lot, bidder, amount):
                raise CalcuttaError(
                    "key_reused", "This idempotency key was used for a different bid; send a new key for a new bid."
                )
            return BidResult(bid=earlier, placed=False)
        if self.status == AuctionStatus.SETUP:
            raise CalcuttaError("auction_not_open", "The auction has not opened yet.")
        if self.status == AuctionStatus.CLOSED:
            raise CalcuttaError("auction_closed", "The auction is closed; no more bids are taken.")
        phase = self.phase.get(lot)
        if phase == LotPhase.SOLD:
            sale = self.sales[lot]
            raise CalcuttaError(
                "lot_sold",
                f"Lot {lot} has been sold for {format_money(sale.price)}; bids on it are closed.",
                field="lot",
                lot=lot,
                price=format_money(sale.price),
            )
        if phase == LotPhase.PASSED:
            raise CalcuttaError(
                "lot_passed",
                f"Lot {lot} was passed into the field; bid on the field instead.",
                field="lot",
                lot=lot,
            )
        if lot != self.current:
            raise CalcuttaError("lot_not_open", f"Lot {lot} is not up for auction now.", field="lot", lot=lot)
        registered = self.bidders.get(bidder)
        if registered is None:
            raise CalcuttaError(
                "unknown_bidder", "Only registered bidders may bid; register with the auctioneer.", field="bidder"
            )
        if (
            not self.settings.self_bidding
            and registered.entrant is not None
            and registered.entrant in self.lot(lot).entrants
        ):
            raise CalcuttaError(
                "self_bid",
                "Players may not bid on a lot they are in at this Calcutta; ask about a buy-back.",
                field="bidder",
            )
        if isinstance(amount, bool) or not isinstance(amount, int):
            raise CalcuttaError("bad_amount", "A bid is a whole number of cents.", field="amount")
        high = self.high_bid(lot)
        if high is None and amount < self.settings.minimum_opening_bid:
            raise CalcuttaError(
                "below_minimum",
                f"The opening bid must be at least {format_money(self.settings.minimum_opening_bid)}.",
                field="amount",
                least=format_money(self.settings.minimum_opening_bid),
            )
        if high is not None:
            if amount < high.amount + self.settings.increment:
                raise CalcuttaError(
                    "below_increment",
                    f"The high bid is {format_money(high.amount)}; bid at least "
                    f"{format_money(high.amount + self.settings.increment)}.",
                    field="amount",
                    high=format_money(high.amount),
                    least=format_money(high.amount + self.settings.increment),
                )
            if high.bidder == bidder:
                raise CalcuttaError("already_high_bidder", "You already hold the high bid on this lot.", field="bidder")
        placed = Bid(lot=lot, bidder=bidder, amount=amount, key=key)
        self.bids[lot].append(placed)
        self.phase[lot] = LotPhase.OPEN
        if key is not None:
            self._by_key[key] = placed
        self._record("bid", lot=lot, bidder=bidder, amount=amount, key=key)
        return BidResult(bid=placed, placed=True)

    def going_once(self) -> None:
        lot_id = self._current_in(LotPhase.OPEN, "going once")
        if self.high_bid(lot_id) is None:
            raise CalcuttaError("no_bid", f"Lot {lot_id} has no bid yet; wait for one or pass the lot.", lot=lot_id)
        self.phase[lot_id] = LotPhase.GOING_ONCE
        self._record("going_once")

    def going_twice(self) -> None:
        lot_id = self._current_in(LotPhase.GOING_ONCE, "going twice")
        self.phase[lot_id] = LotPhase.GOING_TWICE
        self._record("going_twice")

    def sell(self) -> Sale:
        lot_id = self._current_in(LotPhase.GOING_TWICE, "sold")
        high = self.high_bid(lot_id)
        assert high is not None  # going once needed a bid, and bids are never removed
        sale = Sale(lot=lot_id, bidder=high.bidder, price=high.amount)
        self.sales[lot_id] = sale
        self._hammer(lot_id, LotPhase.SOLD)
        self._record("sell")
        return sale

    def pass_lot(self) -> None:
        lot_id = self._current_in(LotPhase.OPEN, "passed")
        high = self.high_bid(lot_id)
        if high is not None:
            raise CalcuttaError(
                "has_bids",
                f"Lot {lot_id} has a bid of {format_money(high.amount)}; sell it instead.",
                lot=lot_id,
                amount=format_money(high.amount),
            )
        self._hammer(lot_id, LotPhase.PASSED)
        self._record("pass_lot")

    def undo_last(self) -> LotId:
        """Take back the last hammer (sold or passed) before the next lot opens; the lot is up again."""
        self._require_running()
        if self.current is not None or not self.hammered:
            raise CalcuttaError(
                "nothing_to_undo", "Only the last sold or passed lot can be undone, before the next lot opens."
            )
        lot_id = self.hammered.pop()
        self.sales.pop(lot_id, None)
        self.phase[lot_id] = LotPhase.OPEN
        self.current = lot_id
        self._record("undo_last")
        return lot_id

    def close(self) -> AuctionResult:
        self._require_running()
        remaining = self.next_lot()
        if self.current is not None or remaining is not None:
            up = self.current if self.current is not None else remaining
            raise CalcuttaError(
                "lots_left", f"Lot {up} has not been sold or passed yet; finish it before closing.", lot=up
            )
        self.status = AuctionStatus.CLOSED
        self._record("close")
        return self.result()

    # --- helpers -------------------------------------------------------------------------------------------

    def _require_running(self) -> None:
        if self.status == AuctionStatus.SETUP:
            raise CalcuttaError("auction_not_open", "The auction has not opened yet.")
        if self.status == AuctionStatus.CLOSED:
            raise CalcuttaError("auction_closed", "The auction is closed.")

    def _current_in(self, phase: LotPhase, step: str) -> LotId:
        self._require_running()
        if self.current is None:
            raise CalcuttaError("no_lot_open", f"No lot is up, so it cannot be {step}; open the next lot.")
        if self.phase[self.current] != phase:
            raise CalcuttaError(
                "bad_step",
                f"Lot {self.current} is {self.phase[self.current].replace('_', ' ')}; it cannot be {step} now.",
            )
        return self.current

    def _hammer(self, lot_id: LotId, outcome: LotPhase) -> None:
        self.phase[lot_id] = outcome
        self.hammered.append(lot_id)
        self.current = None

    def _record(self, action: str, **arguments: Any) -> None:
        self.events.append((action, arguments))
