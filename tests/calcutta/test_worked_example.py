"""The worked example of docs/calcutta.md, run through the core: the report printed there must be what it computes."""

import re
from datetime import UTC, datetime
from decimal import Decimal
from fractions import Fraction

from calcutta.core import (
    Auction,
    Bidder,
    CalcuttaSettings,
    LotPlan,
    Ownership,
    PayoutTable,
    Results,
    format_settlement,
    settle,
)
from tests.paths import REPO

DOC = REPO / "docs" / "calcutta.md"
ENTRANTS = ["Anna", "Bernd", "Clara", "Dieter", "Eva", "Felix", "Greta", "Hans"]
BIDDERS = [Bidder(id=name) for name in ("olga", "paul", "quinn", "rita")] + [Bidder(id="anna", entrant="Anna")]


def worked_example():
    settings = CalcuttaSettings(
        payout=PayoutTable.of(["50", "25", "15", "10"]),
        house_take_percent=Decimal(10),
        minimum_opening_bid=1000,
        increment=500,
        buy_back_limit=Fraction(1, 2),
        buy_back_deadline=datetime(2026, 11, 22, 10, 0, tzinfo=UTC),
    )
    plan = LotPlan.build(ENTRANTS, [["Anna"], ["Bernd"], ["Clara", "Dieter"], ["Eva"]])
    auction = Auction(settings=settings, plan=plan, order=[1, 2, 3, 4], bidders=BIDDERS)
    auction.open()
    for bids in ([("paul", 10000), ("olga", 12000)], [("paul", 8500)], [("quinn", 6001)], [], [("rita", 4500)]):
        lot = auction.open_next_lot()
        if not bids:
            auction.pass_lot()
            continue
        for bidder, amount in bids:
            auction.bid(lot=lot, bidder=bidder, amount=amount)
        auction.going_once()
        auction.going_twice()
        auction.sell()
    result = auction.close()
    ownership = Ownership.from_auction(result)
    ownership = ownership.form_syndicate(lot=2, holder="paul", shares={"paul": "1/3", "sara": "1/3", "tom": "1/3"})
    ownership = ownership.buy_back(
        lot=1, player=BIDDERS[-1], share="25%", at=datetime(2026, 11, 22, 9, 30, tzinfo=UTC), settings=settings
    )
    results = Results(places={"Bernd": 1, "Greta": 2, "Anna": 3, "Clara": 3})
    return auction, ownership, settle(settings=settings, ownership=ownership, results=results)


def test_the_worked_example_in_the_docs_is_what_the_core_computes():
    auction, ownership, settlement = worked_example()
    assert auction.result().lots[-1].entrants == ("Felix", "Greta", "Hans", "Eva")
    assert ownership.amounts_due() == {
        "anna": 3000,
        "olga": 9000,
        "paul": 2834,
        "quinn": 6001,
        "rita": 4500,
        "sara": 2833,
        "tom": 2833,
    }
    assert dict(settlement.lot_prizes) == {1: 3488, 2: 13950, 3: 3488, "field": 6975}
    report = format_settlement(settlement)
    blocks = re.findall(r"```text\n(.*?)```", DOC.read_text(), flags=re.S)
    assert report + "\n" in blocks
