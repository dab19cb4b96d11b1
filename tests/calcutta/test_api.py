"""The Calcutta API: the live board for everyone, bids with idempotency and 409s, directors' steps, settlement."""

import pytest
from django.test import Client

from calcutta import services
from tests.calcutta.rows import entry_ids, place
from tournaments import hooks

pytestmark = pytest.mark.django_db


@pytest.fixture
def running(calcutta, flight, director_user):
    services.set_lots(
        actor=director_user, calcutta=calcutta, groups=[entry_ids(flight, "Anna"), entry_ids(flight, "Bernd")]
    )
    services.set_order(actor=director_user, calcutta=calcutta, order=[1, 2])
    services.auctioneer_step(actor=director_user, calcutta=calcutta, action="open")
    services.auctioneer_step(actor=director_user, calcutta=calcutta, action="open_next_lot")
    return calcutta


def url(calcutta, action=""):
    return f"/api/v1/calcuttas/{calcutta.pk}/{action + '/' if action else ''}"


def test_anyone_reads_the_board_of_a_public_event_in_few_queries(running, api, django_assert_max_num_queries):
    with django_assert_max_num_queries(8):
        response = api.get(url(running, "board"))
    assert response.status_code == 200
    data = response.json()
    assert data["status"] == "open"
    assert data["current"]["number"] == 1 and data["current"]["entrants"] == ["Anna"]
    assert data["current"]["minimum_next_bid_display"] == "10.00"
    assert [lot["label"] for lot in data["lots"]] == ["Lot 1", "Lot 2", "the field"]


def test_the_board_costs_the_same_queries_with_many_bids(running, director_user, api, django_assert_max_num_queries):
    bidders = [services.register_bidder(actor=director_user, calcutta=running, name=f"b{n}") for n in range(2)]
    for n in range(30):
        services.place_bid(
            actor=director_user, calcutta=running, lot_number=1, bidder=bidders[n % 2], amount=1000 + 500 * n
        )
    with django_assert_max_num_queries(8):
        assert api.get(url(running, "board")).json()["current"]["high_bid"] == 1000 + 500 * 29


def test_a_bidder_bids_through_the_api_once_per_key(running, member_user, api_as):
    client = api_as(member_user)
    me = client.post(url(running, "bidders"), {}, format="json")
    assert me.status_code == 201
    body = {"lot": 1, "bidder": me.json()["id"], "amount": "12.50", "idempotency_key": "phone-1"}
    first = client.post(url(running, "bids"), body, format="json")
    again = client.post(url(running, "bids"), body, format="json")
    assert (first.status_code, again.status_code) == (201, 200)
    assert first.json()["id"] == again.json()["id"] and first.json()["amount"] == 1250
    low = client.post(url(running, "bids"), {**body, "amount": "12.75", "idempotency_key": "phone-2"}, format="json")
    assert low.status_code == 400 and "amount" in low.json()["errors"]


def test_a_beaten_bid_is_refused_in_three_queries_without_a_transaction_or_a_lock(running, member_user):
    """Most bids on a busy lot arrive beaten; each is told what to bid from one read of the lot's row, next to
    the API token with its user and one query finding the bidder with its Calcutta: no BEGIN, no lock, no
    restore of the auction. Signed in with a token, as the phones bidding in the room are."""
    from datetime import timedelta

    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from django.utils import timezone

    from accounts.models import ApiToken, new_token_key, token_digest
    from tests.schema_check import SchemaCheckingClient

    key = new_token_key()
    ApiToken.objects.create(user=member_user, name="phone", digest=token_digest(key), prefix=key[:8])
    client = SchemaCheckingClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    me = client.post(url(running, "bidders"), {}, format="json").json()["id"]  # the token's last use is now noted
    assert ApiToken.objects.get(user=member_user).last_used > timezone.now() - timedelta(minutes=1)
    assert (
        client.post(url(running, "bids"), {"lot": 1, "bidder": me, "amount": "20.00"}, format="json").status_code == 201
    )
    with CaptureQueriesContext(connection) as queries:
        beaten = client.post(url(running, "bids"), {"lot": 1, "bidder": me, "amount": "20.00"}, format="json")
    assert beaten.status_code == 400 and beaten.json()["errors"] == {"amount": ["Bid at least 25.00."]}
    statements = [q["sql"].upper() for q in queries.captured_queries]
    assert len(statements) == 3, statements
    assert not any("FOR UPDATE" in sql or "FOR NO KEY" in sql or "SAVEPOINT" in sql for sql in statements)


def test_an_accepted_bid_reads_only_the_calcuttas_own_rows_under_the_lock(running, member_user, api_as):
    """Everything a bid decides on, counted: the bidder with its Calcutta and the lot's high bid before the lock;
    under it the Calcutta row, the entrants, the lots, the bidders and the lots' entries, then the bid and the
    two rows it changes. The locked reads join nothing: the event was asked about before the lock, and the
    models' default orderings (which join the Calcutta to sort one Calcutta's rows) are not used."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client = api_as(member_user)
    me = client.post(url(running, "bidders"), {}, format="json").json()["id"]
    with CaptureQueriesContext(connection) as queries:
        placed = client.post(url(running, "bids"), {"lot": 1, "bidder": me, "amount": "20.00"}, format="json")
    assert placed.status_code == 201 and placed.json()["amount_display"] == "20.00"
    control = ("SAVEPOINT", "RELEASE SAVEPOINT", "BEGIN", "COMMIT", "SET LOCAL")  # the transaction itself
    statements = [q["sql"].upper() for q in queries.captured_queries]
    statements = [sql for sql in statements if not sql.startswith(control)]
    assert len(statements) == 10, statements
    assert 'FROM "CALCUTTA_CALCUTTA"' in statements[2], statements  # the lock (FOR NO KEY UPDATE on PostgreSQL)
    reads = [sql for sql in statements[2:] if sql.startswith("SELECT")]
    assert len(reads) == 5, reads
    assert not any('JOIN "CALCUTTA_CALCUTTA"' in sql or "TOURNAMENTS_FLIGHT" in sql for sql in reads), reads


def test_a_bid_finds_its_calcutta_as_the_other_endpoints_do(running, director_user, member_user, outsider_user, api_as):
    """A bid looks its bidder and Calcutta up in one query, and asks who may see the Calcutta only when its
    event is not public: the answers stay those of the other endpoints (404 for a Calcutta the caller cannot
    see, whatever the body; 400 for a bidder of no one's or of another Calcutta)."""
    outsider = api_as(outsider_user)
    theirs = outsider.post(url(running, "bidders"), {}, format="json").json()["id"]
    member = api_as(member_user)
    mine = member.post(url(running, "bidders"), {}, format="json").json()["id"]
    unknown = member.post(url(running, "bids"), {"lot": 1, "bidder": 999999, "amount": "10.00"}, format="json")
    assert unknown.status_code == 400 and unknown.json()["errors"] == {"bidder": ["No such bidder at this Calcutta."]}
    assert member.post("/api/v1/calcuttas/x/bids/", {"lot": 1, "bidder": mine, "amount": "10.00"}).status_code == 404
    guest = services.register_bidder(actor=director_user, calcutta=running, name="guest in the room").pk
    as_guest = member.post(url(running, "bids"), {"lot": 1, "bidder": guest, "amount": "10.00"}, format="json")
    assert as_guest.status_code == 403 and "only bid as yourself" in as_guest.json()["detail"]
    for_guest = api_as(director_user).post(url(running, "bids"), {"lot": 1, "bidder": guest, "amount": "10.00"})
    assert for_guest.status_code == 201 and for_guest.json()["bidder_name"] == "guest in the room"

    event = running.flight.event
    event.is_public = False
    event.save(update_fields=["is_public"])
    hidden = outsider.post(url(running, "bids"), {"lot": 1, "bidder": theirs, "amount": "10.00"}, format="json")
    assert hidden.status_code == 404
    assert outsider.post(url(running, "bids"), {"lot": 1, "bidder": theirs}, format="json").status_code == 404
    assert outsider.post(url(running, "bids"), {"lot": 1, "bidder": mine, "amount": "10.00"}).status_code == 404
    placed = member.post(url(running, "bids"), {"lot": 1, "bidder": mine, "amount": "15.00"}, format="json")
    assert placed.status_code == 201 and placed.json()["bidder_name"] == member_user.player.name


def test_bad_money_names_the_field(running, director_user, api_as):
    bidder = services.register_bidder(actor=director_user, calcutta=running, name="paul")
    response = api_as(director_user).post(
        url(running, "bids"), {"lot": 1, "bidder": bidder.pk, "amount": "12.345"}, format="json"
    )
    assert response.status_code == 400 and "amount" in response.json()["errors"]


def test_a_bid_on_a_sold_lot_answers_409(running, director_user, api_as):
    client = api_as(director_user)
    bidder = services.register_bidder(actor=director_user, calcutta=running, name="paul")
    client.post(url(running, "bids"), {"lot": 1, "bidder": bidder.pk, "amount": "10.00"}, format="json")
    for action in ("going_once", "going_twice", "sell"):
        assert client.post(url(running, "auctioneer"), {"action": action}, format="json").status_code == 200
    response = client.post(url(running, "bids"), {"lot": 1, "bidder": bidder.pk, "amount": "50.00"}, format="json")
    assert response.status_code == 409 and "sold" in response.json()["detail"]
    out_of_turn = client.post(url(running, "auctioneer"), {"action": "sell"}, format="json")
    assert out_of_turn.status_code == 409


def test_outsiders_cannot_run_the_auction_and_anonymous_cannot_bid(running, outsider_user, api_as, api):
    assert (
        api_as(outsider_user).post(url(running, "auctioneer"), {"action": "going_once"}, format="json").status_code
        == 403
    )
    assert api.post(url(running, "bids"), {"lot": 1, "bidder": 1, "amount": "10"}, format="json").status_code in (
        401,
        403,
    )


def test_setup_through_the_api(flight, director_user, api_as):
    client = api_as(director_user)
    created = client.post(
        "/api/v1/calcuttas/",
        {"flight": flight.pk, "payout_places": ["60", "40"], "minimum_opening_bid": "5.00", "increment": "1.00"},
        format="json",
    )
    assert created.status_code == 201, created.json()
    calcutta = created.json()
    assert calcutta["minimum_opening_bid"] == 500
    bad = client.patch(f"/api/v1/calcuttas/{calcutta['id']}/settings/", {"payout_places": ["60", "30"]}, format="json")
    assert bad.status_code == 400 and "payout_places" in bad.json()["errors"]
    proposal = client.post(f"/api/v1/calcuttas/{calcutta['id']}/lots/propose/", {"style": "pair_lesser", "singles": 2})
    assert proposal.status_code == 200
    groups = proposal.json()["lots"]
    assert [len(g) for g in groups] == [1, 1, 2, 2, 2]
    lots = client.put(f"/api/v1/calcuttas/{calcutta['id']}/lots/", {"lots": groups[:3]}, format="json")
    assert lots.status_code == 200 and len(lots.json()) == 4  # three lots and the field
    unknown = client.put(f"/api/v1/calcuttas/{calcutta['id']}/lots/", {"lots": [[999999]]}, format="json")
    assert unknown.status_code == 400 and "lots" in unknown.json()["errors"]


def test_settlement_and_owner_report_through_the_api(running, flight, director_user, api_as, api):
    client = api_as(director_user)
    paul = services.register_bidder(actor=director_user, calcutta=running, name="paul")
    olga = services.register_bidder(actor=director_user, calcutta=running, name="olga")
    for lot, bidder in ((1, paul), (2, olga), (0, olga)):
        if lot != 1:
            client.post(url(running, "auctioneer"), {"action": "open_next_lot"}, format="json")
        client.post(url(running, "bids"), {"lot": lot, "bidder": bidder.pk, "amount": "20.00"}, format="json")
        for action in ("going_once", "going_twice", "sell"):
            client.post(url(running, "auctioneer"), {"action": action}, format="json")
    assert client.post(url(running, "auctioneer"), {"action": "close"}, format="json").status_code == 200
    assert api.get(url(running, "settlement")).status_code == 204
    syndicate = client.post(
        url(running, "syndicate"),
        {
            "lot": 1,
            "holder": paul.pk,
            "shares": [{"bidder": paul.pk, "share": "1/2"}, {"bidder": olga.pk, "share": "50%"}],
        },
        format="json",
    )
    assert syndicate.status_code == 201  # both are guests the director registered: the director's word forms it
    assert syndicate.json()["status"] == "formed" and syndicate.json()["waiting_for"] == []
    holdings = client.get(url(running, "holdings")).json()["results"]  # a page: holdings grow with syndicates
    assert {(h["bidder_name"], h["share"]) for h in holdings if h["lot"] == 1} == {
        ("paul", "1/2"),
        ("olga", "1/2"),
    }
    place(flight, {"Anna": 1, "Bernd": 2, "Clara": 3, "Dieter": 3})
    hooks.flight_results_changed(flight)
    settlement = api.get(url(running, "settlement")).json()
    assert (settlement["pool"], settlement["house_take"], settlement["net_pool"]) == (6000, 600, 5400)
    assert settlement["owners"] == []  # an owner's money is not public
    directors = client.get(url(running, "settlement")).json()
    assert sum(line["won"] for line in directors["owners"]) == 5400
    assert api.get(url(running, f"owners/{paul.pk}")).status_code == 403  # an owner's money is not public
    owner = client.get(url(running, f"owners/{paul.pk}")).json()
    assert (owner["paid_in"], owner["won"]) == (1000, 1350)  # half of lot 1 (50% of 54.00) for half its price
    assert client.post(url(running, "paid"), {"bidder": paul.pk, "paid": True}, format="json").json()["paid"] is True


WRONG_VALUES = [None, "", "x" * 500, -1, 10**30, 1.5, {"nested": [1]}, [1, 2], True, "1/0", "../../etc"]
WRITES = [
    ("post", "bids", ["lot", "bidder", "amount", "idempotency_key"]),
    ("post", "auctioneer", ["action"]),
    ("post", "bidders", ["name", "player", "user"]),
    ("put", "lots", ["lots"]),
    ("post", "lots/propose", ["style", "singles", "group_size", "field"]),
    ("post", "order", ["order", "reseed"]),
    ("patch", "settings", ["payout_places", "house_take_percent", "minimum_opening_bid", "buy_back_deadline"]),
    ("post", "syndicate", ["lot", "holder", "shares"]),
    ("post", "buy-back", ["lot", "bidder", "share"]),
    ("post", "paid", ["bidder", "paid"]),
]


@pytest.mark.parametrize("status", ["setup", "open", "closed"])
def test_no_input_gives_a_server_error(status, calcutta, flight, director_user, api_as):
    client = api_as(director_user)
    paul = services.register_bidder(actor=director_user, calcutta=calcutta, name="paul")
    services.set_lots(actor=director_user, calcutta=calcutta, groups=[entry_ids(flight, "Anna")])
    if status != "setup":
        services.auctioneer_step(actor=director_user, calcutta=calcutta, action="open")
    if status == "closed":
        for action in ("open_next_lot", "pass_lot", "open_next_lot"):
            services.auctioneer_step(actor=director_user, calcutta=calcutta, action=action)
        services.place_bid(actor=director_user, calcutta=calcutta, lot_number=0, bidder=paul, amount=1000)
        for action in ("going_once", "going_twice", "sell", "close"):
            services.auctioneer_step(actor=director_user, calcutta=calcutta, action=action)
    valid = {"lot": 1, "bidder": paul.pk, "holder": paul.pk, "amount": "10.00", "action": "sell", "share": "1/4"}
    for method, path, fields in WRITES:
        for field in fields:
            for value in WRONG_VALUES:
                body = {**valid, field: value}
                response = getattr(client, method)(url(calcutta, path), body, format="json")
                assert response.status_code < 500, (path, field, value, response.content[:300])
    for path in ("owners/999999999", "board", "settlement", "holdings", "bids", "bidders", "lots"):
        assert client.get(url(calcutta, path)).status_code < 500
    assert client.get("/api/v1/calcuttas/999999999999/board/").status_code == 404
    from django.test import Client

    pages = Client()
    pages.force_login(director_user)
    for page in ("", "auctioneer/", "board/", "settlement/", "owners/99999999999/"):
        assert pages.get(f"/calcuttas/{calcutta.pk}/{page}").status_code < 500
    assert pages.get("/calcuttas/99999999999/").status_code == 404
    for page, body in (
        ("bids/", {"lot": "x", "amount": "1e9999"}),
        ("lots/", {"lot-x": "1", "lot-1": "-5"}),
        ("order/", {"order": "a,b"}),
        (f"owners/{paul.pk}/syndicate/", {"lot": "1", "shares": "x"}),
        (f"owners/{paul.pk}/buy-back/", {"lot": "1", "share": "2"}),
        ("auctioneer/step/", {"action": "x"}),
    ):
        assert pages.post(f"/calcuttas/{calcutta.pk}/{page}", body).status_code < 500, page


def test_only_a_director_settles_again(running, director_user, member_user, api_as):
    """Settling from the bracket on demand is a director's: a member is refused (page and API); before the auction
    closes there is nothing to settle."""
    refused = api_as(member_user).post(url(running, "settle"))
    assert refused.status_code == 403
    assert "Only a director" in refused.json()["detail"]
    page = Client()
    page.force_login(member_user)
    assert page.post(f"/calcuttas/{running.pk}/settle/").status_code == 403
    assert api_as(director_user).post(url(running, "settle")).status_code == 204
