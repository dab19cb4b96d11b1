"""Simultaneous bids on PostgreSQL: the Calcutta row lock makes exactly one of two equal bids the high bid, and a
retried bid with the same idempotency key is placed once.

Each thread sends a real API request through its own database connection; every request is slowed down right
after it took the lock so the two always overlap. The last test takes the lock away: then both requests read
"no bid yet" and only the database's unique step number stops the second insert (409) — the lock is what makes
the requests line up and gives the loser a clear "bid at least …" instead.
"""

import pytest

from calcutta import services
from calcutta.models import Bid, Calcutta
from calcutta.services import auction as bidding
from tests.calcutta.rows import entry_ids, make_flight
from tests.clubs.factories import ClubFactory, MembershipFactory
from tests.schema_check import SchemaCheckingClient, api_schema
from tests.services.concurrency import post_at_once, second_while_first_is_held, then_wait

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def auction():
    club = ClubFactory()
    director = MembershipFactory(club=club, role="director").player.user
    flight = make_flight(club)
    calcutta = services.create_calcutta(
        actor=director, flight=flight, payout_places=["100"], minimum_opening_bid=1000, increment=500
    )
    services.set_lots(actor=director, calcutta=calcutta, groups=[entry_ids(flight, "Anna")])
    paul = services.register_bidder(actor=director, calcutta=calcutta, name="paul")
    olga = services.register_bidder(actor=director, calcutta=calcutta, name="olga")
    for action in ("open", "open_next_lot"):
        services.auctioneer_step(actor=director, calcutta=calcutta, action=action)
    return calcutta, director, paul, olga


@pytest.fixture
def slow_lock(monkeypatch):
    monkeypatch.setattr(bidding, "lock", then_wait(bidding.lock))


@pytest.fixture
def no_lock(monkeypatch):
    """The lock taken away: both requests read the Calcutta and its bids, then wait, then decide and write."""
    monkeypatch.setattr(
        bidding, "lock", lambda calcutta, **_: Calcutta.objects.select_related("flight__event").get(pk=calcutta.pk)
    )
    monkeypatch.setattr(bidding, "load", then_wait(bidding.load))


def at_once(user, *requests):
    """POST the (path, body) requests at the same instant from separate threads; return (status, json) each."""
    return post_at_once(*[(user, path, body) for path, body in requests])


def simultaneously(user, path, *bodies):
    return at_once(user, *[(path, body) for body in bodies])


def bids_url(calcutta):
    return f"/api/v1/calcuttas/{calcutta.pk}/bids/"


def two_equal_opening_bids(calcutta, director, *bidders):
    bodies = [{"lot": 1, "bidder": bidder.pk, "amount": "10.00"} for bidder in bidders]
    return simultaneously(director, bids_url(calcutta), *bodies)


def test_two_equal_bids_at_once_make_exactly_one_high_bid(auction, slow_lock):
    calcutta, director, paul, olga = auction
    answers = two_equal_opening_bids(calcutta, director, paul, olga)
    assert sorted(status for status, _ in answers) == [201, 400]
    refused = next(body for status, body in answers if status == 400)
    assert refused["errors"] == {"amount": ["Bid at least 15.00."]}  # the second saw the first one's bid
    assert Bid.objects.filter(calcutta=calcutta).count() == 1
    lot = calcutta.lots.get(number=1)
    winner = next(body for status, body in answers if status == 201)
    assert (lot.high_bid, lot.high_bidder_id) == (1000, winner["bidder"])


def test_a_retried_bid_with_the_same_key_is_placed_once(auction, slow_lock):
    calcutta, director, paul, _ = auction
    body = {"lot": 1, "bidder": paul.pk, "amount": "10.00", "idempotency_key": "phone-7"}
    answers = simultaneously(director, bids_url(calcutta), body, body)
    assert sorted(status for status, _ in answers) == [200, 201]
    assert answers[0][1]["id"] == answers[1][1]["id"]
    assert Bid.objects.filter(calcutta=calcutta).count() == 1


def test_a_bid_racing_the_hammer_is_refused_or_counted_never_lost(auction, slow_lock):
    calcutta, director, paul, olga = auction
    services.place_bid(actor=director, calcutta=calcutta, lot_number=1, bidder=paul, amount=1000)
    for action in ("going_once", "going_twice"):
        services.auctioneer_step(actor=director, calcutta=calcutta, action=action)
    (sell, _), (bid, _) = at_once(
        director,
        (f"/api/v1/calcuttas/{calcutta.pk}/auctioneer/", {"action": "sell"}),
        (bids_url(calcutta), {"lot": 1, "bidder": olga.pk, "amount": "15.00"}),
    )
    answers = {"sell": sell, "bid": bid}
    lot = calcutta.lots.get(number=1)
    if answers["bid"] == 201:  # the bid came first and re-opened the lot: "sold" was out of turn
        assert answers["sell"] == 409 and lot.phase == "open" and lot.high_bid == 1500
    else:  # the hammer fell first: the bid is refused as on a sold lot
        assert (answers["sell"], answers["bid"]) == (200, 409) and (lot.phase, lot.price) == ("sold", 1000)


def test_without_the_row_lock_the_race_reaches_the_database(auction, no_lock):
    calcutta, director, paul, olga = auction
    answers = two_equal_opening_bids(calcutta, director, paul, olga)
    # Both read "no bid yet" and both decided they were the high bid; only the unique step number per Calcutta
    # stopped the second insert, answered as a bare 409 instead of the lock's clear "bid at least 15.00".
    assert sorted(status for status, _ in answers) == [201, 409]


def test_a_beaten_bid_is_refused_without_waiting_for_the_lot_s_lock(auction):
    """Twenty bidders on one lot: most bids arrive already beaten. While one bid holds the Calcutta's lock, a bid
    below the committed high bid is told at once what to bid, in the words the locked path uses; it used to
    wait its turn for the lock only to hear that."""
    calcutta, director, paul, olga = auction
    services.place_bid(actor=director, calcutta=calcutta, lot_number=1, bidder=paul, amount=1000)
    api_schema()
    answers = []

    def beaten_bid():
        client = SchemaCheckingClient()
        client.force_authenticate(director)
        response = client.post(bids_url(calcutta), {"lot": 1, "bidder": olga.pk, "amount": "14.99"}, format="json")
        answers.append((response.status_code, response.json()))

    hold = 4  # below the lock timeout (5 s): a bid that waited for the lock would take the whole hold
    took = second_while_first_is_held(
        lambda: services.place_bid(actor=director, calcutta=calcutta, lot_number=1, bidder=olga, amount=2000),
        beaten_bid,
        hold_seconds=hold,
    )
    assert took < hold - 1
    assert answers == [(400, {**answers[0][1], "errors": {"amount": ["Bid at least 15.00."]}})]
    lot = calcutta.lots.get(number=1)
    assert (lot.high_bid, lot.high_bidder_id) == (2000, olga.pk)  # the held bid committed; the beaten one left none
    assert Bid.objects.filter(calcutta=calcutta).count() == 2
