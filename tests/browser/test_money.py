"""Prize money on a 390-pixel phone: the prize list with a payout table, and the director recording a prize paid."""

import pytest
from playwright.sync_api import expect

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
