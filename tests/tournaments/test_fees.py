"""Entry fees: payments, refunds and waivers as append-only lines, recorded once when two directors record the
same payment, who has not paid and totals by method, members' and juniors' fees, and the draw leaving out the
unpaid when the flight requires payment first."""

import pytest
from django.db import connection
from django.db.models import Q
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation

from base.errors import Conflict, Invalid
from tests.clients import web
from tournaments import selectors, services
from tournaments.core import fees
from tournaments.core.fees import FeeError
from tournaments.models import DrawStatus, Entry, EntryPayment, EntryStatus, SpotStatus

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


def _withdraw_paid(club, director, percent, *, n=4, amount="20"):
    """A flight of n entries of 20.00 in an event refunding `percent` on a withdrawal before the draw; the first
    entry pays `amount` in cash and withdraws. Returns (event, flight, entries)."""
    event, flight, entries = flight_with(club, director, n=n)
    services.update_event(actor=director, event=event, withdrawal_refund_percent=percent)
    services.record_payment(actor=director, entry=entries[0], method="cash", amount=amount)
    services.withdraw(actor=director, entry=entries[0])
    return event, flight, entries


def _row(flight, entry):
    return next(r for r in selectors.flight_fees(flight=flight).rows if r.entry.pk == entry.pk)


@pytest.mark.parametrize(("percent", "refund", "kept"), [(100, 2000, "0.00"), (50, 1000, "10.00"), (0, 0, "20.00")])
def test_a_paid_entry_withdrawn_before_the_draw_keeps_its_lines_and_shows_what_is_to_refund(
    club, director_user, percent, refund, kept
):
    event, flight, entries = _withdraw_paid(club, director_user, percent)
    withdrawn = Entry.objects.get(pk=entries[0].pk)
    assert withdrawn.status == EntryStatus.WITHDRAWN and withdrawn.withdrawn_at is not None
    assert str(withdrawn.kept_fee) == kept and withdrawn.payments.count() == 1
    row = _row(flight, withdrawn)
    assert (row.account.paid, row.account.overpaid) == (2000, refund)
    assert [r.entry.pk for r in selectors.flight_fees(flight=flight).to_refund] == ([withdrawn.pk] if refund else [])
    payments = reverse("tournaments:flight-payments", args=[club.slug, event.slug, flight.slug])
    dashboard = reverse("tournaments:dashboard", args=[club.slug, event.slug])
    with translation.override("en"):
        pay_page = web(director_user).get(payments).content.decode()
        dash_page = web(director_user).get(dashboard).content.decode()
    name = withdrawn.player.name
    if refund:
        assert "To refund (1)" in pay_page and f"{name}</a> ({refund / 100:.2f})" in pay_page
        assert f"To refund ({refund / 100:.2f})" in dash_page and f"{name} ({refund / 100:.2f})" in dash_page
    else:
        assert "To refund" not in pay_page and "To refund" not in dash_page
    # nobody is owed money twice: the withdrawn entry is not "not paid" either
    assert name not in [r.entry.real_name for r in selectors.flight_fees(flight=flight).unpaid]


def test_recording_the_refund_settles_the_withdrawn_entry_and_a_larger_one_is_refused(club, director_user):
    event, flight, entries = _withdraw_paid(club, director_user, 50)
    withdrawn = Entry.objects.get(pk=entries[0].pk)
    with pytest.raises(FeeError):
        services.record_payment(actor=director_user, entry=withdrawn, kind="refund", method="cash", amount="20.01")
    url = reverse("tournaments:flight-payments", args=[club.slug, event.slug, flight.slug])
    form = {"entry": withdrawn.pk, "seen": "1", "kind": "refund", "method": "cash", "amount": "10.00"}
    assert web(director_user).post(url, form).status_code == 302
    row = _row(flight, withdrawn)
    assert (row.account.paid, row.account.overpaid, row.account.settled) == (1000, 0, True)
    assert selectors.flight_fees(flight=flight).to_refund == ()
    with translation.override("en"):
        page = web(director_user).get(url).content.decode()
    assert "To refund" not in page and f'id="entry-{withdrawn.pk}" class="settled"' in page


def test_an_unpaid_entry_withdrawn_before_the_draw_is_gone_as_before(club, director_user):
    _event, _flight, entries = flight_with(club, director_user, n=2)
    assert services.withdraw(actor=director_user, entry=entries[1]) is None
    assert not Entry.objects.filter(pk=entries[1].pk).exists()


def test_the_withdrawn_paid_entry_is_not_drawn_and_the_player_can_enter_again(club, director_user):
    _event, flight, entries = _withdraw_paid(club, director_user, 100, n=5)
    services.draw_flight(actor=director_user, flight=flight, seed=3)
    services.confirm_draw(actor=director_user, flight=flight)
    services.release_draw(actor=director_user, flight=flight)
    withdrawn = Entry.objects.get(pk=entries[0].pk)
    assert withdrawn.draw_position is None
    assert not flight.slots.filter(Q(entry_a=withdrawn) | Q(entry_b=withdrawn)).exists()
    drawn = set(flight.entries.filter(draw_position__isnull=False).values_list("pk", flat=True))
    assert drawn == {e.pk for e in entries[1:]}

    # before another flight's draw, the player who withdrew enters again and their 20.00 counts again
    _event2, flight2, _others = flight_with(club, director_user, n=2)
    me = members(club, 1)[0]
    entry = services.register(actor=director_user, flight=flight2, player=me)
    services.record_payment(actor=director_user, entry=entry, method="cash", amount="20")
    services.withdraw(actor=director_user, entry=entry)
    again = services.register(actor=director_user, flight=flight2, player=me)
    assert again.pk == entry.pk and again.status == EntryStatus.REGISTERED and again.kept_fee is None
    row = _row(flight2, again)
    assert (row.account.paid, row.account.outstanding, row.account.overpaid, row.account.settled) == (2000, 0, 0, True)
    with pytest.raises(Conflict) as twice:
        services.register(actor=director_user, flight=flight2, player=me)
    assert twice.value.code == "already_entered"


def test_the_withdrawn_paid_entry_frees_its_place_for_the_waiting_list(club, director_user):
    event = make_event(club, director_user)
    flight = services.add_flight(actor=director_user, event=event, name="Main", entry_fee=20)
    services.set_cap(actor=director_user, flight=flight, cap=2, offer_hours=12)
    services.set_event_cap(actor=director_user, event=event, cap=5)
    flight.refresh_from_db()
    event.refresh_from_db()
    a, b, c = members(club, 3)
    paid = services.register(actor=director_user, flight=flight, player=a)
    services.register(actor=director_user, flight=flight, player=b)
    spot = services.join_waiting_list(actor=director_user, flight=flight, player=c)
    services.record_payment(actor=director_user, entry=paid, method="cash", amount="20")
    services.withdraw(actor=director_user, entry=paid)
    spot.refresh_from_db()
    assert spot.status == SpotStatus.OFFERED
    assert selectors.flight_places(flight=flight).entered == 1 and selectors.event_places(event=event).entered == 1
    entry = services.accept_place(actor=director_user, spot=spot)
    assert entry.status == EntryStatus.REGISTERED
    # the full flight again: the player who withdrew joins the waiting list, not the flight
    with pytest.raises(Conflict) as full:
        services.register(actor=director_user, flight=flight, player=a)
    assert full.value.code == "flight_full"


def test_a_player_sees_what_is_to_be_refunded_to_them(club, director_user, member_user, api_as):
    event, flight, _entries = flight_with(club, director_user, n=1)
    services.update_event(actor=director_user, event=event, withdrawal_refund_percent=50)
    me = member_user.player
    entry = services.register(actor=director_user, flight=flight, player=me)
    services.record_payment(actor=director_user, entry=entry, method="cash", amount="20")
    services.withdraw(actor=member_user, entry=entry)
    with translation.override("en"):
        page = web(member_user).get(me.get_absolute_url()).content.decode()
    assert "10.00 to be refunded to you" in page
    mine = api_as(member_user).get("/api/v1/events/my-fees/").json()
    assert [(r["due_cents"], r["paid_cents"], r["to_refund_cents"]) for r in mine] == [(1000, 2000, 1000)]
    base = f"/api/v1/events/{club.slug}/{event.slug}/flights/{flight.slug}/payments/"
    listed = {r["entry"]: r for r in api_as(director_user).get(base).json()["entries"]}
    assert (listed[entry.pk]["withdrawn_before_draw"], listed[entry.pk]["to_refund_cents"]) == (True, 1000)


@pytest.mark.parametrize("bad", [101, -1, "half"])
def test_the_event_api_sets_the_refund_percent_for_a_director_only(club, director_user, member_user, api_as, bad):
    event = make_event(club, director_user)
    url = f"/api/v1/events/{club.slug}/{event.slug}/"
    assert api_as(director_user).get(url).json()["withdrawal_refund_percent"] == 100
    done = api_as(director_user).patch(url, {"withdrawal_refund_percent": 50}, format="json")
    assert done.status_code == 200 and done.json()["withdrawal_refund_percent"] == 50
    with translation.override("en"):
        refused = api_as(director_user).patch(url, {"withdrawal_refund_percent": bad}, format="json")
    assert refused.status_code == 400
    if bad != "half":
        assert "whole percent from 0 (none) to 100" in str(refused.json()["errors"]["withdrawal_refund_percent"])
    assert api_as(member_user).patch(url, {"withdrawal_refund_percent": 0}, format="json").status_code == 403
    event.refresh_from_db()
    assert event.withdrawal_refund_percent == 50
    with pytest.raises(Invalid):
        services.update_event(actor=director_user, event=event, withdrawal_refund_percent=101)


def test_the_dashboard_form_sets_the_refund_percent(club, director_user, member_user):
    event = make_event(club, director_user)
    url = reverse("tournaments:event-withdrawal-refund", args=[club.slug, event.slug])
    assert web(director_user).post(url, {"withdrawal_refund_percent": "25"}).status_code == 302
    with translation.override("en"):
        refused = web(director_user).post(url, {"withdrawal_refund_percent": "101"}, follow=True).content.decode()
    assert "less than or equal to 100" in refused
    assert web(member_user).post(url, {"withdrawal_refund_percent": "0"}).status_code == 403
    event.refresh_from_db()
    assert event.withdrawal_refund_percent == 25


def test_the_fee_kept_is_rounded_down_to_the_cent():
    assert fees.kept_on_withdrawal(2000, 100) == 0
    assert fees.kept_on_withdrawal(2000, 50) == 1000
    assert fees.kept_on_withdrawal(999, 33) == 669  # 669.33 kept rounds down: the player gets 3.30, not 3.29
    assert fees.kept_on_withdrawal(2000, 0) == 2000


def test_a_withdrawn_paid_entry_adds_nothing_to_the_prize_pool_and_its_fee_category_moves_what_is_kept(
    club, director_user
):
    event, flight, entries = _withdraw_paid(club, director_user, 50)
    prizes = next(p for p in selectors.prize_list(event=event) if p.flight.pk == flight.pk)
    assert (prizes.flight.pool, prizes.entries) == (60, 3)  # the three still in, 20.00 each
    services.set_fee_settings(actor=director_user, flight=flight, member_fee="10")
    services.set_fee_category(actor=director_user, entry=Entry.objects.get(pk=entries[0].pk), category="member")
    row = _row(flight, entries[0])
    assert (row.account.due, row.account.overpaid) == (500, 1500)


def test_the_payments_page_and_dashboard_cost_the_same_queries_with_more_refunds_to_make(club, director_user):
    """The "To refund" lists come from the accounts both pages load already: no query per withdrawn entry."""

    def cost(n):
        event, flight, entries = flight_with(club, director_user, n=n)
        for entry in entries[: n // 2]:
            services.record_payment(actor=director_user, entry=entry, method="cash", amount="20")
            services.withdraw(actor=director_user, entry=entry)
        client = web(director_user)
        counts = []
        for url in (
            reverse("tournaments:flight-payments", args=[club.slug, event.slug, flight.slug]),
            reverse("tournaments:dashboard", args=[club.slug, event.slug]),
        ):
            client.get(url)  # the session and the caches warm
            with CaptureQueriesContext(connection) as queries:
                assert client.get(url).status_code == 200
            counts.append(len(queries))
        assert len(selectors.flight_fees(flight=flight).to_refund) == n // 2
        return counts

    assert cost(2) == cost(10)


def test_a_payment_key_sent_again_with_another_amount_is_refused_not_answered_with_the_first(
    club, director_user, api_as
):
    """The body's idempotency_key answered 201 with the 3.00 line to a request for 7.00 (found probing the API);
    the Idempotency-Key header refused such a reuse with 409 already."""
    event, flight, entries = flight_with(club, director_user, n=2)
    pay = f"/api/v1/events/{club.slug}/{event.slug}/flights/{flight.slug}/entries/{entries[0].pk}/payments/"
    api = api_as(director_user)
    first = api.post(pay, {"method": "cash", "amount": "3.00", "idempotency_key": "k1"}, format="json")
    again = api.post(pay, {"method": "cash", "amount": "3.00", "idempotency_key": "k1"}, format="json")
    assert first.status_code == again.status_code == 201 and again.json()["seq"] == first.json()["seq"]
    for other in ({"amount": "7.00"}, {"method": "transfer"}, {"kind": "refund"}):
        body = {"method": "cash", "amount": "3.00", "idempotency_key": "k1", **other}
        with translation.override("en"):
            reused = api.post(pay, body, format="json")
        assert (reused.status_code, reused.json()["code"]) == (409, "idempotency_key_reused"), other
        assert "already used for a different request" in reused.json()["detail"]
    assert [str(p.amount) for p in EntryPayment.objects.filter(entry=entries[0])] == ["3.00"]
