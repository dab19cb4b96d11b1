"""Settling each owner with the club (calcutta.services.settling, the shared base.settle_up): one transfer per
owner from the settlement and the paid flags, marked paid by the payer and confirmed by the payee (the club's side:
its directors), reminded once a day on; the club's own bank account for what owners owe it, private."""

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone
from django.utils.translation import override

from base.settle_up import sweep_reminders
from calcutta import services
from calcutta.models import OwnerTransfer
from clubs import services as club_services
from notifications import kinds
from notifications.models import Notification
from tests.calcutta.rows import entry_ids, place
from tests.clients import queries_of
from tests.clubs.factories import MembershipFactory
from tournaments import hooks

pytestmark = pytest.mark.django_db

CLUB_IBAN = "DE89370400440532013000"
OWNER_IBAN = "GB82WEST12345698765432"


def client_for(user=None):
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


@pytest.fixture
def settled(club, calcutta, flight, director_user):
    """Four owners with logins, one lot each at 20.00 (the field to the last): Anna wins, Bernd second, Clara and
    Dieter third. Nobody has paid in yet."""
    names = ["Anna", "Bernd", "Clara", "Dieter"]
    services.set_lots(actor=director_user, calcutta=calcutta, groups=[entry_ids(flight, n) for n in names])
    owners = []
    for n in range(4):
        player = MembershipFactory(club=club, player__name=f"Owner {n}").player
        owners.append(services.register_bidder(actor=director_user, calcutta=calcutta, player=player, user=player.user))
    services.set_order(actor=director_user, calcutta=calcutta, order=[1, 2, 3, 4])
    services.auctioneer_step(actor=director_user, calcutta=calcutta, action="open")
    for number in [1, 2, 3, 4, 0]:
        services.auctioneer_step(actor=director_user, calcutta=calcutta, action="open_next_lot")
        buyer = owners[number - 1] if number else owners[3]
        services.place_bid(actor=director_user, calcutta=calcutta, lot_number=number, bidder=buyer, amount=2000)
        for action in ("going_once", "going_twice", "sell"):
            services.auctioneer_step(actor=director_user, calcutta=calcutta, action=action)
    services.auctioneer_step(actor=director_user, calcutta=calcutta, action="close")
    place(flight, {"Anna": 1, "Bernd": 2, "Clara": 3, "Dieter": 3})
    hooks.flight_results_changed(flight)
    calcutta.refresh_from_db()
    return calcutta, owners


def transfers(calcutta):
    return {t.bidder.name: (t.to_club, t.cents, t.state) for t in calcutta.transfers.select_related("bidder")}


def test_each_owner_settles_with_the_club_by_their_net_and_paying_in_changes_which_way(settled, director_user):
    calcutta, owners = settled
    lines = {line.bidder.name: line for line in calcutta.settlements.get(is_current=True).owner_lines.all()}
    won = {name: line.won for name, line in lines.items()}
    assert won["Owner 0"] > 2000 > won["Owner 2"] > 0  # the winner comes out ahead; a third place does not
    owed = transfers(calcutta)
    assert owed["Owner 0"] == (False, won["Owner 0"] - 2000, "open")  # the club pays the winner's profit
    assert owed["Owner 2"] == (True, 2000 - won["Owner 2"], "open")  # out of pocket: pays the club the rest
    services.set_paid(actor=director_user, calcutta=calcutta, bidder=owners[0], paid=True)
    assert transfers(calcutta)["Owner 0"] == (False, won["Owner 0"], "open")  # paid in: all the winnings
    services.set_paid(actor=director_user, calcutta=calcutta, bidder=owners[2], paid=True)
    assert transfers(calcutta)["Owner 2"] == (False, won["Owner 2"], "open")


def test_the_payer_marks_paid_the_payee_confirms_and_only_they_or_a_director(settled, director_user, api_as):
    calcutta, owners = settled
    base = f"/api/v1/calcuttas/{calcutta.pk}/transfers/"
    owing = calcutta.transfers.get(bidder=owners[2])  # Owner 2 pays the club
    paid_out = calcutta.transfers.get(bidder=owners[0])  # the club pays Owner 0
    stranger = api_as(owners[1].user)
    assert stranger.post(f"{base}{owing.pk}/paid/").status_code == 403
    assert api_as(owners[2].user).post(f"{base}{owing.pk}/received/").status_code == 403  # the club confirms
    owner = api_as(owners[2].user)
    first = owner.post(f"{base}{owing.pk}/paid/", HTTP_IDEMPOTENCY_KEY="calcutta-paid-1")
    again = owner.post(f"{base}{owing.pk}/paid/", HTTP_IDEMPOTENCY_KEY="calcutta-paid-1")  # a phone's retry
    assert first.status_code == again.status_code == 200 and first.json()["state"] == "paid"
    assert owner.post(f"{base}{owing.pk}/paid/").json()["code"] == "transfer_paid"  # a second mark: 409
    director = api_as(director_user)
    assert director.post(f"{base}{owing.pk}/received/").json()["state"] == "received"
    assert api_as(owners[0].user).post(f"{base}{paid_out.pk}/paid/").status_code == 403  # the club pays it
    assert director.post(f"{base}{paid_out.pk}/paid/").status_code == 200
    page = client_for(owners[0].user)
    assert page.post(f"/calcuttas/{calcutta.pk}/settlement/{paid_out.pk}/received/").status_code == 302
    states = {row["bidder_name"]: row["state"] for row in director.get(base).json()}
    assert states["Owner 0"] == states["Owner 2"] == "received"
    calcutta.refresh_from_db()
    with override("en"):
        shown = client_for(director_user).get(f"/calcuttas/{calcutta.pk}/settlement/").content.decode()
        own = page.get(f"/calcuttas/{calcutta.pk}/settlement/").content.decode()
    assert "transfers still open" in shown  # Owner 1 and 3 are not settled yet
    assert "Everything is settled." in own  # Owner 0 sees only their own settle-up, which is done


def _money(cents: int) -> str:
    return f"{cents / 100:.2f}"


def test_an_owner_s_money_is_seen_by_that_owner_and_the_directors_only(settled, director_user, api_as):
    """The settlement page, its API, the transfers API and both exports: the directors see every owner's line, an
    owner their own, anyone else none; the pool and the lots' results stay public."""
    calcutta, owners = settled
    lines = {line.bidder_id: line for line in calcutta.settlements.get(is_current=True).owner_lines.all()}
    winner, third = lines[owners[0].pk], lines[owners[2].pk]
    # what each won is its lot's prize (each holds one lot whole), public; the net and the settle-up are not
    winner_won, third_won = _money(winner.won - winner.paid_in), _money(third.paid_in - third.won)
    assert winner_won != third_won
    page = f"/calcuttas/{calcutta.pk}/settlement/"
    api = f"/api/v1/calcuttas/{calcutta.pk}/"
    stranger_user = MembershipFactory(club=calcutta.flight.event.club).player.user
    for who, user, sees in (
        ("anonymous", None, set()),
        ("stranger", stranger_user, set()),
        ("another owner", owners[1].user, {owners[1].pk}),
        ("the owner", owners[2].user, {owners[2].pk}),
        ("director", director_user, {o.pk for o in owners}),
    ):
        settlement = api_as(user).get(f"{api}settlement/").json()
        assert settlement["pool"] == 10000, who  # public: the pool, the take, the lots' prizes
        assert {line["bidder"] for line in settlement["owners"]} == sees, who
        assert {row["bidder"] for row in api_as(user).get(f"{api}transfers/").json()} == sees, who
        with override("en"):
            shown = client_for(user).get(page).content.decode()
        assert "100.00" in shown, who  # the pool
        assert (winner_won in shown) == (owners[0].pk in sees), who
        assert (f"/owners/{owners[2].pk}/" in shown) == (owners[2].pk in sees), who
        for kind in ("csv", "xlsx"):
            export = client_for(user).get(f"/export/calcuttas/{calcutta.pk}/settlement.{kind}")
            if not sees:
                assert export.status_code in (302, 403), who  # anonymous: sign in first
                continue
            assert export.status_code == 200, who
            if kind == "csv":
                with override("en"):
                    text = client_for(user).get(f"/export/calcuttas/{calcutta.pk}/settlement.csv").content.decode()
                assert (winner_won in text) == (owners[0].pk in sees), who
                assert (third_won in text) == (owners[2].pk in sees), who
                assert ("Total" in text) == (who == "director"), who


def test_a_settle_up_marked_paid_keeps_its_amount_when_the_settlement_changes(settled, director_user, flight):
    calcutta, owners = settled
    owing = calcutta.transfers.get(bidder=owners[2])
    services.mark_transfer_paid(actor=owners[2].user, calcutta=calcutta, transfer_id=owing.pk)
    place(flight, {"Anna": 2, "Bernd": 1})  # a corrected final
    hooks.flight_results_changed(flight)
    after = OwnerTransfer.objects.get(pk=owing.pk)
    assert (after.to_club, after.cents, after.state) == (True, owing.cents, "paid")


def test_a_settle_up_still_open_a_day_on_is_reminded_once(settled, director_user, settings):
    calcutta, owners = settled
    settings.TRANSFER_REMINDER_HOURS = 24
    assert sweep_reminders() == 0
    calcutta.transfers.update(created_at=timezone.now() - timedelta(hours=25))
    assert sweep_reminders() == calcutta.transfers.count()
    assert sweep_reminders() == 0  # once
    owner_told = Notification.objects.get(kind="transfer_reminder", recipient=owners[2].user)
    director_told = Notification.objects.filter(kind="transfer_reminder", recipient=director_user)
    with override("en"):
        line = kinds.personal(owner_told.kind, owner_told.params)
        assert "You still owe" in line and calcutta.flight.event.club.name in line
        assert any("Owner 0" in kinds.personal(n.kind, n.params) for n in director_told)  # the club pays Owner 0


CLUB_HANDLE, OWNER_HANDLE = "BCPays", "owner_zero"  # the club's PayPal.Me, Owner 0's Revolut.me


def test_the_club_bank_account_is_its_admins_checked_and_shown_only_as_the_owing_owners_code_and_link(
    settled, club, admin_user, director_user, api_as
):
    calcutta, owners = settled
    director, settlement = client_for(director_user), f"/calcuttas/{calcutta.pk}/settlement/"
    bare, _page = queries_of(director, settlement)  # no account stored yet
    page = f"/clubs/{club.slug}/bank-account/"
    assert director.get(page).status_code == 403  # the admins', not every director's
    admin = client_for(admin_user)
    with override("en"):
        bad = admin.post(page, {"holder": "Club", "iban": CLUB_IBAN[:-1] + "1"}, follow=True).content.decode()
        bad_handle = admin.post(
            page, {"holder": "Club", "iban": CLUB_IBAN, "pay_provider": "paypal", "pay_handle": "BC/Pays"}, follow=True
        ).content.decode()
    assert "check digits do not match" in bad
    assert "A PayPal.Me name is 1 to 20 letters and digits" in bad_handle
    saved = {"holder": "Backgammon Club", "iban": CLUB_IBAN, "pay_provider": "paypal", "pay_handle": CLUB_HANDLE}
    assert admin.post(page, saved).status_code == 302
    club_services.set_bank_account(
        actor=owners[0].user,
        player=owners[0].player,
        holder="Owner",
        iban=OWNER_IBAN,
        pay_provider="revolut",
        pay_handle=OWNER_HANDLE,
    )
    grouped = " ".join(CLUB_IBAN[i : i + 4] for i in range(0, len(CLUB_IBAN), 4))
    owing = calcutta.transfers.get(bidder=owners[2])
    with override("en"):
        owner_sees = client_for(owners[2].user).get(settlement).content.decode()
    assert grouped in owner_sees  # owes the club: its code, and the link with the amount filled in
    club_link = f'href="https://paypal.me/{CLUB_HANDLE}/{owing.cents // 100}.{owing.cents % 100:02d}EUR"'
    assert club_link in owner_sees and "Pay with PayPal" in owner_sees and OWNER_HANDLE not in owner_sees
    winner_sees = client_for(owners[0].user).get(settlement).content.decode()
    assert grouped not in winner_sees and "GB82 WEST" in winner_sees  # paid by the club: their own account
    assert CLUB_HANDLE not in winner_sees and OWNER_HANDLE not in winner_sees  # they pay nothing: no link
    paid_to_owner = calcutta.transfers.get(bidder=owners[0])
    counted, director_sees = queries_of(director, settlement)  # the club pays Owner 0
    assert counted == bare  # the codes and the links read the same two accounts
    assert f"https://revolut.me/{OWNER_HANDLE}?amount={paid_to_owner.cents}&amp;currency=EUR" in director_sees
    assert CLUB_HANDLE not in director_sees  # what owners owe the club, the directors do not pay
    for user in (None, owners[1].user):  # the public, another owner
        shown = client_for(user).get(settlement).content.decode()
        assert grouped not in shown and CLUB_HANDLE not in shown and OWNER_HANDLE not in shown
    for url in (f"/api/v1/calcuttas/{calcutta.pk}/transfers/", f"/api/v1/calcuttas/{calcutta.pk}/settlement/"):
        for user in (director_user, owners[2].user, None):
            body = api_as(user).get(url).content.decode()
            assert CLUB_IBAN not in body and CLUB_HANDLE not in body and OWNER_HANDLE not in body
    for export in ("settlement.csv", "settlement.xlsx"):
        answer = client_for(director_user).get(f"/export/calcuttas/{calcutta.pk}/{export}")
        assert answer.status_code == 200
        assert CLUB_IBAN.encode() not in answer.content and CLUB_HANDLE.encode() not in answer.content
        assert OWNER_HANDLE.encode() not in answer.content


def test_a_bidder_shows_the_display_name_their_club_allows_everywhere(settled, director_user, api_as):
    """A bidder linked to a player is named as the club names the player in public: with display names allowed,
    the display name on the Calcutta's pages, its API and the settlement export, never the name."""
    from clubs import services as club_services  # noqa: PLC0415
    from tests.dataport.test_display_name import allow_display_names  # noqa: PLC0415

    calcutta, owners = settled
    player = owners[0].player
    club = calcutta.flight.event.club
    club_services.update_player(actor=player.user, player=player, display_name="Nachtfalke")
    assert calcutta.bidders.get(pk=owners[0].pk).name == "Owner 0"  # the club does not allow display names yet
    allow_display_names(club)
    walk_in = services.register_bidder(actor=director_user, calcutta=calcutta, name="Walk-in Wanda")
    assert walk_in.name == "Walk-in Wanda"  # no player: the typed name
    api = f"/api/v1/calcuttas/{calcutta.pk}/"
    with override("en"):
        seen = [
            client_for(user).get(url).content.decode()
            for user in (None, owners[1].user)
            for url in (
                f"/calcuttas/{calcutta.pk}/",
                f"/calcuttas/{calcutta.pk}/board/",
                f"/calcuttas/{calcutta.pk}/settlement/",
            )
        ]
        seen += [
            api_as(director_user).get(f"{api}{part}/").content.decode()
            for part in ("bidders", "transfers", "settlement", "holdings", "board")
        ]
        seen.append(client_for(director_user).get(f"/export/calcuttas/{calcutta.pk}/settlement.csv").content.decode())
    for text in seen:
        assert "Owner 0" not in text
    assert all("Nachtfalke" in text for text in seen[:3])  # the Calcutta page, the board, the settlement
    assert "Nachtfalke" in seen[-1]
    allow_display_names(club, allowed=False)
    assert calcutta.bidders.get(pk=owners[0].pk).name == "Owner 0"  # switched off: the name again
