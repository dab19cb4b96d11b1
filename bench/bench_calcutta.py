"""Calcutta: the core (bid handling, replaying a whole auction, settling a large flight) and the Django layer (a bid
through the service late in a long auction, a bid after 10 and after 1,000 bids — the same cost, since a bid
restores the auction from the lot rows instead of replaying it —, the board's JSON), the latter in a throwaway
database."""

import statistics
import time
from datetime import UTC, datetime
from fractions import Fraction

from calcutta.core import (
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
    bench_django()
    bench_history()


def bench_history() -> None:
    """A bid through the service after 10 and after 1,000 bids on the lot that is up (median of 20 more)."""
    from bench.scratch import scratch_database
    from calcutta import services
    from tests.calcutta.rows import open_auction
    from tests.clubs.factories import ClubFactory, MembershipFactory

    with scratch_database():
        club = ClubFactory()
        director = MembershipFactory(club=club, role="director").player.user
        results = {}
        for history in (10, 1000):
            calcutta, bidders = open_auction(club, director, history, entrants=16, lots=12, bidders=4)
            calcutta = services.auctioneer_step(actor=director, calcutta=calcutta, action="open_next_lot")
            lot = calcutta.current_lot.number
            timings = []
            for n in range(history + 20):
                start = time.perf_counter()
                services.place_bid(
                    actor=director, calcutta=calcutta, lot_number=lot, bidder=bidders[n % 4], amount=100 * (n + 1)
                )
                if n >= history:
                    timings.append((time.perf_counter() - start) * 1000)
            results[history] = statistics.median(timings)
        print(f"calcutta_bid_after_10: {results[10]:.1f} ms")
        print(f"calcutta_bid_after_1000: {results[1000]:.1f} ms")
        print(f"calcutta_bid_ratio_1000_to_10: {results[1000] / results[10]:.2f} x (goal <= 1.2)")


def bench_django() -> None:
    """A 40-entrant flight sold as 36 lots with 8 bids each, then bids on the field: each bid replays ~450 steps
    under the row lock (the hot path of a live auction); and the board every phone polls."""
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from bench.scratch import scratch_database
    from calcutta import services
    from tests.calcutta.rows import make_flight
    from tests.clubs.factories import ClubFactory, MembershipFactory

    with scratch_database():
        club = ClubFactory()
        director = MembershipFactory(club=club, role="director").player.user
        flight = make_flight(club, names=[f"Entrant {n}" for n in range(40)])
        calcutta = services.create_calcutta(
            actor=director,
            flight=flight,
            payout_places=["50", "25", "15", "10"],
            minimum_opening_bid=100,
            increment=100,
        )
        entries = list(flight.entries.order_by("pk").values_list("pk", flat=True))
        services.set_lots(actor=director, calcutta=calcutta, groups=[[pk] for pk in entries[:36]])
        bidders = [services.register_bidder(actor=director, calcutta=calcutta, name=f"bidder {n}") for n in range(20)]
        step = services.auctioneer_step
        step(actor=director, calcutta=calcutta, action="open")
        for _lot in range(36):
            calcutta = step(actor=director, calcutta=calcutta, action="open_next_lot")
            for n in range(8):
                services.place_bid(
                    actor=director,
                    calcutta=calcutta,
                    lot_number=calcutta.current_lot.number,
                    bidder=bidders[n % 20],
                    amount=100 * (n + 1),
                )
            for action in ("going_once", "going_twice", "sell"):
                calcutta = step(actor=director, calcutta=calcutta, action=action)
        calcutta = step(actor=director, calcutta=calcutta, action="open_next_lot")
        timings = []
        for n in range(20):
            start = time.perf_counter()
            services.place_bid(
                actor=director,
                calcutta=calcutta,
                lot_number=0,
                bidder=bidders[n % 20],
                amount=100 * (n + 1),
                idempotency_key=f"bench-{n}",
            )
            timings.append((time.perf_counter() - start) * 1000)
        print(
            f"calcutta_bid_service_after_{calcutta.steps}_steps: {statistics.median(timings):.1f} ms (goal <= 100 ms)"
        )
        client = Client()
        url = f"/api/v1/calcuttas/{calcutta.pk}/board/"
        timings = []
        for _ in range(20):
            connection.queries_log.clear()  # a full log (DEBUG keeps the last 9000) would hide the count
            start = time.perf_counter()
            with CaptureQueriesContext(connection) as queries:
                client.get(url)
            timings.append((time.perf_counter() - start) * 1000)
        print(f"calcutta_board_37_lots: {statistics.median(timings):.1f} ms (goal <= 100 ms)")
        print(f"calcutta_board_37_lots_queries: {len(queries)} queries (goal <= 8)")
