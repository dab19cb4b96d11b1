"""Settle-up codes: a player's IBAN (checked), the EPC GiroCode for each transfer of a chouette settlement (read
back by a real QR reader), shown only to the payer, the payee and the club's directors; payer marks paid, payee
confirms, and the settlement shows what is open. The IBAN never appears in the public API."""

import re

import pytest
from django.utils import translation

from base import epc
from base.errors import Conflict, Invalid, NotAllowed
from chouette import services
from clubs import services as club_services
from clubs.models import BankAccount
from tests.chouette.factories import table
from tests.clients import api, queries_of, web
from tests.clubs.factories import MembershipFactory

pytestmark = pytest.mark.django_db

IBAN = "DE89370400440532013000"
OTHER_IBAN = "GB82WEST12345698765432"


def decode(payload: str) -> str:
    """The text a QR reader (zxing-cpp) reads from segno's code for this payload."""
    import segno
    import zxingcpp

    code = segno.make(payload, error="m", micro=False, encoding="utf-8")
    scale, border = 4, 4
    matrix = [list(row) for row in code.matrix]
    size = (len(matrix) + 2 * border) * scale
    pixels = bytearray([255]) * (size * size)
    for y, row in enumerate(matrix):
        for x, dark in enumerate(row):
            if dark:
                for dy in range(scale):
                    start = ((y + border) * scale + dy) * size + (x + border) * scale
                    pixels[start : start + scale] = bytes(scale)
    found = zxingcpp.read_barcode(memoryview(bytes(pixels)).cast("B", (size, size)))
    assert found is not None
    return found.text


def test_the_girocode_payload_field_by_field_and_read_back_by_a_qr_reader():
    text = epc.payload(epc.Transfer("Jürgen Müller", "de89 3704 0044 0532 0130 00", 12345, text="Chouette 3 May"))
    assert text.split("\n") == [
        "BCD",
        "002",
        "1",
        "SCT",
        "",
        "Jürgen Müller",
        IBAN,
        "EUR123.45",
        "",
        "",
        "Chouette 3 May",
    ]
    assert decode(text) == text
    bare = epc.payload(epc.Transfer("A", IBAN, 1, bic="COBADEFFXXX"))
    assert bare.split("\n") == ["BCD", "002", "1", "SCT", "COBADEFFXXX", "A", IBAN, "EUR0.01"]  # nothing after
    long = epc.payload(epc.Transfer("N" * 90, IBAN, 100, text="ü" * 140))
    assert len(long.split("\n")[5]) == 70 and len(long.encode()) <= 331


@pytest.mark.parametrize(
    ("iban", "code"),
    [
        ("DE89370400440532013001", "iban_checksum"),
        ("DE893704", "iban_shape"),
        ("12DE", "iban_shape"),
        ("", "iban_shape"),
    ],
)
def test_a_bad_iban_is_refused(iban, code):
    with pytest.raises(epc.PaymentCodeError) as refused:
        epc.normalize_iban(iban)
    assert refused.value.code == code


@pytest.mark.parametrize("cents", [0, -1, 10**12, 2**63])
def test_an_impossible_amount_makes_no_code(cents):
    with pytest.raises(epc.PaymentCodeError):
        epc.payload(epc.Transfer("A", IBAN, cents))


def test_a_player_stores_their_own_iban_checked_and_nobody_else_can(club):
    me = MembershipFactory(club=club).player
    other = MembershipFactory(club=club, role="director").player
    with translation.override("en"), pytest.raises(Invalid) as bad:
        club_services.set_bank_account(actor=me.user, player=me, holder="Me", iban="DE89370400440532013001")
    assert "check digits" in str(bad.value.message) and bad.value.field == "iban"
    with pytest.raises(Invalid) as wrong_length:  # right mod-97, but no German IBAN has 23 characters
        club_services.set_bank_account(actor=me.user, player=me, holder="Me", iban="DE" + "0" * 21)
    assert wrong_length.value.field == "iban"
    assert not BankAccount.objects.exists()
    with pytest.raises(NotAllowed):
        club_services.set_bank_account(actor=other.user, player=me, holder="Me", iban=IBAN)
    account = club_services.set_bank_account(actor=me.user, player=me, holder="Me", iban="de89 3704 0044 0532 0130 00")
    assert account.iban == IBAN
    page = web(me.user).post("/me/bank-account/", {"holder": "Me", "iban": "XX00"})
    assert page.status_code == 200 and BankAccount.objects.get().iban == IBAN


def test_a_player_stores_a_payment_handle_checked_beside_the_iban_or_alone(club):
    me = MembershipFactory(club=club).player
    store = web(me.user)
    with translation.override("en"):
        page = store.post(
            "/me/bank-account/",
            {"holder": "Me", "iban": IBAN, "pay_provider": "paypal", "pay_handle": "javascript:alert(1)"},
        ).content.decode()
    assert "A PayPal.Me name is 1 to 20 letters and digits, e.g. AnnaMueller" in page
    assert not BankAccount.objects.exists()  # nothing half saved
    with translation.override("de"), pytest.raises(Invalid) as german:
        club_services.set_bank_account(
            actor=me.user, player=me, holder="", iban="", pay_provider="monzo", pay_handle="me/pay"
        )
    assert "Ein Monzo.me-Name besteht aus 3 bis 30 Buchstaben und Ziffern" in str(german.value.message)
    with pytest.raises(Invalid) as unknown:
        club_services.set_bank_account(actor=me.user, player=me, holder="", iban="", pay_provider="", pay_handle="me")
    assert unknown.value.field == "pay_provider"
    typed = {"holder": "Me", "iban": IBAN, "pay_provider": "revolut", "pay_handle": "@my_tag"}
    assert store.post("/me/bank-account/", typed).status_code == 302
    account = BankAccount.objects.get()
    assert (account.iban, account.pay_provider, account.pay_handle) == (IBAN, "revolut", "my_tag")
    with translation.override("en"):
        shown = store.get("/me/bank-account/").content.decode()
    assert 'value="my_tag"' in shown and '<option value="revolut" selected>' in shown
    store.post("/me/bank-account/", {"holder": "", "iban": "", "pay_provider": "revolut", "pay_handle": "my_tag"})
    account = BankAccount.objects.get()  # the IBAN removed, the handle kept: a link without a code
    assert (account.iban, account.holder, account.pay_handle) == ("", "", "my_tag")
    store.post("/me/bank-account/", {"holder": "", "iban": "", "pay_provider": "revolut", "pay_handle": ""})
    assert not BankAccount.objects.exists()  # neither: removed


def settled(club):
    session, p, director = table(club, names=("A", "B", "C"))
    for _ in range(3):
        services.record_game(actor=director, session=session, game={"winner": "box"})  # A keeps the box and wins
    services.finish_session(actor=director, session=session)
    return session, p, director


HANDLE = "AnnaPays"  # the winner's PayPal.Me handle, beside her IBAN


def transfer_item(page: str, transfer) -> str:
    """The settlement's line of one transfer."""
    found = re.search(rf'<li id="transfer-{transfer.pk}">(.*?)</li>', page, re.DOTALL)
    assert found is not None
    return found.group(1)


def test_the_settlement_shows_codes_to_payer_and_payee_only_links_to_the_payer_and_the_api_neither(club):
    session, p, director = settled(club)  # A won every game: B and C each pay A
    winner, payer, other = p["A"], p["B"], p["C"]
    assert {(t.payer_id, t.payee_id) for t in session.transfers.all()} == {(payer.pk, winner.pk), (other.pk, winner.pk)}
    url = f"/chouette/{club.slug}/{session.pk}/settlement/"
    bare, _page = queries_of(web(payer.user), url)  # nobody has stored an account yet
    club_services.set_bank_account(
        actor=winner.user, player=winner, holder="Anna A", iban=IBAN, pay_provider="paypal", pay_handle=HANDLE
    )
    club_services.set_bank_account(actor=payer.user, player=payer, holder="Bernd B", iban=OTHER_IBAN)
    with_link, page = queries_of(web(payer.user), url)
    assert with_link == bare and "paypal.me" in page  # the code and the link read the same account row
    for user in (payer.user, other.user, director, winner.user):  # who pays A, A themselves, the director
        page = web(user).get(url).content.decode()
        assert "DE89 3704 0044 0532 0130 00" in page and 'class="segno"' in page
        assert "GB82" not in page  # nobody pays B: B's account shows nowhere
    for who in (payer, other):  # each payer: the link with their own amount, on their own transfer only
        with translation.override("en"):
            page = web(who.user).get(url).content.decode()
        for t in session.transfers.all():
            line = transfer_item(page, t)
            if t.payer_id == who.pk:
                link = f'href="https://paypal.me/{HANDLE}/{t.cents // 100}.{t.cents % 100:02d}EUR"'
                assert link in line and 'rel="noopener noreferrer"' in line and "Pay with PayPal" in line
            else:
                assert HANDLE not in line
    for user in (director, winner.user):  # they pay nothing here: no link
        assert HANDLE not in web(user).get(url).content.decode()
    stranger = MembershipFactory(club=club).player.user
    assert web(stranger).get(url).status_code == 403
    for client in (api(payer.user), api(director), api(stranger), api(None)):
        for path in (
            f"/api/v1/chouette/sessions/{session.pk}/",
            f"/api/v1/players/{winner.pk}/",
            f"/api/v1/chouette/clubs/{club.slug}/balances/",
        ):
            body = client.get(path).content.decode()
            assert IBAN not in body and "3704" not in body and OTHER_IBAN not in body
            assert HANDLE not in body and "paypal" not in body.lower()
    ledger = web(payer.user).get(f"/export/chouette/{club.slug}/{session.pk}/ledger.csv")
    assert ledger.status_code == 200 and HANDLE not in ledger.content.decode() and IBAN not in ledger.content.decode()


def test_a_session_in_a_currency_paypal_does_not_take_says_so_and_has_no_euro_code(club):
    """A GiroCode moves euros only: a table played in forints once got a code for as many euros."""
    session, p, _director = settled(club)
    session.currency = "HUF"
    session.save(update_fields=["currency"])
    winner, payer = p["A"], p["B"]
    club_services.set_bank_account(
        actor=winner.user, player=winner, holder="Anna A", iban=IBAN, pay_provider="paypal", pay_handle=HANDLE
    )
    with translation.override("en"):
        page = web(payer.user).get(f"/chouette/{club.slug}/{session.pk}/settlement/").content.decode()
    assert "No PayPal link: it does not take HUF." in page and HANDLE not in page and 'class="segno"' not in page
    session.currency = "GBP"  # PayPal takes pounds: the link, still no euro code
    session.save(update_fields=["currency"])
    page = web(payer.user).get(f"/chouette/{club.slug}/{session.pk}/settlement/").content.decode()
    assert "paypal.me/" in page and "GBP" in page and 'class="segno"' not in page
    assert "EUR" not in page.split("paypal.me/", 1)[1].split('"', 1)[0]


def test_payer_marks_paid_payee_confirms_and_the_settlement_says_what_is_open(club):
    session, p, _director = settled(club)
    transfer = session.transfers.first()
    bystander = next(x for x in p.values() if x.pk not in (transfer.payee_id, transfer.payer_id))
    with pytest.raises(NotAllowed):
        services.mark_transfer_paid(actor=bystander.user, session=session, transfer_id=transfer.pk)
    url = f"/chouette/{club.slug}/{session.pk}/settlement/"
    web(transfer.payer.user).post(url + f"{transfer.pk}/paid/")
    transfer.refresh_from_db()
    assert transfer.paid_at is not None and transfer.confirmed_at is None
    with pytest.raises(Conflict):
        services.mark_transfer_paid(actor=transfer.payer.user, session=session, transfer_id=transfer.pk)
    with pytest.raises(NotAllowed):
        services.confirm_transfer_received(actor=transfer.payer.user, session=session, transfer_id=transfer.pk)
    web(transfer.payee.user).post(url + f"{transfer.pk}/received/")
    transfer.refresh_from_db()
    assert transfer.confirmed_at is not None
    with translation.override("en"):
        page = web(transfer.payee.user).get(url).content.decode()
    left = session.transfers.filter(confirmed_at=None).count()
    assert (f"{left} transfer" in page) if left else ("Everything is settled." in page)


def test_calcutta_owner_codes_go_to_the_directors_and_each_owner_for_their_own_transfer_only(club):
    """calcutta.views.owner_codes: what the club pays an owner who comes out ahead, to their stored account
    (what an owner owes the club goes to the club's account: tests/calcutta/test_settle_up.py)."""
    from types import SimpleNamespace

    from calcutta.views import owner_codes

    class Flight(str):
        event = SimpleNamespace(currency="EUR")

    anna, bernd = (MembershipFactory(club=club, player__name=n).player for n in ("Anna", "Bernd"))
    club_services.set_bank_account(
        actor=anna.user, player=anna, holder="Anna", iban=IBAN, pay_provider="revolut", pay_handle="anna_r"
    )
    club_services.set_bank_account(actor=bernd.user, player=bernd, holder="Bernd", iban=OTHER_IBAN)

    def transfer(pk, player, cents, *, received=False):
        bidder = SimpleNamespace(player_id=player.pk, user_id=player.user_id, name=player.name)
        return SimpleNamespace(
            pk=pk, bidder=bidder, to_club=False, cents=cents, confirmed_at=received or None, paid_at=None
        )

    transfers = [transfer(1, anna, 12000), transfer(2, bernd, 500, received=True)]  # Bernd's is settled
    calcutta = SimpleNamespace(flight=Flight("Main"))
    director = MembershipFactory(club=club, role="director").player.user
    with translation.override("en"):
        codes, links = owner_codes(director, calcutta, transfers, is_director=True)
    assert [(pk, c.cents) for pk, c in codes.items()] == [(1, 12000)]
    assert codes[1].payload.split("\n")[5:] == ["Anna", IBAN, "EUR120.00", "", "", "Calcutta Main"]
    assert links[1].url == "https://revolut.me/anna_r?amount=12000&currency=EUR"  # the directors pay for the club
    codes, links = owner_codes(anna.user, calcutta, transfers, is_director=False)
    assert list(codes) == [1] and links == {}  # Anna is paid: her code, no link to pay herself
    assert owner_codes(bernd.user, calcutta, transfers, is_director=False) == ({}, {})  # never Anna's account


def test_a_transfer_still_open_after_a_day_is_reminded_once_payer_first_then_payee(club, settings):
    from datetime import timedelta

    from django.utils import timezone

    from base.settle_up import sweep_reminders as sweep_transfer_reminders
    from chouette.models import Transfer
    from notifications import kinds
    from notifications.models import Notification

    settings.TRANSFER_REMINDER_HOURS = 24
    session, _p, _director = settled(club)
    unpaid, marked = list(session.transfers.order_by("pk"))
    services.mark_transfer_paid(actor=marked.payer.user, session=session, transfer_id=marked.pk)
    assert sweep_transfer_reminders() == 0  # not a day old yet
    session.transfers.update(created_at=timezone.now() - timedelta(hours=25))
    assert sweep_transfer_reminders() == 2
    assert sweep_transfer_reminders() == 0  # once
    to_payer = Notification.objects.get(kind="transfer_reminder", recipient=unpaid.payer.user)
    to_payee = Notification.objects.get(kind="transfer_reminder", recipient=marked.payee.user)
    with translation.override("en"):
        assert "pay it and mark it paid" in kinds.personal(to_payer.kind, to_payer.params)
        assert "confirm you received it" in kinds.personal(to_payee.kind, to_payee.params)
    confirmed = Transfer.objects.filter(reminded_at__isnull=False).count()
    assert confirmed == 2
