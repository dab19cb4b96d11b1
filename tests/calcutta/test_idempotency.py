"""A Calcutta bid sent again with the same Idempotency-Key (API) or the same hidden key (the board's form) is
placed once (base.idempotency); the body field `idempotency_key` keeps working beside it (tests/calcutta/test_api)."""

import pytest

from base.idempotency import REPLAYED_HEADER
from base.models import IdempotentRequest
from calcutta import services
from calcutta.models import Bid
from tests.calcutta.rows import entry_ids

pytestmark = pytest.mark.django_db


@pytest.fixture
def running(calcutta, flight, director_user):
    services.set_lots(actor=director_user, calcutta=calcutta, groups=[entry_ids(flight, "Anna")])
    for action in ("open", "open_next_lot"):
        services.auctioneer_step(actor=director_user, calcutta=calcutta, action=action)
    return calcutta


def test_a_retried_bid_is_placed_once_and_answered_as_the_first_time(running, member_user, api_as):
    client = api_as(member_user)
    me = client.post(f"/api/v1/calcuttas/{running.pk}/bidders/", {}, format="json").json()
    body = {"lot": 1, "bidder": me["id"], "amount": "12.50"}
    path = f"/api/v1/calcuttas/{running.pk}/bids/"
    first = client.post(path, body, format="json", HTTP_IDEMPOTENCY_KEY="phone-1")
    again = client.post(path, body, format="json", HTTP_IDEMPOTENCY_KEY="phone-1")
    assert (first.status_code, again.status_code) == (201, 201) and again.json() == first.json()
    assert again[REPLAYED_HEADER] == "true"
    assert Bid.objects.filter(calcutta=running).count() == 1
    other = client.post(path, {**body, "amount": "20.00"}, format="json", HTTP_IDEMPOTENCY_KEY="phone-1")
    assert other.status_code == 409 and other.json()["code"] == "idempotency_key_reused"


def test_the_bid_form_sent_twice_bids_once_and_a_refused_form_keeps_no_key(running, director_user, client):
    paul = services.register_bidder(actor=director_user, calcutta=running, name="paul")
    client.force_login(director_user)
    page = client.get(f"/calcuttas/{running.pk}/auctioneer/").content.decode()
    key = page.split('name="idempotency_key" value="')[1].split('"')[0]
    path = f"/calcuttas/{running.pk}/bids/"
    bad = client.post(path, {"lot": "1", "bidder": paul.pk, "amount": "", "idempotency_key": "bad"})
    assert bad.status_code == 302 and not IdempotentRequest.objects.filter(key="bad").exists()
    answers = [
        client.post(path, {"lot": "1", "bidder": paul.pk, "amount": "15.00", "idempotency_key": key}) for _ in "12"
    ]
    assert answers[0]["Location"] == answers[1]["Location"]
    assert Bid.objects.filter(calcutta=running).count() == 1
    assert IdempotentRequest.objects.get(key=key).location == answers[0]["Location"]
