"""The data app's pages on a 390-pixel phone: the member import's preview and confirmation, a pasted entry
list's preview, the export links (a real download), and leaving (the password confirmation). None scrolls
sideways."""

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from clubs.models import Membership
from tests.browser import pages
from tests.clubs.factories import ClubFactory, MembershipFactory
from tests.tournaments.builders import make_event
from tournaments import services as tournament_services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "pw-for-tests"


def sign_in(page, base, username):
    pages.sign_in(page, base, username, password=PASSWORD)


def fits(page) -> None:
    """No sideways scrolling at 390 px, measured on a parsed page (evaluated right after a navigation committed,
    the new document may not have its <html> element yet)."""
    page.wait_for_load_state("domcontentloaded")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390, page.url


def test_a_director_imports_members_and_pastes_an_entry_list_on_a_phone(live_server, page):
    club = ClubFactory(name="Phone Club", slug="phone-club")
    director = MembershipFactory(club=club, role="director", player__name="Dora Director").player.user
    MembershipFactory(club=club, player__name="Anna Alt")
    event = make_event(club, director, name="Friday Cup")
    tournament_services.add_flight(actor=director, event=event, name="Main")
    base = live_server.url
    sign_in(page, base, director.username)

    page.goto(f"{base}/clubs/phone-club/")
    fits(page)
    with page.expect_navigation():
        page.get_by_role("link", name="Import members (CSV or a pasted list)").click()
    fits(page)
    page.fill(
        "#import-text", "name;email;rating\nBen Neu;ben@example.org;1500\nBen Neu;ben@example.org;1500\nX;bad;1\n"
    )
    page.get_by_role("button", name="Show the preview").click()
    expect(page.get_by_role("heading", name="Import preview")).to_be_visible()
    expect(page.locator('tr[data-row="2"]')).to_contain_text("create")
    expect(page.locator('tr[data-row="3"]')).to_contain_text("the same as row 2")
    expect(page.locator('tr[data-row="4"]')).to_contain_text("is no e-mail address")
    fits(page)
    assert not Membership.objects.filter(club=club, player__name="Ben Neu").exists()  # nothing before confirming
    page.get_by_role("button", name="Apply these changes").click()
    expect(page.locator(".messages")).to_contain_text("Import done: 1 row applied.")
    assert Membership.objects.get(club=club, player__name="Ben Neu").email == "ben@example.org"

    page.goto(f"{base}{event.get_absolute_url()}")
    fits(page)
    with page.expect_download() as download:
        page.get_by_role("link", name="results and places").click()
    with open(download.value.path(), "rb") as file:
        assert file.read(3) == b"\xef\xbb\xbf"  # UTF-8 with its byte-order mark, for Excel
    page.fill("#id_names_main", "Anna Alt\nanna alt\nNobody Known")
    page.get_by_role("button", name="Check the list").click()
    expect(page.locator("main")).to_contain_text("Nobody Known")
    fits(page)


def test_a_member_leaves_on_a_phone(live_server, page):
    club = ClubFactory()
    MembershipFactory(club=club, role="director")
    member = MembershipFactory(club=club, player__name="Lena Leaving").player
    base = live_server.url
    sign_in(page, base, member.user.username)
    page.goto(f"{base}/accounts/")
    with page.expect_navigation():
        page.get_by_role("link", name="Your data: download it or delete your account").click()
    fits(page)
    with page.expect_navigation():
        page.get_by_role("link", name="Delete my account…").click()
    fits(page)
    page.fill("#leave-password", "not the password")
    page.get_by_role("button", name="Delete my account for good").click()
    expect(page.locator(".messages")).to_contain_text("The password is not right")
    page.fill("#leave-password", PASSWORD)
    page.get_by_role("button", name="Delete my account for good").click()
    expect(page.locator(".messages")).to_contain_text(f"Former player {member.pk}")
    fits(page)
    assert not get_user_model().objects.filter(pk=member.user_id).exists()


def test_a_director_saves_a_template_and_starts_next_week_s_event_on_a_phone(live_server, page):
    club = ClubFactory(name="Template Club", slug="template-club")
    director = MembershipFactory(club=club, role="director").player.user
    event = make_event(club, director, name="Club night 12")
    main = tournament_services.add_flight(actor=director, event=event, name="Main", entry_fee="10", length=5)
    tournament_services.add_flight(actor=director, event=event, name="Consolation", kind="consolation", source=main)
    base = live_server.url
    sign_in(page, base, director.username)

    page.goto(f"{base}{event.get_absolute_url()}")
    page.get_by_text("Save as a template for the next event").click()
    page.fill("#template-name", "Club night")
    fits(page)
    with page.expect_navigation():
        page.get_by_role("button", name="Save the template").click()
    expect(page.get_by_role("heading", name="Club night", exact=True)).to_be_visible()
    expect(page.locator("main table")).to_contain_text("Consolation")
    fits(page)
    page.fill("#event-name", "Club night 13")
    page.fill("#event-day", "2026-05-08")
    with page.expect_navigation():
        page.get_by_role("button", name="Start the event").click()
    expect(page.get_by_role("heading", name="Club night 13")).to_be_visible()
    expect(page.locator("table.flights")).to_contain_text("Consolation")
    fits(page)
    page.goto(f"{base}/clubs/template-club/")
    page.get_by_role("link", name="Event templates").click()
    expect(page.get_by_role("heading", name="Club night")).to_be_visible()
    fits(page)


def test_a_player_chooses_a_display_name_on_a_phone(live_server, page):
    member = MembershipFactory(player__name="Petra Private").player
    base = live_server.url
    sign_in(page, base, member.user.username)
    page.goto(f"{base}/accounts/")
    page.get_by_role("link", name="Display name on public pages").click()
    fits(page)
    page.fill("#display-name", "Nightowl")
    with page.expect_navigation():
        page.get_by_role("button", name="Save", exact=True).click()
    expect(page.locator(".messages")).to_contain_text("public pages show your display name")
    expect(page.locator("main")).to_contain_text("Public pages show: Nightowl.")
    fits(page)


def test_a_club_admin_allows_display_names_and_the_player_sees_how_others_see_them_on_a_phone(live_server, page):
    club = ClubFactory(name="Pseudonym Club", slug="pseudonym-club")
    admin = MembershipFactory(club=club, role="admin", player__name="Ada Admin").player.user
    player = MembershipFactory(club=club, player__name="Petra Private", player__display_name="Nightowl").player
    base = live_server.url
    sign_in(page, base, admin.username)
    page.goto(f"{base}/clubs/pseudonym-club/")
    page.get_by_role("link", name="Club settings").click()
    fits(page)
    page.get_by_label("Allow display names").check()
    with page.expect_navigation():
        page.get_by_role("button", name="Save", exact=True).click()
    expect(page.locator(".messages")).to_contain_text("Saved.")
    expect(page.get_by_label("Allow display names")).to_be_checked()
    fits(page)
    page.context.clear_cookies()  # an anonymous visitor: the member list shows the display name only
    page.goto(f"{base}/clubs/pseudonym-club/")
    expect(page.locator("main table")).to_contain_text("Nightowl")
    expect(page.locator("main table")).not_to_contain_text("Petra Private")
    fits(page)
    sign_in(page, base, player.user.username)
    page.goto(f"{base}/players/{player.pk}/")
    expect(page.get_by_role("heading", name="Petra Private")).to_be_visible()
    expect(page.locator(".shown-as")).to_contain_text("Shown to others as Nightowl")
    fits(page)
    page.locator(".shown-as").get_by_role("link", name="Display name").click()
    expect(page.locator(".display-name-clubs")).to_contain_text("Pseudonym Club")
    fits(page)
