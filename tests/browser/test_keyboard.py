"""By keyboard alone, a live update does not throw the user out: with the focus on "Confirm" of a result waiting on
the home page, another result lands live (reported on another phone); the focus stays on the same Confirm button
in the fresh copy of the page's region, the status line says the results were updated, and Enter confirms.

Served by uvicorn (live_asgi_server): the second result arrives through the websocket, as in production."""

import pytest
from django.utils import translation
from playwright.sync_api import expect

from games.models.matches import MatchReport
from tests.clubs.factories import ClubFactory, MembershipFactory
from tests.games.matchplay.factories import MatchFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FOCUSED_BANNER = "document.activeElement.closest('[data-to-confirm]')?.getAttribute('data-to-confirm') || null"


def new_page(browser):
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.set_default_timeout(15000)
    return context, page


def tab_to(page, script: str, limit: int = 80) -> None:
    """Press Tab until `script` (evaluated on the focused element) is true."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate(f"(() => {{ const el = document.activeElement; return !!({script}); }})()"):
            return
    raise AssertionError(f"Tab never reached {script}")


def test_the_focus_stays_on_confirm_while_another_result_lands_and_enter_confirms(live_asgi_server, browser):
    club = ClubFactory()
    me, first, second = (MembershipFactory(club=club).player for _ in range(3))
    waiting = MatchFactory(club=club, player_a=first, player_b=me, length=5)
    landing = MatchFactory(club=club, player_a=second, player_b=me, length=5)
    from games.matchplay import services as match_services

    match_services.submit_report(actor=first.user, match=waiting, method="final_score", scores=(5, 2))

    with translation.override("en"):
        context, page = new_page(browser)
        page.goto(f"{live_asgi_server.url}/accounts/login/")
        tab_to(page, "el.id === 'id_username'")  # signing in by keyboard
        page.keyboard.type(me.user.username)
        page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement.id") == "id_password"
        page.keyboard.type("pw-for-tests")
        with page.expect_navigation():
            page.keyboard.press("Enter")
        page.wait_for_url(f"{live_asgi_server.url}/")
        page.locator("html[data-live=on]").wait_for(state="attached")
        page.evaluate("window.__sameDocument = true")  # gone if the page reloads
        tab_to(page, f"el.closest(\"[data-to-confirm='{waiting.pk}']\") && el.textContent.trim() === 'Confirm'")
        page.evaluate("document.activeElement.__before = true")  # the button shown before the update
        expect(page.locator("#live-status")).to_have_text("")

        other_context, other = new_page(browser)  # the second opponent reports on their own phone
        other.goto(f"{live_asgi_server.url}/accounts/login/?next=/matches/{landing.pk}/")
        other.fill("#id_username", second.user.username)
        other.fill("#id_password", "pw-for-tests")
        other.click("button[type=submit]")
        other.wait_for_url(f"**/matches/{landing.pk}/")
        other.select_option("form.report-form #id_method", "final_score")
        other.fill("#id_score_a", "5")
        other.fill("#id_score_b", "1")
        with other.expect_navigation():
            other.locator("form.report-form button[type=submit]").click()

        page.locator(f"#live-home [data-to-confirm='{landing.pk}']").wait_for()  # landed live, no reload
        assert page.evaluate("window.__sameDocument") is True
        assert page.evaluate("document.activeElement.__before === undefined")  # the fresh copy's button …
        assert page.evaluate(FOCUSED_BANNER) == str(waiting.pk)  # … of the same result
        assert page.evaluate("document.activeElement.textContent.trim()") == "Confirm"
        expect(page.locator("#live-status")).to_have_text("Results updated")
        assert page.locator("#live-status").get_attribute("role") == "status"

        with page.expect_navigation():
            page.keyboard.press("Enter")
        expect(page.locator(f"[data-to-confirm='{waiting.pk}']")).to_have_count(0)
        assert MatchReport.objects.get(match=waiting).confirmed is True
        assert MatchReport.objects.get(match=landing).is_pending
        other_context.close()
        context.close()
