"""Entry fees: payments, refunds and waivers as append-only lines, recorded once when two directors record the
same payment, who has not paid and totals by method, members' and juniors' fees, and the draw leaving out the
unpaid when the flight requires payment first."""

import pytest
from django.urls import reverse
from django.utils import translation

from base.errors import Conflict, Invalid
from tests.clients import web
from tournaments import selectors, services
from tournaments.core import fees
from tournaments.core.fees import FeeError
from tournaments.models import DrawStatus, EntryPayment

from .builders import make_event, members

pytestmark = pytest.mark.django_db


def flight_with(club, director, n=4, **kwargs):
    event = make_event(club, director)
    flight = services.add_flight(actor=director, event=event, name="Main", entry_fee=20, **kwargs)
    entries = [services.register(actor=director, flight=flight, player=p) for p in members(club, n)]
    return event, flight, entries


def test_the_account_counts_payments_refunds_and_a_waiver():
    paid = fees.account(2000, [fees.Line("cash", 1500), fees.Line("online", 1000), fees.Line("cash", -500)])
    assert (paid.paid, paid.outstanding, paid.settled) == (2000, 0, True)
    assert fees.account(2000, [fees.Line("cash", 500)]).outstanding == 1500
    assert fees.account(2000, [fees.Line("waived", 0)]).settled
    with pytest.raises(FeeError) as refused:
        fees.check("refund", "cash", 600, fees.account(2000, [fees.Line("cash", 500)]))
    assert refused.value.code == "refund_too_large" and "5.00" in refused.value.message
    with pytest.raises(FeeError, match="reference"):
        fees.check("payment", "online", 100, paid)
    assert fees.totals_by_method([fees.Line("cash", 700), fees.Line("transfer", 300), fees.Line("cash", -200)]) == {
        "cash": 500,
        "transfer": 300,
        "online": 0,
    }


def test_payments_are_lines_recorded_once_and_never_edited(club, director_user):
    _event, flight, entries = flight_with(club, director_user)
    entry = entries[0]
    first = services.record_payment(actor=director_user, entry=entry, method="cash", amount="15", seen=0)
    assert (first.seq, first.amount, first.recorded_by) == (1, 15, director_user)
    # a second director saw the same empty account and records the same 15 cash: refused, recorded once
    with pytest.raises(Conflict) as twice:
        services.record_payment(actor=director_user, entry=entry, method="cash", amount="15", seen=0)
    assert twice.value.code == "payment_changed" and "15.00 of 20.00" in str(twice.value.message)
    # a client's key answers a repeat with the line it recorded
    keyed = services.record_payment(actor=director_user, entry=entry, method="transfer", amount="5", key="bank-1")
    again = services.record_payment(actor=director_user, entry=entry, method="transfer", amount="5", key="bank-1")
    assert keyed.pk == again.pk and EntryPayment.objects.filter(entry=entry).count() == 2
    services.record_payment(actor=director_user, entry=entry, kind="refund", method="cash", amount="2")
    row = next(r for r in selectors.flight_fees(flight=flight).rows if r.entry.pk == entry.pk)
    assert (row.account.paid, row.account.outstanding) == (1800, 200)
    assert [(p.method, str(p.amount)) for p in row.lines] == [
        ("cash", "15.00"),
        ("transfer", "5.00"),
        ("cash", "-2.00"),
    ]


@pytest.mark.parametrize("amount", ["-5", "1e999999", "NaN", str(2**63), "12.345", "abc", "0"])
def test_bad_amounts_are_refused_saying_what_would_work_and_nothing_is_written(club, director_user, amount):
    _event, _flight, entries = flight_with(club, director_user, n=2)
    with pytest.raises((Invalid, FeeError)) as refused:
        services.record_payment(actor=director_user, entry=entries[0], method="cash", amount=amount)
    assert refused.value.field == "amount" and refused.value.message
    assert not EntryPayment.objects.exists()


def test_a_used_online_reference_and_a_second_waiver_are_refused(club, director_user):
    _event, _flight, entries = flight_with(club, director_user, n=2)
    services.record_payment(actor=director_user, entry=entries[0], method="online", amount="20", reference="PP-1")
    with pytest.raises(Conflict):
        services.record_payment(actor=director_user, entry=entries[1], method="online", amount="20", reference="PP-1")
    services.record_payment(actor=director_user, entry=entries[1], kind="waiver")
    with pytest.raises(FeeError):
        services.record_payment(actor=director_user, entry=entries[1], kind="waiver")


def test_members_and_juniors_pay_what_the_flight_says(club, director_user):
    _event, flight, entries = flight_with(club, director_user, n=3)
    services.set_fee_settings(actor=director_user, flight=flight, member_fee="15", junior_fee="5")
    flight.refresh_from_db()
    services.set_fee_category(actor=director_user, entry=entries[0], category="member")
    services.set_fee_category(actor=director_user, entry=entries[1], category="junior")
    dues = [r.account.due for r in selectors.flight_fees(flight=flight).rows]
    assert sorted(dues) == [500, 1500, 2000]
    with pytest.raises(Invalid):
        services.set_fee_settings(actor=director_user, flight=flight, member_fee="-1")
    with pytest.raises(Invalid):
        services.set_fee_category(actor=director_user, entry=entries[0], category="vip")


def test_payment_required_before_the_draw_leaves_out_the_unpaid_and_the_preview_names_them(club, director_user):
    _event, flight, entries = flight_with(club, director_user, n=5)
    services.set_fee_settings(actor=director_user, flight=flight, payment_required=True)
    flight.refresh_from_db()
    for entry in entries[:3]:
        services.record_payment(actor=director_user, entry=entry, method="cash", amount="20")
    services.record_payment(actor=director_user, entry=entries[3], kind="waiver")
    left_out = selectors.unpaid_left_out(flight=flight)
    assert [e.pk for e in left_out] == [entries[4].pk]
    with translation.override("en"):
        page = web(director_user).get(flight.get_absolute_url()).content.decode()
    assert "Not paid (the draw leaves them out)" in page and entries[4].player.name in page
    services.draw_flight(actor=director_user, flight=flight, seed=3)
    drawn = set(flight.entries.filter(draw_position__isnull=False).values_list("pk", flat=True))
    assert drawn == {e.pk for e in entries[:4]}
    flight.refresh_from_db()
    assert flight.draw_status == DrawStatus.DRAFT


def test_the_payments_page_shows_who_has_not_paid_and_totals_by_method(club, director_user, member_user):
    event, flight, entries = flight_with(club, director_user, n=3)
    services.record_payment(actor=director_user, entry=entries[0], method="cash", amount="20")
    services.record_payment(actor=director_user, entry=entries[1], method="transfer", amount="10")
    url = reverse("tournaments:flight-payments", args=[club.slug, event.slug, flight.slug])
    client = web(director_user)
    with translation.override("en"):
        page = client.get(url).content.decode()
    assert "Not paid yet (2)" in page and "Cash 20.00" in page and "Bank transfer 10.00" in page
    assert "open 30.00" in page
    done = client.post(url, {"entry": entries[2].pk, "seen": "0", "kind": "payment", "method": "cash", "amount": "20"})
    assert done.status_code == 302 and EntryPayment.objects.filter(entry=entries[2]).count() == 1
    with translation.override("en"):
        refused = client.post(
            url, {"entry": entries[2].pk, "seen": "0", "kind": "payment", "method": "cash", "amount": "20"}, follow=True
        ).content.decode()
    assert "Someone recorded a payment of this entry meanwhile" in refused
    assert EntryPayment.objects.filter(entry=entries[2]).count() == 1
    assert web(member_user).get(url).status_code == 403


def test_a_player_sees_what_they_owe_and_paid_on_their_own_page(club, director_user, member_user):
    event, flight, _entries = flight_with(club, director_user, n=1)
    me = member_user.player
    entry = services.register(actor=director_user, flight=flight, player=me)
    services.record_payment(actor=director_user, entry=entry, method="cash", amount="5")
    with translation.override("en"):
        page = web(member_user).get(me.get_absolute_url()).content.decode()
    assert "My entry fees" in page and "15.00" in page
    with translation.override("en"):
        other = web(director_user).get(me.get_absolute_url()).content.decode()
    assert "My entry fees" not in other


def test_the_fees_api(club, director_user, member_user, api_as):
    event, flight, entries = flight_with(club, director_user, n=2)
    api = api_as(director_user)
    base = f"/api/v1/events/{club.slug}/{event.slug}/flights/{flight.slug}/"
    pay = base + f"entries/{entries[0].pk}/payments/"
    first = api.post(pay, {"method": "cash", "amount": "20.00", "seen": 0}, format="json", HTTP_IDEMPOTENCY_KEY="a")
    assert first.status_code == 201 and first.json()["seq"] == 1
    assert api.post(pay, {"method": "cash", "amount": "20.00", "seen": 0}, format="json").status_code == 409
    bad = api.post(pay, {"method": "cash", "amount": "NaN"}, format="json")
    assert bad.status_code == 400 and bad.json()["field"] == "amount"
    assert api.put(base + "fees/", {"payment_required": True}, format="json").status_code == 200
    listed = api.get(base + "payments/").json()
    assert listed["totals_cents"]["cash"] == 2000 and listed["outstanding_cents"] == 2000
    assert listed["left_out"] == [entries[1].name]
    category = api.put(base + f"entries/{entries[1].pk}/fee-category/", {"category": "junior"}, format="json")
    assert category.status_code == 200
    assert api_as(member_user).get(base + "payments/").status_code == 403
    assert api_as(member_user).post(pay, {"method": "cash", "amount": "1"}, format="json").status_code == 403
    assert api_as(member_user).get("/api/v1/events/my-fees/").json() == []


def test_the_dashboard_names_who_has_not_paid_with_totals_by_method(club, director_user):
    event, _flight, entries = flight_with(club, director_user, n=3)
    services.record_payment(actor=director_user, entry=entries[0], method="online", amount="20", reference="X1")
    with translation.override("en"):
        page = web(director_user).get(reverse("tournaments:dashboard", args=[club.slug, event.slug])).content.decode()
    assert "Online 20.00" in page and "2 not paid (40.00 open)" in page
    assert entries[1].player.name in page and entries[2].player.name in page


def test_amounts_past_what_a_money_column_holds_answer_400_and_the_largest_that_fits_is_taken(
    club, director_user, api_as
):
    """10,000,000.00 passed the money parser but not the numeric(9, 2) columns: a payment, a flight's member fee
    and a payout table's added money each answered 500 (found probing the API as a director)."""
    event, flight, entries = flight_with(club, director_user, n=2)
    api = api_as(director_user)
    base = f"/api/v1/events/{club.slug}/{event.slug}/flights/{flight.slug}/"
    pay = base + f"entries/{entries[0].pk}/payments/"
    for path, body, field in (
        (pay, {"method": "cash", "amount": "10000000"}, "amount"),
        (base + "fees/", {"member_fee": "10000000"}, "member_fee"),
        (base + "payout-table/", {"table": "winner", "added_money": "10000000"}, "added_money"),
    ):
        send = api.post if path == pay else api.put
        with translation.override("en"):
            response = send(path, body, format="json")
        assert response.status_code == 400, (path, response.content)
        assert "at most 9999999.99" in str(response.json()["errors"][field])
    assert not EntryPayment.objects.exists()
    assert api.post(pay, {"method": "cash", "amount": "9999999.99"}, format="json").status_code == 201
