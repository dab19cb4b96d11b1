from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from calcutta.core import (
    FIELD,
    CalcuttaError,
    Ownership,
    PayoutTable,
    Results,
    entrant_shares,
    house_take,
    place_for_elimination,
    settle,
)

from .builders import make_settings, run_auction

ENTRANTS = [f"e{n}" for n in range(1, 9)]  # a flight of eight
SEMIS = Results(places={"e1": 1, "e2": 2, "e3": 3, "e4": 3})


def refused(call, code: str) -> str:
    with pytest.raises(CalcuttaError) as error:
        call()
    assert error.value.code == code
    return error.value.message


def singles_auction(prices: dict, *, payout: PayoutTable | None = None, take: str = "10"):
    """e1…e6 sold one each as lots 1…6, e7 and e8 in the field."""
    settings_ = make_settings(
        payout=payout or PayoutTable.of(["50", "30", "10", "10"]), house_take_percent=Decimal(take)
    )
    auction = run_auction(entrants=ENTRANTS, groups=[[f"e{n}"] for n in range(1, 7)], prices=prices)
    return settings_, Ownership.from_auction(auction.result())


def test_place_for_elimination():
    assert [place_for_elimination(n) for n in (2, 4, 8, 16)] == [2, 3, 5, 9]
    refused(lambda: place_for_elimination(6), "bad_round")


def test_tied_semi_finalists_share_their_places_percentages_equally():
    shares = entrant_shares(PayoutTable.of(["50", "25", "15", "10"]), SEMIS, frozenset(ENTRANTS))
    assert shares == {"e1": Fraction(1, 2), "e2": Fraction(1, 4), "e3": Fraction(1, 8), "e4": Fraction(1, 8)}


def test_a_tie_reaching_past_the_table_shares_what_the_table_pays():
    shares = entrant_shares(PayoutTable.of(["50", "30", "20"]), SEMIS, frozenset(ENTRANTS))
    assert shares["e3"] == shares["e4"] == Fraction(1, 10)


def test_the_consolation_winner_gets_their_percentage_on_top_of_any_place():
    table = PayoutTable.of(["50", "25"], consolation_winner="25")
    results = Results(places={"e1": 1, "e2": 2}, consolation_winner="e7")
    assert entrant_shares(table, results, frozenset(ENTRANTS))["e7"] == Fraction(1, 4)
    refused(lambda: entrant_shares(table, Results(places={"e1": 1, "e2": 2}), frozenset(ENTRANTS)), "unfilled_place")


@pytest.mark.parametrize(
    "places, code",
    [
        ({"e1": 1, "e2": 2}, "unfilled_place"),  # the semi-finals are not decided yet
        ({"e1": 1, "e2": 3, "e3": 3}, "bad_places"),  # no finalist
        ({"e1": 1, "e2": 2, "e3": 3, "e4": 4, "e5": 4, "e6": 5}, "bad_places"),  # two tied at 4 take 4 and 5
        ({"e1": 1, "zed": 2}, "unknown_entrant"),
        ({"e1": 0}, "bad_place"),
    ],
)
def test_results_that_cannot_be_settled_are_refused_with_what_is_missing(places, code):
    table = PayoutTable.of(["50", "30", "10", "10"])
    refused(lambda: entrant_shares(table, Results(places=places), frozenset(ENTRANTS)), code)


def test_house_take_is_rounded_down_to_the_cent():
    settings_ = make_settings(house_take_percent=Decimal("7.5"))
    assert house_take(1001, settings_) == 75  # 75.075 cents → 75
    assert house_take(1000, settings_) == 75


def test_settlement_pays_each_lot_by_its_entrants_finish_and_reports_paid_in_won_net():
    prices = {1: ("olga", 10000), 2: ("paul", 8000), 3: ("olga", 5000), 4: ("quinn", 4000), 5: None, 6: None}
    prices[FIELD] = ("rita", 3000)
    settings_, ownership = singles_auction(prices)
    results = Results(places={"e1": 1, "e8": 2, "e3": 3, "e5": 3})  # a field player reached the final
    result = settle(settings=settings_, ownership=ownership, results=results)
    assert (result.pool, result.house_take, result.net_pool, result.unclaimed) == (30000, 3000, 27000, 0)
    # e5 was passed into the field, so the field (rita) holds e8's 30% and e5's 10%
    assert result.lot_prizes == {1: 13500, 2: 0, 3: 2700, 4: 0, FIELD: 10800}
    olga = result.owner("olga")
    assert (olga.paid_in, olga.won, olga.net) == (15000, 16200, -1200)
    assert result.owner("paul").net == 8000
    assert sum(line.won for line in result.owners) == result.net_pool


def test_prizes_won_by_an_unsold_field_are_reported_as_unclaimed():
    prices = dict.fromkeys(range(1, 7), ("olga", 1000)) | {FIELD: None}
    settings_, ownership = singles_auction(prices)
    result = settle(
        settings=settings_, ownership=ownership, results=Results(places={"e7": 1, "e1": 2, "e2": 3, "e3": 3})
    )
    assert result.net_pool == 5400 and result.unclaimed == 2700
    assert result.owner("olga").won == 2700


def test_a_corrected_result_is_a_recomputation_and_settling_is_deterministic():
    prices = {n: (bidder, 1001 * n) for n, bidder in zip(range(1, 7), "abcabc", strict=True)} | {FIELD: ("d", 777)}
    settings_, ownership = singles_auction(prices, payout=PayoutTable.of(["33.34", "33.33", "16.665", "16.665"]))
    ownership = ownership.form_syndicate(lot=1, holder="a", shares={"a": "1/3", "e": "1/3", "f": "1/3"})
    reported = Results(places={"e1": 1, "e2": 2, "e3": 3, "e4": 3})
    corrected = Results(places={"e2": 1, "e1": 2, "e3": 3, "e4": 3})
    first = settle(settings=settings_, ownership=ownership, results=reported)
    fixed = settle(settings=settings_, ownership=ownership, results=corrected)
    assert first != fixed
    assert fixed == settle(settings=settings_, ownership=ownership, results=corrected)
    assert first == settle(settings=settings_, ownership=ownership, results=reported)
    for result in (first, fixed):
        assert sum(result.payouts.values()) == result.net_pool


# --- properties ------------------------------------------------------------------------------------------------

bidders = st.sampled_from(["olga", "paul", "quinn", "rita"])
sale = st.one_of(st.none(), st.tuples(bidders, st.integers(1, 10**6)))
payouts = st.sampled_from(
    [
        ["100"],
        ["70", "30"],
        ["50", "30", "10", "10"],
        ["40", "30", "15", "15"],
        ["33.34", "33.33", "33.33"],
        ["60", "25", "7.5", "7.5"],
    ]
)


@st.composite
def calcutta(draw):
    n = draw(st.integers(4, 16))
    entrants = [f"e{i}" for i in range(n)]
    lot_count = draw(st.integers(0, n))
    groups, position = [], 0
    for _ in range(lot_count):
        size = draw(st.integers(1, 2))
        if position + size > n:
            break
        groups.append(entrants[position : position + size])
        position += size
    prices = {lot: draw(sale) for lot in range(1, len(groups) + 1)} | {FIELD: draw(sale)}
    take = draw(st.decimals(min_value=0, max_value=30, places=2))
    table = PayoutTable.of(draw(payouts))
    settings_ = make_settings(payout=table, house_take_percent=take)
    auction = run_auction(entrants=entrants, groups=groups, prices=prices)
    ownership = Ownership.from_auction(auction.result())
    for lot_id in list(ownership.holdings):
        if draw(st.booleans()):
            members = draw(st.dictionaries(bidders, st.integers(1, 9), min_size=1, max_size=3))
            total = sum(members.values())
            holder = ownership.owners(lot_id)[0][0]
            ownership = ownership.form_syndicate(
                lot=lot_id, holder=holder, shares={m: Fraction(w, total) for m, w in members.items()}
            )
    order = draw(st.permutations(entrants))
    places = {order[0]: 1, order[1]: 2, order[2]: 3, order[3]: 3}
    places |= dict.fromkeys(order[4:8], 5) if n >= 8 and draw(st.booleans()) else {}
    return settings_, ownership, Results(places=places)


@settings(max_examples=200, deadline=None)
@given(case=calcutta())
def test_payouts_sum_to_the_pool_net_of_the_take_and_each_net_is_paid_in_minus_won(case):
    settings_, ownership, results = case
    result = settle(settings=settings_, ownership=ownership, results=results)
    assert result.pool == ownership.total == sum(line.paid_in for line in result.owners)
    assert result.net_pool == result.pool - result.house_take
    assert sum(line.won for line in result.owners) + result.unclaimed == result.net_pool
    assert sum(result.payouts.values()) + result.unclaimed == result.net_pool
    for line in result.owners:
        assert line.net == line.paid_in - line.won
    assert sum(line.net for line in result.owners) == result.house_take + result.unclaimed
    for lot_id, prize in result.lot_prizes.items():
        assert sum(amount for (lot, _), amount in result.payouts.items() if lot == lot_id) == prize
    assert result == settle(settings=settings_, ownership=ownership, results=results)


def test_a_table_paying_more_places_than_there_are_entrants_is_refused_with_what_to_change():
    table = PayoutTable.of(["50", "30", "10", "10"])
    message = refused(
        lambda: entrant_shares(table, Results(places={"a": 1, "b": 2, "c": 3}), frozenset("abc")),
        "table_longer_than_field",
    )
    assert "shorten the table" in message
