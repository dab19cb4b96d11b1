"""Small helpers that run a real Auction to produce the inputs of ownership and settlement tests."""

from collections.abc import Mapping, Sequence
from decimal import Decimal

from calcutta.core import FIELD, Auction, Bidder, CalcuttaSettings, LotPlan, PayoutTable


def make_settings(**overrides) -> CalcuttaSettings:
    values = {
        "payout": PayoutTable.of(["50", "30", "10", "10"]),
        "house_take_percent": Decimal(10),
        "minimum_opening_bid": 1000,
        "increment": 500,
    }
    values.update(overrides)
    return CalcuttaSettings(**values)


def run_auction(
    *,
    entrants: Sequence[str],
    groups: Sequence[Sequence[str]],
    prices: Mapping[object, tuple[str, int] | None],
    bidders: Sequence[Bidder] | None = None,
    settings: CalcuttaSettings | None = None,
) -> Auction:
    """Auction `groups` (lots 1, 2, … then the field) selling each lot to (bidder, price) or passing it (None)."""
    plan = LotPlan.build(entrants, groups)
    settings = settings or make_settings(minimum_opening_bid=1, increment=1)
    if bidders is None:
        names = {sale[0] for sale in prices.values() if sale is not None}
        bidders = [Bidder(id=name) for name in sorted(names)]
    auction = Auction(settings=settings, plan=plan, order=[lot.id for lot in plan.lots], bidders=bidders)
    auction.open()
    while (lot_id := auction.next_lot()) is not None:
        auction.open_next_lot()
        sale = prices.get(lot_id if lot_id != FIELD else FIELD)
        if sale is None:
            auction.pass_lot()
            continue
        auction.bid(lot=lot_id, bidder=sale[0], amount=sale[1])
        auction.going_once()
        auction.going_twice()
        auction.sell()
    auction.close()
    return auction
