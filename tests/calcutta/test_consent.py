"""A share of a lot is money owed: nobody enters a syndicate without their word (hole 7: a lot holder assigned
99 % of a lot to another bidder without their consent)."""

import pytest

from calcutta import services
from calcutta.models import Holding, OwnershipChange, SyndicateOffer
from tests.calcutta.rows import entry_ids
from tests.clients import api, web
from tests.clubs.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def sold(calcutta, flight, director_user):
    """Lot 1 sold to Holly (a bidder with a login); Mia (with a login) and a guest (without) also bid."""
    holly_user, mia_user = UserFactory(), UserFactory()
    holly = services.register_bidder(actor=holly_user, calcutta=calcutta, name="Holly")
    mia = services.register_bidder(actor=mia_user, calcutta=calcutta, name="Mia")
    guest = services.register_bidder(actor=director_user, calcutta=calcutta, name="Guest")
    lots = [entry_ids(flight, "Anna"), entry_ids(flight, "Bernd")]
    services.set_lots(actor=director_user, calcutta=calcutta, groups=lots)
    services.set_order(actor=director_user, calcutta=calcutta, order=[1, 2])
    step = services.auctioneer_step
    step(actor=director_user, calcutta=calcutta, action="open")
    for number in (1, 2, 0):
        step(actor=director_user, calcutta=calcutta, action="open_next_lot")
        services.place_bid(actor=director_user, calcutta=calcutta, lot_number=number, bidder=holly, amount=10000)
        for action in ("going_once", "going_twice", "sell"):
            step(actor=director_user, calcutta=calcutta, action=action)
    step(actor=director_user, calcutta=calcutta, action="close")
    calcutta.refresh_from_db()
    return calcutta, holly, mia, guest


def shares_of_lot_1(calcutta) -> dict[str, str]:
    rows = Holding.objects.filter(lot__calcutta=calcutta, lot__number=1).select_related("bidder")
    return {h.bidder.name: f"{h.numerator}/{h.denominator}" for h in rows}


def test_a_holder_cannot_put_99_percent_of_a_lot_on_another_bidder_without_their_acceptance(sold):
    calcutta, holly, mia, _guest = sold
    url = f"/api/v1/calcuttas/{calcutta.pk}/"
    body = {
        "lot": 1,
        "holder": holly.pk,
        "shares": [{"bidder": holly.pk, "share": "1%"}, {"bidder": mia.pk, "share": "99%"}],
    }
    response = api(holly.user).post(url + "syndicate/", body, format="json")
    assert response.status_code == 201, response.json()
    offer = response.json()
    assert offer["status"] == "pending" and offer["waiting_for"] == [mia.pk]
    assert shares_of_lot_1(calcutta) == {"Holly": "1/1"}  # nothing owed by Mia yet
    assert not OwnershipChange.objects.exists()
    answer = f"{url}syndicate-offers/{offer['id']}/answer/"
    assert api(holly.user).post(answer, {"accept": True}, format="json").status_code == 403  # not for Mia
    assert api(UserFactory()).post(answer, {"accept": True}, format="json").status_code == 403
    listed = api(mia.user).get(url + "syndicate-offers/").json()
    assert [o["id"] for o in listed] == [offer["id"]]
    assert api(UserFactory()).get(url + "syndicate-offers/").json() == []
    accepted = api(mia.user).post(answer, {"accept": True}, format="json")
    assert accepted.status_code == 200 and accepted.json()["status"] == "formed"
    assert shares_of_lot_1(calcutta) == {"Holly": "1/100", "Mia": "99/100"}
    assert api(mia.user).post(answer, {"accept": True}, format="json").status_code == 409  # answered already


def test_a_declined_offer_changes_nothing_and_the_director_cannot_accept_for_a_bidder_with_a_login(sold, director_user):
    calcutta, holly, mia, _guest = sold
    offer = services.offer_syndicate(
        actor=director_user, calcutta=calcutta, lot_number=1, holder=holly, shares={holly: "1/2", mia: "1/2"}
    )
    assert offer.status == "pending" and offer.waiting_for() == {holly.pk, mia.pk}  # both have logins
    answer = f"/api/v1/calcuttas/{calcutta.pk}/syndicate-offers/{offer.pk}/answer/"
    assert api(director_user).post(answer, {"accept": True}, format="json").status_code == 403
    assert api(holly.user).post(answer, {"accept": True}, format="json").json()["waiting_for"] == [mia.pk]
    declined = api(mia.user).post(answer, {"accept": False}, format="json").json()
    assert declined["status"] == "declined"
    assert shares_of_lot_1(calcutta) == {"Holly": "1/1"}
    assert SyndicateOffer.objects.get().declined_by == mia


def test_a_director_answers_for_a_guest_without_a_login_and_a_stranger_cannot_offer(sold, director_user):
    calcutta, holly, _mia, guest = sold
    body = {"lot": 1, "holder": holly.pk, "shares": [{"bidder": guest.pk, "share": "1"}]}
    url = f"/api/v1/calcuttas/{calcutta.pk}/syndicate/"
    assert api(UserFactory()).post(url, body, format="json").status_code == 403
    offer = api(holly.user).post(url, body, format="json").json()
    assert offer["waiting_for"] == [guest.pk]
    answer = f"/api/v1/calcuttas/{calcutta.pk}/syndicate-offers/{offer['id']}/answer/"
    assert api(director_user).post(answer, {"accept": True}, format="json").json()["status"] == "formed"
    assert shares_of_lot_1(calcutta) == {"Guest": "1/1"}


def test_the_owner_page_offers_and_the_other_bidder_accepts_there(sold):
    calcutta, holly, mia, _guest = sold
    holder_page = f"/calcuttas/{calcutta.pk}/owners/{holly.pk}/"
    sent = (
        web(holly.user)
        .post(f"{holder_page}syndicate/", {"lot": "1", "shares": "Holly = 1/4\nMia = 3/4"}, follow=True)
        .content.decode()
    )
    assert "the syndicate forms when Mia accept" in sent
    assert shares_of_lot_1(calcutta) == {"Holly": "1/1"}
    offer = SyndicateOffer.objects.get()
    mia_page = web(mia.user).get(f"/calcuttas/{calcutta.pk}/owners/{mia.pk}/").content.decode()
    assert f"/syndicate-offers/{offer.pk}/answer/" in mia_page
    done = web(mia.user).post(
        f"/calcuttas/{calcutta.pk}/syndicate-offers/{offer.pk}/answer/", {"accept": "1", "bidder": mia.pk}, follow=True
    )
    assert "Syndicate formed." in done.content.decode()
    assert shares_of_lot_1(calcutta) == {"Holly": "1/4", "Mia": "3/4"}


def test_a_director_registers_only_the_clubs_own_players_and_their_bidder_is_theirs(calcutta, club, director_user):
    """A bid is money owed. Found by probing: a director of any club registered another club's player (by
    player id, the bidder then had no login, so the player could not even refuse a share) or any user (by user
    id, with the name echoed back) as a bidder, and bought lots in their name."""
    from tests.clubs.factories import MembershipFactory, PlayerFactory
    from tests.refusals import PermissionDenied

    stranger = PlayerFactory()  # has an account, belongs to no club of this event
    invited = MembershipFactory(club=club, status="invited", is_active=False).player  # never accepted
    for kwargs in ({"player": stranger}, {"user": stranger.user}, {"player": invited}, {"user": invited.user}):
        with pytest.raises(PermissionDenied, match="registers as a bidder themselves"):
            services.register_bidder(actor=director_user, calcutta=calcutta, **kwargs)
    member = MembershipFactory(club=club).player
    bidder = services.register_bidder(actor=director_user, calcutta=calcutta, player=member)
    assert bidder.user_id == member.user_id  # theirs: they see it and answer for their own shares
    stranger_registers = services.register_bidder(actor=stranger.user, calcutta=calcutta)
    assert stranger_registers.user_id == stranger.user_id  # anyone may still register themselves
