import pytest

from calcutta import services
from tests.calcutta.rows import entry_ids, make_flight
from tests.clubs.factories import MembershipFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_public_board_shows_a_new_high_bid_without_a_reload(live_server, page, club):
    director = MembershipFactory(club=club, role="director").player.user
    flight = make_flight(club)
    calcutta = services.create_calcutta(
        actor=director, flight=flight, payout_places=["70", "30"], minimum_opening_bid=1000, increment=500
    )
    services.set_lots(actor=director, calcutta=calcutta, groups=[entry_ids(flight, "Anna", "Bernd")])
    paul = services.register_bidder(actor=director, calcutta=calcutta, name="Paul Bidder")
    for action in ("open", "open_next_lot"):
        services.auctioneer_step(actor=director, calcutta=calcutta, action=action)

    page.goto(f"{live_server.url}/calcuttas/{calcutta.pk}/board/")
    assert page.locator("#current-entrants").inner_text() == "Anna, Bernd"
    assert page.locator("#current-high").inner_text() == "No bid yet"
    page.evaluate("window.__sameDocument = true")  # gone if the page reloads

    # A bid arrives through the API (e.g. the auctioneer's phone); the board's poll picks it up.
    from rest_framework.test import APIClient

    client = APIClient()
    client.force_authenticate(director)
    response = client.post(
        f"/api/v1/calcuttas/{calcutta.pk}/bids/",
        {"lot": 1, "bidder": paul.pk, "amount": "25.00", "idempotency_key": "browser-1"},
        format="json",
    )
    assert response.status_code == 201
    # A function, not an expression: the Content-Security-Policy forbids the eval Playwright uses for one.
    page.wait_for_function("() => document.getElementById('current-high').textContent === '25.00'")
    assert page.locator("#current-bidder").inner_text() == "Paul Bidder"
    assert page.locator("#current-next").inner_text() == "30.00"
    assert page.evaluate("window.__sameDocument") is True

    # The hammer falls: the projector's board says who bought the lot and for how much, without a reload.
    for action in ("going_once", "going_twice", "sell"):
        services.auctioneer_step(actor=director, calcutta=calcutta, action=action)
    page.wait_for_function("() => !document.getElementById('last-sale').hidden")
    assert page.locator("#last-sale-text").inner_text() == "SOLD to Paul Bidder for 25.00"
    assert page.locator("#no-lot").is_hidden() and page.evaluate("window.__sameDocument") is True
