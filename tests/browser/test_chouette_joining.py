"""A table filled from phones: the opener invites three members, who accept on their own phones; a fourth asks
with the table's join code and the opener lets them in. Each phone is its own browser context (390x844, touch)."""

import pytest
from playwright.sync_api import expect

from chouette.models import ChouetteSession
from tests.browser import pages
from tests.clubs.factories import MembershipFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def phone(browser, live_server, user, next_url):
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    page = context.new_page()
    page.set_default_timeout(15000)
    pages.sign_in(page, live_server.url, user.username, next_url, tap=True)
    return page


def test_a_player_opens_a_table_three_accept_on_their_phones_and_a_fourth_joins_by_code(
    live_asgi_server, browser, club
):
    live_server = live_asgi_server  # with websockets: the opener's page hears the join request without a reload
    p = {name: MembershipFactory(club=club, player__name=name).player for name in ("Anna", "Ben", "Cleo", "Dev", "Eli")}

    opener = phone(browser, live_server, p["Anna"].user, f"/chouette/{club.slug}/new/")
    for name in ("Ben", "Cleo", "Dev"):
        opener.get_by_label(name).tap()
    opener.get_by_role("button", name="Open the table").tap()
    expect(opener.get_by_text("The table is open.")).to_be_visible()
    session = ChouetteSession.objects.get(club=club)
    table_url = session.get_absolute_url()
    expect(opener.locator("ol.seats li .who")).to_have_text(["Anna"])
    expect(opener.locator("#joining")).to_contain_text("Ben: invited, not answered yet")

    for name in ("Ben", "Cleo", "Dev"):  # each on their own phone, from their home page, in one tap
        invited = phone(browser, live_server, p[name].user, "/")
        expect(invited.get_by_text("invites you to")).to_be_visible()
        invited.get_by_role("button", name="Accept").tap()
        invited.wait_for_url(f"**{table_url}")
        expect(invited.get_by_text("You sit at the table.")).to_be_visible()
        expect(invited.locator("ol.seats li .who", has_text=name)).to_be_visible()
        assert invited.evaluate("document.documentElement.scrollWidth") <= 390  # no sideways scrolling

    opener.reload()
    expect(opener.locator("ol.seats li .who")).to_have_count(4)
    code = opener.locator("[data-join-code]").inner_text()
    assert code == session.join_code
    expect(opener.locator("#joining svg.segno")).to_be_visible()

    fourth = phone(browser, live_server, p["Eli"].user, "/chouette/join/")
    fourth.get_by_label("Join code").fill(code.lower())
    fourth.get_by_role("button", name="Ask to join").tap()
    fourth.wait_for_url(f"**{table_url}")
    expect(fourth.get_by_text("You asked to join")).to_have_count(2)  # the message, and the table page's note

    # no reload: the joining panel follows the table live (the request locked the table, which pushes)
    expect(opener.locator("#joining")).to_contain_text("Eli asks to join")
    opener.get_by_role("button", name="Approve Eli").tap()
    expect(opener.get_by_text("Eli sits at the table.")).to_be_visible()
    expect(opener.locator("ol.seats li .who")).to_have_text(["Anna", "Ben", "Cleo", "Dev", "Eli"], ignore_case=False)
    assert sorted(session.seats.values_list("player__name", flat=True)) == ["Anna", "Ben", "Cleo", "Dev", "Eli"]
