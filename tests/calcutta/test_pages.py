"""The Calcutta pages: setup, the auctioneer's screen, the board (phone and projector), owner and settlement."""

import pytest
from django.test import Client
from django.utils import translation

from calcutta import services
from calcutta.models import Bid, CalcuttaStatus
from tests.calcutta.rows import entry_ids, place
from tests.clubs.factories import MembershipFactory, UserFactory
from tournaments import hooks

pytestmark = pytest.mark.django_db


def client_for(user=None):
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def test_director_creates_a_calcutta_from_the_list(flight, director_user):
    response = client_for(director_user).post(
        "/calcuttas/",
        {
            "flight": flight.pk,
            "payout_places": "50, 30, 20",
            "consolation_percent": "0",
            "house_take_percent": "10",
            "minimum_opening_bid": "5,00",
            "increment": "1.00",
            "buy_back_limit_percent": "50",
        },
        follow=True,
    )
    assert response.status_code == 200
    calcutta = flight.calcutta
    assert calcutta.payout_places == ["50", "30", "20"] and calcutta.minimum_opening_bid == 500
    assert "Register the bidders" in response.content.decode()


def test_a_payout_table_short_of_100_is_refused_with_a_message(calcutta, director_user):
    response = client_for(director_user).post(
        f"/calcuttas/{calcutta.pk}/settings/",
        {
            "payout_places": "50, 30",
            "consolation_percent": "0",
            "house_take_percent": "10",
            "minimum_opening_bid": "1.00",
            "increment": "1.00",
            "buy_back_limit_percent": "50",
        },
        follow=True,
    )
    assert "must total exactly 100%" in response.content.decode()


def test_lots_editor_groups_entrants_by_number(calcutta, flight, director_user):
    anna, bernd, clara = entry_ids(flight, "Anna", "Bernd", "Clara")
    client_for(director_user).post(
        f"/calcuttas/{calcutta.pk}/lots/", {f"lot-{anna}": "2", f"lot-{bernd}": "2", f"lot-{clara}": "5"}
    )
    lots = {lot.number: sorted(lot.entries.values_list("player__name", flat=True)) for lot in calcutta.lots.all()}
    assert lots[1] == ["Anna", "Bernd"] and lots[2] == ["Clara"] and len(lots[0]) == 5


def test_the_director_proposes_lots_by_rating_and_sees_them_filled_in(calcutta, director_user):
    response = client_for(director_user).post(
        f"/calcuttas/{calcutta.pk}/lots/propose/",
        {"style": "balanced", "singles": "0", "group_size": "4", "field": "0"},
    )
    assert response.status_code == 200
    assert response.content.decode().count('class="lot-number"') == 8
    assert 'value="1" class="lot-number"' in response.content.decode()


def test_the_auctioneer_runs_a_lot_from_the_page(calcutta, flight, director_user):
    services.set_lots(actor=director_user, calcutta=calcutta, groups=[entry_ids(flight, "Anna")])
    paul = services.register_bidder(actor=director_user, calcutta=calcutta, name="paul")
    client = client_for(director_user)
    for action in ("open", "open_next_lot"):
        client.post(f"/calcuttas/{calcutta.pk}/auctioneer/step/", {"action": action})
    page = client.get(f"/calcuttas/{calcutta.pk}/auctioneer/").content.decode()
    assert "Anna" in page and "10.00" in page
    client.post(
        f"/calcuttas/{calcutta.pk}/bids/", {"lot": "1", "bidder": paul.pk, "amount": "15.00", "idempotency_key": "x1"}
    )
    client.post(
        f"/calcuttas/{calcutta.pk}/bids/", {"lot": "1", "bidder": paul.pk, "amount": "15.00", "idempotency_key": "x1"}
    )
    assert Bid.objects.filter(calcutta=calcutta).count() == 1
    for action in ("going_once", "going_twice", "sell"):
        client.post(f"/calcuttas/{calcutta.pk}/auctioneer/step/", {"action": action})
    late = client.post(
        f"/calcuttas/{calcutta.pk}/bids/", {"lot": "1", "bidder": paul.pk, "amount": "99.00"}, follow=True
    ).content.decode()
    assert "Lot 1 has been sold for 15.00; bids on it are closed." in late
    out_of_turn = client.post(f"/calcuttas/{calcutta.pk}/auctioneer/step/", {"action": "sell"}, follow=True)
    assert "No lot is up; open the next lot." in out_of_turn.content.decode()


def test_only_directors_see_the_auctioneer(calcutta, member_user):
    assert client_for(member_user).get(f"/calcuttas/{calcutta.pk}/auctioneer/").status_code == 403
    assert (
        client_for(member_user).post(f"/calcuttas/{calcutta.pk}/auctioneer/step/", {"action": "open"}).status_code
        == 403
    )


def test_board_projector_owner_and_settlement_pages(calcutta, flight, director_user):
    services.set_lots(actor=director_user, calcutta=calcutta, groups=[entry_ids(flight, "Anna")])
    olga = services.register_bidder(actor=director_user, calcutta=calcutta, name="olga")
    for action in ("open", "open_next_lot"):
        services.auctioneer_step(actor=director_user, calcutta=calcutta, action=action)
    services.place_bid(actor=director_user, calcutta=calcutta, lot_number=1, bidder=olga, amount=2000)
    anonymous = client_for()
    board = anonymous.get(f"/calcuttas/{calcutta.pk}/board/").content.decode()
    assert "20.00" in board and "olga" in board and "board.js" in board
    assert 'class="board projector"' in anonymous.get(f"/calcuttas/{calcutta.pk}/board/?projector=1").content.decode()
    for action in ("going_once", "going_twice", "sell"):
        services.auctioneer_step(actor=director_user, calcutta=calcutta, action=action)
    sold = anonymous.get(f"/calcuttas/{calcutta.pk}/board/?projector=1").content.decode()
    assert "SOLD to olga for 20.00" in sold  # right after the hammer, not "No lot is up."
    assert anonymous.get(f"/api/v1/calcuttas/{calcutta.pk}/board/").json()["last_sale"]["buyer"] == "olga"
    services.auctioneer_step(actor=director_user, calcutta=calcutta, action="open_next_lot")
    assert anonymous.get(f"/api/v1/calcuttas/{calcutta.pk}/board/").json()["last_sale"] is None
    services.place_bid(actor=director_user, calcutta=calcutta, lot_number=0, bidder=olga, amount=1000)
    for action in ("going_once", "going_twice", "sell", "close"):
        services.auctioneer_step(actor=director_user, calcutta=calcutta, action=action)
    place(flight, {"Anna": 1, "Bernd": 2, "Clara": 3, "Dieter": 3})
    hooks.flight_results_changed(flight)
    calcutta.refresh_from_db()
    assert calcutta.status == CalcuttaStatus.SETTLED
    # an owner's money is the owner's and the directors' (olga is a guest without a login: the directors')
    assert anonymous.get(f"/calcuttas/{calcutta.pk}/owners/{olga.pk}/").status_code == 403
    owner = client_for(director_user).get(f"/calcuttas/{calcutta.pk}/owners/{olga.pk}/").content.decode()
    assert "30.00" in owner and "27.00" in owner  # paid in 30.00; the whole net pool 27.00 won
    assert "Profit (won − paid in)" in owner and "−3.00" in owner  # a loss reads negative on the pages
    report = anonymous.get(f"/calcuttas/{calcutta.pk}/settlement/").content.decode()
    assert "Net pool" in report and "27.00" in report and "@media print" not in report
    assert anonymous.get(f"/calcuttas/{calcutta.pk}/owners/999999/").status_code == 404


def test_private_events_hide_their_calcutta(calcutta, outsider_user):
    event = calcutta.flight.event
    event.is_public = False
    event.save()
    assert client_for(outsider_user).get(f"/calcuttas/{calcutta.pk}/board/").status_code == 404
    assert client_for().get(f"/api/v1/calcuttas/{calcutta.pk}/board/").status_code == 404


def test_the_board_speaks_german(calcutta, flight, director_user):
    services.set_lots(actor=director_user, calcutta=calcutta, groups=[entry_ids(flight, "Anna")])
    for action in ("open", "open_next_lot"):
        services.auctioneer_step(actor=director_user, calcutta=calcutta, action=action)
    with translation.override("en"):  # the middleware switches this thread to German; restore English afterwards
        page = Client(headers={"accept-language": "de"}).get(f"/calcuttas/{calcutta.pk}/board/").content.decode()
    assert "Höchstgebot" in page and "Noch kein Gebot" in page and "Offen für Gebote" in page
    assert "10,00" in page and "10.00" not in page  # the next bid at least 10,00: money as Germans write it


def test_club_and_player_pages_show_the_calcutta(calcutta, flight, director_user):
    services.set_lots(actor=director_user, calcutta=calcutta, groups=[entry_ids(flight, "Bernd")])
    anna = flight.entries.get(player__name="Anna").player
    bidder = services.register_bidder(actor=director_user, calcutta=calcutta, player=anna)
    for action in ("open", "open_next_lot"):
        services.auctioneer_step(actor=director_user, calcutta=calcutta, action=action)
    services.place_bid(actor=director_user, calcutta=calcutta, lot_number=1, bidder=bidder, amount=1500)
    for action in ("going_once", "going_twice", "sell", "open_next_lot", "pass_lot", "close"):
        services.auctioneer_step(actor=director_user, calcutta=calcutta, action=action)
    club_page = client_for().get(flight.event.club.get_absolute_url()).content.decode()
    assert f"/calcuttas/{calcutta.pk}/board/" in club_page
    # what she paid in and won is her own business and the directors' (calcutta.see_owner_report)
    for viewer in (None, MembershipFactory(club=flight.event.club).player.user):
        assert "Calcutta auctions" not in client_for(viewer).get(anna.get_absolute_url()).content.decode()
    anna.user = anna.user or UserFactory()
    anna.save()
    bidder.user = anna.user
    bidder.save()
    for viewer in (anna.user, director_user):
        player_page = client_for(viewer).get(anna.get_absolute_url()).content.decode()
        assert "Calcutta auctions" in player_page and "15.00" in player_page


def test_a_registered_bidder_bids_from_the_board_on_a_phone(calcutta, flight, director_user, member_user):
    services.set_lots(actor=director_user, calcutta=calcutta, groups=[entry_ids(flight, "Anna")])
    for action in ("open", "open_next_lot"):
        services.auctioneer_step(actor=director_user, calcutta=calcutta, action=action)
    client = client_for(member_user)
    client.post(f"/calcuttas/{calcutta.pk}/bidders/", {})
    me = calcutta.bidders.get(user=member_user)
    board = client.get(f"/calcuttas/{calcutta.pk}/board/").content.decode()
    assert 'id="my-bid"' in board and 'value="10.00"' in board
    response = client.post(
        f"/calcuttas/{calcutta.pk}/bids/",
        {"next": "board", "bidder": me.pk, "lot": "1", "amount": "10.00", "idempotency_key": "phone-1"},
    )
    assert response.status_code == 302 and response.url.endswith(f"/calcuttas/{calcutta.pk}/board/")
    assert calcutta.lots.get(number=1).high_bidder == me


@pytest.mark.parametrize("lots", [2, 7])
def test_pages_cost_the_same_queries_whatever_the_number_of_lots(
    lots, calcutta, flight, director_user, django_assert_max_num_queries
):
    names = ["Anna", "Bernd", "Clara", "Dieter", "Eva", "Felix", "Greta"][:lots]
    services.set_lots(actor=director_user, calcutta=calcutta, groups=[entry_ids(flight, n) for n in names])
    owners = [services.register_bidder(actor=director_user, calcutta=calcutta, name=f"owner {n}") for n in range(3)]
    services.set_order(actor=director_user, calcutta=calcutta, order=list(range(1, lots + 1)))
    services.auctioneer_step(actor=director_user, calcutta=calcutta, action="open")
    for number in [*range(1, lots + 1), 0]:
        services.auctioneer_step(actor=director_user, calcutta=calcutta, action="open_next_lot")
        services.place_bid(
            actor=director_user, calcutta=calcutta, lot_number=number, bidder=owners[number % 3], amount=2000
        )
        for action in ("going_once", "going_twice", "sell"):
            services.auctioneer_step(actor=director_user, calcutta=calcutta, action=action)
    services.auctioneer_step(actor=director_user, calcutta=calcutta, action="close")
    place(flight, {"Anna": 1, "Bernd": 2, "Clara": 3, "Dieter": 3})
    hooks.flight_results_changed(flight)
    client = client_for(director_user)
    for url, most in (
        # measured: 10, 11, 6, 11 for 2 and for 7 lots alike; + the owners' transfers, + the club's account (codes)
        (f"/calcuttas/{calcutta.pk}/settlement/", 12),
        # + the syndicate offers naming the owner, + who may see the owner's money
        (f"/calcuttas/{calcutta.pk}/owners/{owners[0].pk}/", 13),
        (f"/calcuttas/{calcutta.pk}/board/", 6),
        (f"/calcuttas/{calcutta.pk}/", 11),
    ):
        with django_assert_max_num_queries(most):
            assert client.get(url).status_code == 200


def test_the_event_page_links_its_calcutta_and_shows_a_director_where_to_start_one(flight, director_user):
    event_url = f"/events/{flight.event.club.slug}/{flight.event.slug}/"
    director_page = client_for(director_user).get(event_url).content.decode()
    assert "No Calcutta on this event yet." in director_page and 'href="/calcuttas/"' in director_page
    assert "Calcutta auctions" not in client_for().get(event_url).content.decode()  # nothing to show a visitor yet

    calcutta = services.create_calcutta(actor=director_user, flight=flight, payout_places=["70", "30"])
    visitor_page = client_for().get(event_url).content.decode()
    assert f'href="{calcutta.get_absolute_url()}"' in visitor_page
    assert f'href="/calcuttas/{calcutta.pk}/board/"' in visitor_page
