"""Prize money on a 390-pixel phone: the prize list with a payout table, and the director recording a prize paid."""

import datetime
import re

import pytest
from playwright.sync_api import expect

from tests.browser import pages
from tests.clubs.factories import ClubFactory, MembershipFactory
from tests.tournaments.builders import drawn_event, play_all
from tournaments import services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def fits(page):
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_the_director_reads_the_prize_list_and_records_a_prize_paid_on_a_phone(live_server, page):
    club = ClubFactory()
    director = MembershipFactory(club=club, role="director").player.user
    event, flights = drawn_event(club, director, 12, entry_fee=10)
    main = flights["main"]
    play_all(director, [main])
    services.set_flight_payouts(actor=director, flight=main, table="club", house_percent="10", added_money="30")
    winner = main.entries.get(place=1).player
    url = f"/events/{club.slug}/{event.slug}/prizes/"

    page.goto(f"{live_server.url}/accounts/login/?next={url}")
    page.fill("#id_username", director.username)
    page.fill("#id_password", "pw-for-tests")
    page.click("button[type=submit]")
    page.wait_for_url(f"**{url}")
    section = page.locator(f"#prize-{main.slug}")
    expect(section.locator(".pool")).to_contain_text("Pool 138.00")  # 120 fees - 12 house + 30 added
    expect(section.locator(".pool")).to_contain_text("returns 115.0% of the fees")
    expect(section.locator(".prize-places tbody tr")).to_have_count(3)  # 12 entries: 50/30/20
    fits(page)
    row = section.locator(".prize-winners tbody tr", has_text=winner.name)
    expect(row).to_contain_text("69.00")
    row.get_by_role("button", name=f"Record the prize of {winner.name} as paid").click()
    expect(page.locator(".messages, .message, [role=status], [role=alert]").first).to_contain_text(
        "Prize recorded as paid."
    )
    expect(page.locator(f"#prize-{main.slug} .prize-winners tbody tr", has_text=winner.name)).to_contain_text(
        "paid 69.00"
    )
    fits(page)


def sign_in(page, live_server, user, url):
    pages.sign_in(page, live_server.url, user.username, url)


def test_the_director_records_a_payment_on_the_entries_payments_page_on_a_phone(live_server, page):
    club = ClubFactory()
    director = MembershipFactory(club=club, role="director").player.user
    event = services.create_event(actor=director, club=club, name="Cup", starts_on=datetime.date(2026, 5, 1))
    flight = services.add_flight(actor=director, event=event, name="Main", entry_fee=20)
    players = [MembershipFactory(club=club, player__name=f"Player {n}").player for n in range(3)]
    entries = [services.register(actor=director, flight=flight, player=p) for p in players]
    services.record_payment(actor=director, entry=entries[0], method="cash", amount="20")
    url = f"/events/{club.slug}/{event.slug}/{flight.slug}/payments/"

    sign_in(page, live_server, director, url)
    expect(page.locator(".unpaid h2")).to_have_text("Not paid yet (2)")
    expect(page.locator(".fee-totals")).to_contain_text("Cash 20.00")
    fits(page)
    row = page.locator(f"#entry-{entries[1].pk}")
    row.locator("select[name=method]").select_option("transfer")
    row.get_by_role("button", name="Record for Player 1").click()
    expect(page.locator(".unpaid h2")).to_have_text("Not paid yet (1)")
    expect(page.locator(".fee-totals")).to_contain_text("Bank transfer 20.00")
    fits(page)


def test_the_payer_scans_the_transfer_code_on_the_chouette_settlement_on_a_phone(live_server, page):
    from chouette import services as chouette_services
    from clubs import services as club_services
    from tests.chouette.factories import table

    club = ClubFactory()
    session, players, director = table(club, names=("Anna", "Bernd", "Clara"))
    for _ in range(3):  # Anna keeps the box and wins: Bernd and Clara each pay her
        chouette_services.record_game(actor=director, session=session, game={"winner": "box"})
    chouette_services.finish_session(actor=director, session=session)
    anna, bernd = players["Anna"], players["Bernd"]
    club_services.set_bank_account(
        actor=anna.user,
        player=anna,
        holder="Anna A",
        iban="DE89370400440532013000",
        pay_provider="paypal",
        pay_handle="AnnaAPaysTwentyChars",  # the longest a PayPal.Me name may be
    )
    url = f"/chouette/{club.slug}/{session.pk}/settlement/"

    sign_in(page, live_server, bernd.user, url)
    mine = page.locator(".transfers li", has_text="Bernd pays Anna")
    link = mine.get_by_role("link", name="Pay with PayPal")
    expect(link).to_be_visible()  # beside the code, the amount filled in, in a new tab
    expect(link).to_have_attribute("href", re.compile(r"^https://paypal\.me/AnnaAPaysTwentyChars/\d+\.\d\dEUR$"))
    expect(link).to_have_attribute("target", "_blank")
    fits(page)
    mine.locator("summary", has_text="Transfer code").click()
    expect(mine.locator(".paycode svg.segno")).to_be_visible()
    expect(mine.locator(".paycode-text")).to_contain_text("DE89 3704 0044 0532 0130 00")
    fits(page)
    mine.get_by_role("button", name="Mark paid").click()
    expect(page.locator(".transfers li", has_text="Bernd pays Anna")).to_contain_text("paid, waiting for the payee")
    expect(page.locator(".settle-open")).to_have_text("2 transfers still open.")
    fits(page)
