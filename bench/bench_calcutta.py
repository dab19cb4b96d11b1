"""Calcutta core: bid handling, replaying a whole auction from its events, and settling a large flight."""

import statistics
import time
from datetime import UTC, datetime
from fractions import Fraction

from tournaments.calcutta.core import (
    FIELD,
    Auction,
    Bidder,
    CalcuttaSettings,
    LotPlan,
    Ownership,
    PayoutTable,
    Results,
    settle,
)

ENTRANTS = [f"e{n}" for n in range(128)]
BIDDERS = [Bidder(id=f"b{n}") for n in range(40)] + [Bidder(id=f"p{n}", entrant=f"e{n}") for n in range(128)]
SETTINGS = CalcuttaSettings(payout=PayoutTable.of(["40", "20", "10", "10", "5", "5", "5", "5"]))


def run_auction(bids_per_lot: int) -> tuple[Auction, float]:
    plan = LotPlan.build(ENTRANTS, [[entrant] for entrant in ENTRANTS[:120]])  # 8 left for the field
    auction = Auction(settings=SETTINGS, plan=plan, order=[lot.id for lot in plan.lots], bidders=BIDDERS)
    auction.open()
    bid_seconds = 0.0
    while auction.next_lot() is not None:
        lot = auction.open_next_lot()
        for n in range(bids_per_lot):
            start = time.perf_counter()
            auction.bid(lot=lot, bidder=f"b{n % 40}", amount=1000 + 100 * n, key=f"{lot}-{n}")
            bid_seconds += time.perf_counter() - start
        auction.going_once()
        auction.going_twice()
        auction.sell()
    auction.close()
    return auction, bid_seconds


def main() -> None:
    bids_per_lot = 20
    auction, bid_seconds = run_auction(bids_per_lot)
    print(f"calcutta_bid: {bid_seconds / (121 * bids_per_lot) * 1e6:.1f} us")

    start = time.perf_counter()
    Auction.replay(settings=SETTINGS, plan=auction.plan, order=auction.order, bidders=BIDDERS, events=auction.events)
    print(f"calcutta_replay_{len(auction.events)}_events: {(time.perf_counter() - start) * 1000:.1f} ms")

    ownership = Ownership.from_auction(auction.result())
    noon = datetime(2026, 11, 22, 12, tzinfo=UTC)
    for lot_id, holdings in list(ownership.holdings.items()):
        holder = next(iter(holdings))
        ownership = ownership.form_syndicate(
            lot=lot_id, holder=holder, shares={f"s{n}": Fraction(1, 7) for n in range(7)}
        )
        if lot_id != FIELD:
            player = Bidder(
                id=f"p{ENTRANTS.index(ownership.lot(lot_id).entrants[0])}", entrant=ownership.lot(lot_id).entrants[0]
            )
            ownership = ownership.buy_back(lot=lot_id, player=player, share="1/3", at=noon, settings=SETTINGS)
    places = {"e0": 1, "e64": 2, "e32": 3, "e96": 3} | {f"e{n}": 5 for n in (16, 48, 80, 127)}
    timings = []
    for _ in range(10):
        start = time.perf_counter()
        settle(settings=SETTINGS, ownership=ownership, results=Results(places=places))
        timings.append((time.perf_counter() - start) * 1000)
    holdings = sum(len(owners) for owners in ownership.holdings.values())
    print(f"calcutta_settle_128_entrants_{holdings}_holdings: {statistics.median(timings):.1f} ms")
