"""Each Calcutta write restores the auction from the lot rows instead of replaying every stored step, so the
rows must always say what a replay says — after any mix of bids, retried keys and auctioneer steps, refused
ones included — and a bid must cost the same queries after 200 bids as after 10."""

import pytest
from django.core.exceptions import ValidationError
from django.db import connection
from django.test.utils import CaptureQueriesContext
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from base.api import Conflict
from base.errors import DomainError
from calcutta import services
from calcutta.models import Bid
from calcutta.services.state import check_rows
from tests.calcutta.rows import open_auction
from tournaments.models import Event

pytestmark = pytest.mark.django_db

STEPS = ["open_next_lot", "going_once", "going_twice", "sell", "pass_lot", "undo_last", "close"]

moves = st.lists(
    st.one_of(
        st.tuples(st.just("bid"), st.integers(0, 2), st.integers(0, 3), st.integers(0, 5)),
        st.tuples(st.sampled_from(STEPS)),
    ),
    min_size=5,
    max_size=30,
)


def new_calcutta(club, director, n: int):
    return open_auction(club, director, n)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=moves)
def test_the_lot_rows_always_say_what_a_replay_of_the_steps_says(club, director_user, steps):
    calcutta, bidders = new_calcutta(club, director_user, Event.objects.count())
    for index, step in enumerate(steps):
        calcutta.refresh_from_db()
        try:
            if step[0] == "bid":
                _, who, lot, raise_by = step
                high = calcutta.lots.filter(number=lot).values_list("high_bid", flat=True).first() or 0
                services.place_bid(
                    actor=director_user,
                    calcutta=calcutta,
                    lot_number=lot,
                    bidder=bidders[who],
                    amount=high + 100 * raise_by,
                    idempotency_key=f"k{index % 4}",  # keys come back: retries and reuses
                )
            else:
                services.auctioneer_step(actor=director_user, calcutta=calcutta, action=step[0])
        except (Conflict, DomainError, ValidationError):
            pass  # refused: the rows must still agree with the replay
        calcutta.refresh_from_db()
        assert check_rows(calcutta)


def bid_queries(calcutta, director, bidders, bids: int) -> int:
    services.auctioneer_step(actor=director, calcutta=calcutta, action="open_next_lot")
    calcutta.refresh_from_db()
    lot = calcutta.current_lot.number
    for n in range(bids):
        services.place_bid(
            actor=director, calcutta=calcutta, lot_number=lot, bidder=bidders[n % 3], amount=100 * (n + 1)
        )
    with CaptureQueriesContext(connection) as queries:
        services.place_bid(
            actor=director,
            calcutta=calcutta,
            lot_number=lot,
            bidder=bidders[bids % 3],
            amount=100 * (bids + 1),
            idempotency_key="last",
        )
    return len(queries)


def test_a_bid_costs_the_same_queries_after_200_bids_as_after_10(club, director_user):
    short = new_calcutta(club, director_user, 1)
    long = new_calcutta(club, director_user, 2)
    after_10 = bid_queries(*short[:1], director_user, short[1], 10)
    after_200 = bid_queries(*long[:1], director_user, long[1], 200)
    assert after_10 == after_200
    assert after_200 <= 18
    assert Bid.objects.filter(calcutta=long[0]).count() == 201


def test_a_retried_key_answers_the_first_bid_even_after_later_bids(club, director_user):
    calcutta, bidders = new_calcutta(club, director_user, 3)
    services.auctioneer_step(actor=director_user, calcutta=calcutta, action="open_next_lot")
    calcutta.refresh_from_db()
    lot = calcutta.current_lot.number
    first, created = services.place_bid(
        actor=director_user, calcutta=calcutta, lot_number=lot, bidder=bidders[0], amount=100, idempotency_key="a"
    )
    services.place_bid(actor=director_user, calcutta=calcutta, lot_number=lot, bidder=bidders[1], amount=200)
    again, created_again = services.place_bid(
        actor=director_user, calcutta=calcutta, lot_number=lot, bidder=bidders[0], amount=100, idempotency_key="a"
    )
    assert created and not created_again and again.pk == first.pk
    with pytest.raises(DomainError) as refused:
        services.place_bid(
            actor=director_user, calcutta=calcutta, lot_number=lot, bidder=bidders[0], amount=300, idempotency_key="a"
        )
    assert refused.value.code == "key_reused"
