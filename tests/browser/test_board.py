"""On a phone (390×844) at the board: a reported result reaches the opponent's home page and is confirmed in one
tap, refusals keep the site's layout, and no page of the demo scrolls sideways."""

import io
import re

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from clubs.models import Player
from games.models.matches import Match, MatchContext, MatchStatus
from tests.browser import pages
from tests.clubs.factories import MembershipFactory
from tests.games.matchplay.factories import MatchFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "pw-for-tests"


def sign_in(page, base, username, password=PASSWORD, next_url="/"):
    pages.sign_in(page, base, username, next_url, password)


def no_sideways_scroll(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth") <= 390


def test_a_player_reports_and_the_opponent_confirms_from_their_home_pages_in_three_taps(live_server, browser, club):
    """Each starts on the home page the sign-in lands on; a tap is a link or button pressed (typing the two
    scores is not counted). The reporter needs two, the opponent one; neither page scrolls sideways."""
    anna = MembershipFactory(club=club, player__name="Anna Becker").player
    bernd = MembershipFactory(club=club, player__name="Bernd Hoffmann").player
    match = MatchFactory(club=club, player_a=anna, player_b=bernd, context=MatchContext.CLUB_NIGHT)
    phones = [browser.new_context(viewport={"width": 390, "height": 844}) for _ in range(2)]
    try:
        first, second = (context.new_page() for context in phones)
        sign_in(first, live_server.url, anna.user.username)  # lands on the home page
        taps = 0
        card = first.locator("li", has_text="against Bernd Hoffmann").first
        assert no_sideways_scroll(first)
        card.get_by_role("link", name="Play / report").click()
        taps += 1
        first.wait_for_url(f"**/matches/{match.pk}/")
        first.fill("#id_score_a", "5")
        first.fill("#id_score_b", "2")
        first.locator("form.report-form button[type=submit]").click()
        taps += 1
        assert taps <= 3
        expect(first.get_by_text("Result reported.")).to_be_visible()
        expect(first.get_by_text("You reported")).to_be_visible()
        assert no_sideways_scroll(first)

        sign_in(second, live_server.url, bernd.user.username)  # lands on the home page
        taps = 0
        assert second.locator("header .to-confirm-badge").inner_text() == "1 to confirm"
        banner = second.locator(".action-banner").first
        assert "Anna Becker reported 5–2" in banner.inner_text()
        assert no_sideways_scroll(second)
        confirm = banner.get_by_role("button", name="Confirm")
        box = confirm.bounding_box()
        assert box["x"] + box["width"] <= 390 and box["y"] + box["height"] <= 844  # in sight without scrolling
        assert box["height"] >= 44  # big enough for a thumb
        confirm.click()
        taps += 1
        assert taps <= 3
        expect(second.get_by_text("Result confirmed.")).to_be_visible()
        assert no_sideways_scroll(second)
    finally:
        for context in phones:
            context.close()
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED and (match.score_a, match.score_b) == (5, 2)


def test_the_menu_folds_on_a_phone_and_opens_with_one_tap(live_server, page, member_user):
    sign_in(page, live_server.url, member_user.username)
    menu = page.locator("#site-menu")
    expect(menu).not_to_be_visible()
    page.get_by_role("button", name="Menu").click()
    assert menu.is_visible() and page.get_by_role("link", name="My matches", exact=True).is_visible()
    height = page.get_by_role("link", name="Matches", exact=True).bounding_box()["height"]
    assert height >= 44
    assert page.locator("link[rel=icon]").count() == 1
    page.goto(f"{live_server.url}/matches/")
    page.keyboard.press("Tab")  # the first tab stop skips the header
    skip = page.get_by_role("link", name="Skip to the content")
    assert skip.evaluate("element => element === document.activeElement") and skip.is_visible()


def test_refusals_render_in_the_site_layout(live_server, page, club, member_user):
    match = MatchFactory(club=club)
    calcutta_less = f"{live_server.url}/matches/{match.pk}/report/"
    page.goto(f"{live_server.url}/matches/999999/")
    assert page.locator("header.site-header").is_visible() and page.locator("h1").inner_text() == "Not found"
    expect(page.get_by_text("No such match.")).to_be_visible()
    expect(page.get_by_role("link", name="Go to the home page")).to_be_visible()
    assert no_sideways_scroll(page)
    sign_in(page, live_server.url, member_user.username)
    response = page.goto(calcutta_less)
    assert response.status == 403
    assert page.locator("header.site-header").is_visible() and page.locator("h1").inner_text() == "Not for you"
    assert page.get_by_text("Only the players of this match and its directors can do this.").is_visible()
    assert no_sideways_scroll(page)
    # In German too, and an address that leads nowhere: the same layout, a reason, a way on.
    page.context.add_cookies([{"name": "django_language", "value": "de", "url": live_server.url}])
    response = page.goto(calcutta_less)
    assert response.status == 403 and page.locator("h1").inner_text() == "Nicht für dich"
    assert page.get_by_role("link", name="Zur Startseite").is_visible() and no_sideways_scroll(page)
    response = page.goto(f"{live_server.url}/no/such/page/")
    assert response.status == 404 and page.locator("header.site-header").is_visible()
    assert page.get_by_role("link", name="Zur Startseite").is_visible() and no_sideways_scroll(page)


def test_no_page_of_the_demo_scrolls_sideways_on_a_phone(live_server, page):
    call_command("load_demo", stdout=io.StringIO())
    anna = Player.objects.get(name="Anna Becker")
    a_match = Match.objects.filter(player_a=anna, status=MatchStatus.FINISHED).first()
    sign_in(page, live_server.url, "anna", password="backgammon-demo")
    pages = [
        "/",
        "/matches/mine/",
        f"/matches/{a_match.pk}/",
        "/events/",
        "/events/bc-berlin/spring-open/",
        "/ratings/",
        f"/players/{anna.pk}/rating/",
        "/clubs/bc-berlin/leaderboard/",
        "/records/",
        "/clubs/bc-berlin/",
        f"/players/{anna.pk}/",
        "/chouette/",
    ]
    wide = {}
    for language in ("en", "de"):  # German words are longer: "Gespielte Matches", "Siegquote"
        page.context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
        for path in pages:
            response = page.goto(f"{live_server.url}{path}")
            assert response.status == 200, path
            width = page.evaluate("document.documentElement.scrollWidth")
            if width > 390:
                wide[f"{language} {path}"] = width
            # Nor does a table hide columns in a sideways-scrolling box. (Left out: the Calcutta panels on club
            # and player pages, whose tables still scroll, with the edge shadow as cue.)
            hidden = page.evaluate(
                "[...document.querySelectorAll('main table')]"
                ".filter(t => !t.closest('.panel')?.querySelector('a[href*=calcutta]'))"
                ".map(t => t.parentElement).filter(box => box.scrollWidth > box.clientWidth + 1)"
                ".map(box => box.scrollWidth)"
            )
            if hidden:
                wide[f"{language} {path} table"] = hidden
    assert wide == {}
    # A signed-out visitor on the auctioneer's page: the refusal, in the layout, with a way on.
    page.context.add_cookies([{"name": "django_language", "value": "en", "url": live_server.url}])
    page.goto(f"{live_server.url}/")
    page.get_by_role("button", name="Menu").click()
    page.get_by_role("button", name="Sign out").click()
    response = page.goto(f"{live_server.url}/calcuttas/1/auctioneer/")
    assert response.status in (403, 404)
    expect(page.locator("header.site-header")).to_be_visible()
    expect(page.get_by_role("link", name="Sign in").first).to_be_visible()


def test_the_new_match_page_shows_a_games_settings_once_that_game_is_chosen(live_server, page):
    """All three settings of other games (and the Dave progression) showed for every match on the phone form:
    each shows only with its own game, and a hidden select's pick is not stored."""
    membership = MembershipFactory(role="director")
    director, club = membership.player.user, membership.club
    opponent = MembershipFactory(club=club).player
    page.goto(f"{live_server.url}/accounts/login/?next=/matches/new/")
    page.fill("#id_username", director.username)
    page.fill("#id_password", "pw-for-tests")
    page.click("button[type=submit]")
    page.wait_for_url("**/matches/new/")
    shown = ("#id_backward_hits", "#id_head_doubles", "#id_six_block", "#id_dave_progression")
    assert [page.is_visible(field) for field in shown] == [False, False, False, False]
    page.select_option("#id_variant", "backward")
    assert [page.is_visible(field) for field in shown] == [True, False, False, False]
    page.select_option("#id_variant", "long_nardy")
    assert [page.is_visible(field) for field in shown] == [False, True, True, False]
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.select_option("#id_head_doubles", "any")
    page.select_option("#id_variant", "standard")  # a change of mind: the hidden 'any double' is not stored
    page.select_option("#id_stakes", "dave")
    assert [page.is_visible(field) for field in shown] == [False, False, False, True]
    page.select_option("#id_stakes", "cube")
    page.select_option("#id_player_a", str(membership.player.pk))
    page.select_option("#id_player_b", str(opponent.pk))
    page.click("form.match-form button[type=submit]")
    page.wait_for_url(re.compile(r".*/matches/\d+/$"))
    match = Match.objects.get(player_b=opponent)
    assert (match.variant, match.head_doubles) == ("standard", "classic")
