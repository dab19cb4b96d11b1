import pytest
from playwright.sync_api import expect

from tests.clubs.factories import MembershipFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_member_signs_in_and_opens_the_club_page(live_server, page, club):
    member = MembershipFactory(club=club, player__name="Anna Becker", role="director")
    page.goto(f"{live_server.url}/accounts/login/?next=/clubs/{club.slug}/")
    page.fill("#id_username", member.player.user.username)
    page.fill("#id_password", "pw-for-tests")
    page.click("button[type=submit]")
    page.wait_for_url(f"**/clubs/{club.slug}/")
    assert page.locator("h1").inner_text() == club.name
    expect(page.get_by_text("Anna Becker")).to_be_visible()
    expect(page.get_by_text(member.player.user.username)).to_be_visible()  # signed in: the header names the user
    # The director sees the walk-in form, and it works from the phone-sized page.
    page.fill("#id_name", "Night Guest")
    page.click("text=Add player")
    expect(page.get_by_text("Night Guest joined the club.")).to_be_visible()


def test_language_switch_turns_the_page_german(live_server, page, club):
    page.goto(f"{live_server.url}/")
    page.get_by_role("button", name="Menu").click()  # on a phone the language choice is in the folded menu
    with page.expect_navigation():
        page.select_option("#language", "de")
    expect(page.get_by_role("link", name="Anmelden")).to_be_visible()
    assert page.locator("html").get_attribute("lang") == "de"
