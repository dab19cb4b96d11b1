from datetime import UTC, datetime
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from calcutta.core import FIELD, Bidder, CalcuttaError, Ownership

from .builders import make_settings, run_auction

ANN = Bidder(id="ann-bids", entrant="ann")
CAT = Bidder(id="cat-bids", entrant="cat")
NOON = datetime(2026, 11, 22, 12, tzinfo=UTC)
SETTINGS = make_settings(buy_back_deadline=NOON)


def sold() -> Ownership:
    auction = run_auction(
        entrants=["ann", "ben", "cat", "dan", "eve"],
        groups=[["ann"], ["cat", "dan"], ["ben"]],
        prices={1: ("olga", 10000), 2: ("paul", 6001), 3: None, FIELD: ("quinn", 2500)},
    )
    return Ownership.from_auction(auction.result())


def refused(call, code: str) -> str:
    with pytest.raises(CalcuttaError) as error:
        call()
    assert error.value.code == code
    return error.value.message


def test_each_buyer_owns_their_lot_and_owes_its_price():
    ownership = sold()
    assert ownership.owners(1) == [("olga", 1)]
    assert ownership.amounts_due() == {"olga": 10000, "paul": 6001, "quinn": 2500}
    assert ownership.total == 18501


def test_a_syndicate_splits_the_holding_and_the_price_to_the_cent():
    ownership = sold().form_syndicate(lot=2, holder="paul", shares={"paul": "1/3", "rita": "1/3", "sam": "1/3"})
    assert ownership.owners(2) == [("paul", Fraction(1, 3)), ("rita", Fraction(1, 3)), ("sam", Fraction(1, 3))]
    # 60.01 in thirds: 20.003… each; the one cent left over goes to the first in bidder-id order
    assert ownership.amounts_due_by_lot(2) == {"paul": 2001, "rita": 2000, "sam": 2000}


def test_syndicate_shares_must_total_100_percent():
    message = refused(
        lambda: sold().form_syndicate(lot=1, holder="olga", shares={"olga": "50%", "rita": "40%"}), "shares_not_100"
    )
    assert "90%" in message
    refused(lambda: sold().form_syndicate(lot=1, holder="paul", shares={"paul": "1"}), "not_an_owner")


def test_a_player_buys_back_a_share_of_themselves_at_the_same_fraction_of_the_price():
    ownership = sold().buy_back(lot=1, player=ANN, share="1/2", at=NOON, settings=SETTINGS)
    assert dict(ownership.owners(1)) == {"ann-bids": Fraction(1, 2), "olga": Fraction(1, 2)}
    assert ownership.amounts_due_by_lot(1) == {"ann-bids": 5000, "olga": 5000}


def test_the_buy_back_is_taken_from_every_owner_in_proportion():
    ownership = sold().form_syndicate(lot=1, holder="olga", shares={"olga": "3/4", "rita": "1/4"})
    ownership = ownership.buy_back(lot=1, player=ANN, share="0.2", at=NOON, settings=SETTINGS)
    assert dict(ownership.owners(1)) == {"olga": Fraction(3, 5), "rita": Fraction(1, 5), "ann-bids": Fraction(1, 5)}


def test_buy_back_limit_is_of_the_players_own_part_and_adds_up_over_several_buy_backs():
    ownership = sold()
    # lot 2 is cat and dan: each may buy back half of their half, a quarter of the lot
    message = refused(
        lambda: ownership.buy_back(lot=2, player=CAT, share="0.3", at=NOON, settings=SETTINGS), "over_buy_back_limit"
    )
    assert "at most 25%" in message
    ownership = ownership.buy_back(lot=1, player=ANN, share="0.3", at=NOON, settings=SETTINGS)
    message = refused(
        lambda: ownership.buy_back(lot=1, player=ANN, share="0.3", at=NOON, settings=SETTINGS), "over_buy_back_limit"
    )
    assert "30% already" in message


@pytest.mark.parametrize(
    "lot, player, at, code",
    [
        (FIELD, Bidder(id="eve-bids", entrant="eve"), NOON, "no_buy_back_on_field"),
        (1, CAT, NOON, "not_in_lot"),
        (1, ANN, datetime(2026, 11, 22, 12, 1, tzinfo=UTC), "buy_back_closed"),
        (3, Bidder(id="ben-bids", entrant="ben"), NOON, "lot_passed"),
        (9, ANN, NOON, "unknown_lot"),
    ],
)
def test_buy_back_refusals(lot, player, at, code):
    refused(lambda: sold().buy_back(lot=lot, player=player, share="0.1", at=at, settings=SETTINGS), code)


def test_no_buy_backs_when_the_director_turns_them_off():
    off = make_settings(buy_back_limit=Fraction(0))
    refused(lambda: sold().buy_back(lot=1, player=ANN, share="0.1", at=NOON, settings=off), "buy_back_off")


owners = st.sampled_from(["olga", "paul", "quinn", "rita", "sam", "ann-bids"])
syndicate = st.dictionaries(owners, st.integers(1, 7), min_size=1, max_size=4)


@settings(max_examples=200, deadline=None)
@given(
    splits=st.lists(st.tuples(st.sampled_from([1, 2, FIELD]), syndicate), max_size=5),
    buy_back=st.fractions(min_value=Fraction(1, 1000), max_value=Fraction(1, 2)),
)
def test_ownership_fractions_of_each_lot_always_sum_to_one_and_amounts_due_to_the_total(splits, buy_back):
    ownership = sold()
    for lot, weights in splits:
        holder = ownership.owners(lot)[0][0]
        total = sum(weights.values())
        ownership = ownership.form_syndicate(
            lot=lot, holder=holder, shares={member: Fraction(w, total) for member, w in weights.items()}
        )
    try:
        ownership = ownership.buy_back(lot=1, player=ANN, share=buy_back, at=NOON, settings=SETTINGS)
    except CalcuttaError as error:
        assert error.code == "nothing_to_buy_back"  # ann-bids already held (almost) all of it via a syndicate
    for lot_id in ownership.holdings:
        assert sum(share for _, share in ownership.owners(lot_id)) == 1
        assert all(share > 0 for _, share in ownership.owners(lot_id))
    assert sum(ownership.amounts_due().values()) == ownership.total


def test_an_unsold_field_has_no_owner():
    auction = run_auction(entrants=["ann", "ben"], groups=[["ann"]], prices={1: ("olga", 1000), FIELD: None})
    ownership = Ownership.from_auction(auction.result())
    refused(lambda: ownership.form_syndicate(lot=FIELD, holder="olga", shares={"olga": "1"}), "lot_not_sold")


def test_a_player_who_bought_their_own_lot_has_nobody_to_buy_back_from():
    allowed = make_settings(self_bidding=True, minimum_opening_bid=1, increment=1)
    auction = run_auction(
        entrants=["ann", "ben"],
        groups=[["ann"]],
        prices={1: ("ann-bids", 1000), FIELD: ("olga", 500)},
        bidders=[ANN, Bidder(id="olga")],
        settings=allowed,
    )
    ownership = Ownership.from_auction(auction.result())
    refused(
        lambda: ownership.buy_back(lot=1, player=ANN, share="0.1", at=NOON, settings=allowed), "nothing_to_buy_back"
    )
