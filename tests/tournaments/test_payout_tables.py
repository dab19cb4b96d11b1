"""Payout tables on a flight: the director picks a preset or the club's own table, the prize list shows the pool,
its return %, each place's amount and who won it, and each prize is recorded as paid once."""

import pytest
from django.urls import reverse
from django.utils import translation

from base.errors import Conflict, Invalid
from tests.clients import queries_of, web
from tournaments import selectors, services
from tournaments.core.payout_tables import PayoutTableError
from tournaments.models import ClubPayoutTable, PrizePayment

from .builders import drawn_event, play_all

pytestmark = pytest.mark.django_db

BANDS = [
    {"from": 2, "to": 8, "percents": ["70", "30"]},
    {"from": 9, "to": None, "percents": ["50", "30", "20"]},
]


def finished(club, director, n=8, **kwargs):
    event, flights = drawn_event(club, director, n, entry_fee=10, **kwargs)
    play_all(director, [flights["main"]])
    return event, flights["main"]


def test_a_preset_grows_with_the_field_and_pays_every_cent(club, director_user):
    event, main = finished(club, director_user)
    services.set_flight_payouts(
        actor=director_user, flight=main, table="club", house_percent="10", house_fixed="0.50", added_money="20"
    )
    prize = next(p for p in selectors.prize_list(event=event) if p.flight.pk == main.pk)
    table = prize.table
    assert (table.pool.collected, table.pool.house, table.pool.added, table.pool.net) == (8000, 1200, 2000, 8800)
    assert str(table.pool.return_percent) == "110.0"
    assert [row.amount for row in table.places] == [5720, 3080]  # 8 entries: 65/35
    assert [w.amount for a in table.awards for w in a.winners] == [5720, 3080]
    assert table.awards[0].winners[0].paid is None


def test_a_club_table_is_saved_checked_and_used(club, director_user):
    own = services.create_payout_table(actor=director_user, club=club, name="Friday", bands=BANDS)
    event, main = finished(club, director_user, n=12)
    services.set_flight_payouts(actor=director_user, flight=main, table=f"club-{own.pk}")
    table = next(p for p in selectors.prize_list(event=event) if p.flight.pk == main.pk).table
    assert table.name == "Friday" and [r.amount for r in table.places] == [6000, 3600, 2400]
    # the two losing semi-finalists tie for 3rd: they share 3rd (20%) and 4th (nothing paid)
    third = table.awards[2]
    assert third.covers == (3,) and [w.amount for w in third.winners] == [1200, 1200]


def test_bad_tables_and_amounts_are_refused_and_nothing_is_written(club, director_user):
    with pytest.raises(PayoutTableError) as refused:
        services.create_payout_table(
            actor=director_user, club=club, name="Bad", bands=[{"from": 2, "to": None, "percents": ["60", "30"]}]
        )
    assert "add 10%" in refused.value.message
    assert not ClubPayoutTable.objects.exists()
    event, main = finished(club, director_user)
    for field, value in (("house_fixed", "-1"), ("added_money", "1e999999"), ("added_money", "NaN")):
        with pytest.raises(Invalid) as bad:
            services.set_flight_payouts(actor=director_user, flight=main, table="club", **{field: value})
        assert bad.value.field == field
    with pytest.raises(Invalid):
        services.set_flight_payouts(actor=director_user, flight=main, table="club", house_percent="101")
    with pytest.raises(PayoutTableError, match="winner, club, top10, top25"):
        services.set_flight_payouts(actor=director_user, flight=main, table="nope")
    main.refresh_from_db()
    assert main.payout_table == "" and main.added_money == 0


def test_a_prize_is_recorded_paid_once(club, director_user, member_user):
    event, main = finished(club, director_user)
    services.set_flight_payouts(actor=director_user, flight=main, table="winner")
    winner = main.entries.get(place=1).player
    row = services.record_prize_paid(actor=director_user, flight=main, player_id=winner.pk)
    assert row.amount_cents == 8000 and row.place == 1 and row.paid_by == director_user
    with pytest.raises(Conflict) as again:
        services.record_prize_paid(actor=director_user, flight=main, player_id=winner.pk)
    assert again.value.code == "prize_already_paid"
    loser = main.entries.get(place=2).player
    with pytest.raises(Conflict):
        services.record_prize_paid(actor=director_user, flight=main, player_id=loser.pk)
    assert PrizePayment.objects.count() == 1
    table = next(p for p in selectors.prize_list(event=event) if p.flight.pk == main.pk).table
    assert table.awards[0].winners[0].paid == 8000


def test_the_api_sets_the_table_and_records_a_prize(club, director_user, member_user, api_as):
    event, main = finished(club, director_user)
    api = api_as(director_user)
    base = f"/api/v1/events/{club.slug}/{event.slug}/flights/{main.slug}/"
    answer = api.post(f"/api/v1/payout-tables/{club.slug}/", {"name": "Own", "bands": BANDS}, format="json")
    assert answer.status_code == 201, answer.content
    key = answer.json()["key"]
    with translation.override("en"):
        bad = api.post(
            f"/api/v1/payout-tables/{club.slug}/",
            {"name": "Overlap", "bands": [{"from": 2, "to": 8, "percents": ["100"]}, {"from": 6, "percents": ["100"]}]},
            format="json",
        )
    assert bad.status_code == 400 and "start the second at 9" in bad.json()["detail"]
    answer = api.put(base + "payout-table/", {"table": key, "added_money": "10"}, format="json")
    assert answer.status_code == 200 and answer.json()["table"] == key
    prizes = api.get(f"/api/v1/events/{club.slug}/{event.slug}/prizes/").json()
    table = prizes[0]["table"]
    assert table["net_cents"] == 9000 and [p["amount_cents"] for p in table["places"]] == [6300, 2700]
    winner = table["awards"][0]["winners"][0]["player"]
    paid = api.post(base + f"prizes/{winner}/paid/", HTTP_IDEMPOTENCY_KEY="k1")
    assert paid.status_code == 201 and paid.json()["amount_cents"] == 6300
    assert api.post(base + f"prizes/{winner}/paid/", HTTP_IDEMPOTENCY_KEY="k1").status_code == 201  # replayed
    assert api.post(base + f"prizes/{winner}/paid/").status_code == 409
    assert PrizePayment.objects.count() == 1
    assert api_as(member_user).put(base + "payout-table/", {"table": "winner"}, format="json").status_code == 403


def test_prize_page_shows_pool_places_and_winners_and_records_payment(club, director_user, member_user):
    from tests.clients import web

    event, main = finished(club, director_user)
    services.set_flight_payouts(actor=director_user, flight=main, table="club", house_percent="0")
    url = reverse("tournaments:prizes", args=[club.slug, event.slug])
    with translation.override("en"):
        page = web(member_user).get(url).content.decode()
    assert "Pool 80.00" in page and "returns 100.0% of the fees" in page and "52.00" in page
    assert "Record as paid" not in page
    winner = main.entries.get(place=1).player
    done = web(director_user).post(url, {"flight": main.slug, "player": winner.pk})
    assert done.status_code == 302 and PrizePayment.objects.get().amount_cents == 5200
    with translation.override("en"):
        page = web(director_user).get(url).content.decode()
    assert "paid 52.00" in page


def test_the_club_tables_page_reads_bands_from_lines(club, director_user):
    from tests.clients import web

    url = reverse("tournaments:payout-tables", args=[club.slug])
    client = web(director_user)
    answer = client.post(url, {"name": "Ours", "bands": "2-8: 65 35\n9+: 50 30 20"})
    assert answer.status_code == 302
    assert ClubPayoutTable.objects.get().bands[1] == {"from": 9, "to": None, "percents": ["50", "30", "20"]}
    with translation.override("en"):
        page = client.post(url, {"name": "Gap", "bands": "2-8: 65 35\n12+: 50 50"}).content.decode()
    assert "Fields of 9 to 11 entrants have no band" in page
    assert ClubPayoutTable.objects.count() == 1


@pytest.mark.parametrize("n", [8, 32])
def test_the_prize_list_with_tables_costs_the_same_queries_whatever_the_field(
    club, director_user, django_assert_max_num_queries, n
):
    """Measured 10 for the director (the club's tables, the page's rights and the winners' bank accounts for the
    transfer codes included) for 8 and 32 entries."""
    event, main = finished(club, director_user, n=n)
    services.set_flight_payouts(actor=director_user, flight=main, table="top25")
    services.record_prize_paid(actor=director_user, flight=main, player_id=main.entries.get(place=1).player_id)
    client = web(director_user)
    # and one for the flights' versions, behind the expected prizes; one for the viewer's player (their own prize)
    with django_assert_max_num_queries(12):
        assert client.get(reverse("tournaments:prizes", args=[club.slug, event.slug])).status_code == 200


def test_the_director_sees_a_transfer_code_and_pay_link_for_each_unpaid_prize_to_a_stored_account(club, director_user):
    from clubs import services as club_services

    event, main = finished(club, director_user)
    services.set_flight_payouts(actor=director_user, flight=main, table="club", house_percent="0")
    first, second = (main.entries.get(place=p).player for p in (1, 2))
    url, director = reverse("tournaments:prizes", args=[club.slug, event.slug]), web(director_user)
    director.get(url)  # the first visit fills the caches the later ones read
    bare, _page = queries_of(director, url)  # no account stored yet
    club_services.set_bank_account(
        actor=first.user,
        player=first,
        holder="First",
        iban="DE89370400440532013000",
        pay_provider="paypal",
        pay_handle="FirstPays",
    )
    club_services.set_bank_account(  # a handle only, no IBAN: a link, no code
        actor=second.user, player=second, holder="", iban="", pay_provider="revolut", pay_handle="second_r"
    )
    with translation.override("en"):
        counted, page = queries_of(director, url)
    assert counted == bare  # the codes and the links read the same accounts
    assert page.count('class="paycode"') == 1 and "DE89 3704 0044 0532 0130 00" in page  # second: no IBAN
    prizes = {
        w.player_id: w.amount for p in selectors.prize_list(event=event) for a in p.table.awards for w in a.winners
    }
    first_link = f"https://paypal.me/FirstPays/{prizes[first.pk] // 100}.{prizes[first.pk] % 100:02d}EUR"
    assert f'href="{first_link}" target="_blank" rel="noopener noreferrer"' in page and "Pay with PayPal" in page
    assert f"https://revolut.me/second_r?amount={prizes[second.pk]}&amp;currency=EUR" in page
    for user in (first.user, second.user, None):  # the winners themselves, the public: no code, no link
        shown = web_page(user, url)
        assert "DE89 3704" not in shown and "FirstPays" not in shown and "second_r" not in shown
    services.record_prize_paid(actor=director_user, flight=main, player_id=first.pk)
    page = web_page(director_user, url)
    assert 'class="paycode"' not in page and "FirstPays" not in page and "second_r" in page  # paid: no code, no link


def web_page(user, url):
    with translation.override("en"):
        return web(user).get(url).content.decode()


def test_a_player_creating_a_payout_table_is_refused_before_the_body_is_read(club, member_user, api_as):
    """403 for who may not, whatever they send: the body's checks (400 on `bands`) tell a stranger nothing."""
    api = api_as(member_user)
    for body in ({"name": "Mine", "bands": "nonsense"}, {}, {"name": "Mine", "bands": BANDS}):
        for headers in ({}, {"HTTP_IDEMPOTENCY_KEY": "payout-table-refused-1"}):
            answer = api.post(f"/api/v1/payout-tables/{club.slug}/", body, format="json", **headers)
            assert answer.status_code == 403, (body, answer.content)
    assert api_as(None).post(f"/api/v1/payout-tables/{club.slug}/", {}, format="json").status_code in (401, 403)
    with translation.override("en"):  # the refusal speaks of payout tables, not of creating an event
        listed = api.get(f"/api/v1/payout-tables/{club.slug}/")
        page = web(member_user).get(reverse("tournaments:payout-tables", args=[club.slug]))
    assert (listed.status_code, listed.json()["detail"]) == (
        403,
        "Only a director or admin of the club sees and makes its payout tables.",
    )
    assert page.status_code == 403


def test_the_club_marks_a_prize_paid_the_winner_confirms_and_a_day_on_is_reminded(
    club, director_user, member_user, api_as, settings
):
    """Prizes settle up as chouette and Calcutta transfers do (base.settle_up): the payer (the club: a director)
    marks paid, the payee (the winner, or a director) confirms; still unconfirmed a day on, the winner is asked."""
    from datetime import timedelta

    from django.test import Client
    from django.utils import timezone

    from base.settle_up import sweep_reminders
    from notifications import kinds
    from notifications.models import Notification

    event, main = finished(club, director_user)
    services.set_flight_payouts(actor=director_user, flight=main, table="club", house_percent="0")
    first, second = (main.entries.get(place=p).player for p in (1, 2))
    base = f"/api/v1/events/{club.slug}/{event.slug}/flights/{main.slug}/prizes/"
    assert api_as(first.user).post(f"{base}{first.pk}/paid/").status_code == 403  # the club pays it
    assert api_as(director_user).post(f"{base}{first.pk}/paid/").status_code == 201
    assert api_as(member_user).post(f"{base}{first.pk}/received/").status_code == 403  # not theirs
    settings.TRANSFER_REMINDER_HOURS = 24
    PrizePayment.objects.update(paid_at=timezone.now() - timedelta(hours=25))
    assert sweep_reminders() == 1 and sweep_reminders() == 0
    told = Notification.objects.get(kind="transfer_reminder", recipient=first.user)
    with translation.override("en"):
        assert "confirm you received it" in kinds.personal(told.kind, told.params)
    winner = api_as(first.user)
    answer = winner.post(f"{base}{first.pk}/received/", HTTP_IDEMPOTENCY_KEY="prize-received-1")
    assert answer.status_code == 200 and answer.json()["confirmed_at"]
    assert winner.post(f"{base}{first.pk}/received/", HTTP_IDEMPOTENCY_KEY="prize-received-1").status_code == 200
    assert winner.post(f"{base}{first.pk}/received/").json()["code"] == "transfer_confirmed"
    page = Client()
    page.force_login(second.user)  # handed over in cash: the runner-up confirms before anyone marked it
    url = reverse("tournaments:prizes", args=[club.slug, event.slug])
    page.post(url, {"flight": main.slug, "player": second.pk, "action": "received"})
    rows = {
        w["player"]: (w["paid_cents"], w["received"])
        for a in api_as(None).get(f"/api/v1/events/{club.slug}/{event.slug}/prizes/").json()[0]["table"]["awards"]
        for w in a["winners"]
    }
    assert rows[first.pk][1] and rows[second.pk][1] and rows[second.pk][0] > 0
    with translation.override("en"):
        assert page.get(url).content.decode().count(">received<") == 2
