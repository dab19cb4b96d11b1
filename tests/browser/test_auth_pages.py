"""The sign-in, account and password-reset pages in a phone-sized browser, under the Content-Security-Policy:
no page of the site, the admin or the API docs breaks the policy, and the lockout is shown inside the site.

Screenshots of each page go to $SCREENSHOT_DIR when it is set (for a look at the 390 px layout)."""

import io
import os
from pathlib import Path

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from tests.clubs.factories import UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = os.environ.get("SCREENSHOT_DIR")


def shot(page, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=f"{SHOTS}/{name}.png", full_page=True)


@pytest.fixture
def violations(page):
    """Console reports of anything the policy refused (inline script, eval, a foreign source)."""
    found = []

    def on_console(message):
        if "Content Security Policy" in message.text:
            found.append(f"{page.url}: {message.text}")

    page.on("console", on_console)
    page.on("pageerror", lambda error: found.append(str(error)))
    return found


def sign_in(page, base: str, username: str, password: str = "pw-for-tests") -> None:
    page.goto(f"{base}/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    with page.expect_navigation():  # the answer to the form, not the page it was sent from
        page.click("main button[type=submit]")


def test_account_page_makes_and_revokes_a_token(live_server, page, violations):
    user = UserFactory(email="anna@example.org")
    sign_in(page, live_server.url, user.username)
    page.wait_for_url(f"{live_server.url}/")
    assert page.locator("header a.who").inner_text() == user.username  # the name leads to the user's home page
    page.get_by_role("button", name="Menu").click()
    page.get_by_role("link", name="Account").click()  # the folded menu leads to the account page
    page.wait_for_url(f"{live_server.url}/accounts/")
    page.fill("#id_name", "Score bot")
    page.click("text=Create token")
    key = page.locator("#new-token").inner_text()
    assert len(key) == 40
    shot(page, "account-new-token")
    page.goto(f"{live_server.url}/accounts/")
    expect(page.get_by_text("Score bot")).to_be_visible()
    expect(page.get_by_text(key[:8])).to_be_visible()
    shot(page, "account-tokens")
    page.click("text=Revoke")
    expect(page.get_by_text("The token was revoked")).to_be_visible()
    expect(page.get_by_text("You have no API tokens.")).to_be_visible()
    assert violations == []


def test_lockout_is_shown_inside_the_site(live_server, page, violations, settings):
    user = UserFactory()
    for _ in range(settings.LOGIN_FAILURE_LIMIT):
        sign_in(page, live_server.url, user.username, "wrong")
        expect(page.get_by_text("didn't match")).to_be_visible()
    shot(page, "login-wrong-password")
    sign_in(page, live_server.url, user.username)
    expect(page.get_by_role("alert")).to_contain_text("Too many failed sign-ins. Try again in 15 minutes")
    expect(page.get_by_role("link", name="Forgot your password?")).to_be_visible()
    shot(page, "login-locked")
    assert violations == []


def test_password_reset_pages_work_under_the_policy(live_server, page, violations):
    UserFactory(email="anna@example.org")
    page.goto(f"{live_server.url}/accounts/login/")
    shot(page, "login")
    page.click("text=Forgot your password?")
    shot(page, "password-reset")
    page.fill("#id_email", "anna@example.org")
    page.click("main button[type=submit]")
    expect(page.get_by_role("heading", name="Check your e-mail")).to_be_visible()
    shot(page, "password-reset-done")
    assert violations == []


def test_admin_and_api_docs_work_under_the_policy(live_server, page, violations):
    staff = UserFactory(is_staff=True, is_superuser=True)
    page.goto(f"{live_server.url}/admin/login/")
    page.fill("#id_username", staff.username)
    page.fill("#id_password", "pw-for-tests")
    page.click("input[type=submit]")
    page.wait_for_url(f"{live_server.url}/admin/")
    page.goto(f"{live_server.url}/admin/accounts/loginfailurewindow/")
    page.goto(f"{live_server.url}/admin/auth/user/{staff.pk}/change/")
    page.goto(f"{live_server.url}/api/docs/")
    page.wait_for_selector(".swagger-ui .info")  # rendered by the docs' script, which the policy allows
    assert violations == []


def test_site_scripts_attached_by_data_attributes_still_work(live_server, page, violations):
    page.goto(f"{live_server.url}/")
    page.get_by_role("button", name="Menu").click()  # data-menu-toggle: a phone's menu opens
    with page.expect_navigation():
        page.select_option("#language", "de")  # data-autosubmit
    assert page.locator("html").get_attribute("lang") == "de"
    assert violations == []


# Sequences restart, so the ids 1 and 2 in the swept URLs are demo objects on PostgreSQL too (not only SQLite)
@pytest.mark.django_db(transaction=True, reset_sequences=True)
def test_every_page_keeps_to_the_content_security_policy(live_server, page, violations, monkeypatch):
    """Every routed page, with the demo's objects, as a director: nothing the policy refuses (an inline script,
    an on* attribute, a style attribute) is left anywhere. A new page is swept as soon as it is routed."""
    from playwright.sync_api import Error as PlaywrightError

    from tests.core.api_sweep import PASSWORD, fill, page_patterns

    monkeypatch.setenv("DEMO_PASSWORD", PASSWORD)
    call_command("load_demo", stdout=io.StringIO())
    sign_in(page, live_server.url, "director", PASSWORD)
    page.wait_for_url(f"{live_server.url}/")
    visited = 0
    for pattern in page_patterns():
        for url in fill(pattern, "bc-berlin")[:2]:
            try:
                response = page.goto(f"{live_server.url}{url}")
            except PlaywrightError:  # an empty answer (405 to a GET of a POST-only URL) is no page to check
                continue
            visited += response is not None and response.status < 500  # a 403 or 404 page is a page too
    assert visited >= 5  # it reached real pages (how many answer depends on the demo ids the database gave)
    assert violations == []


def test_the_behaviour_moved_out_of_inline_handlers_still_works(live_server, page, violations, monkeypatch):
    """The head-to-head picker (data-path-template), the match list's status filter (data-autosubmit) and the
    print links (data-print), which were inline handlers the policy now refuses."""
    from clubs.models import Player
    from tests.core.api_sweep import PASSWORD
    from tournaments.models import Flight

    monkeypatch.setenv("DEMO_PASSWORD", PASSWORD)
    call_command("load_demo", stdout=io.StringIO())
    for player in Player.objects.order_by("pk"):
        page.goto(f"{live_server.url}/players/{player.pk}/rating/")
        if page.locator("select#other option").count():
            break
    else:
        pytest.fail("the demo has no player with a rated opponent")
    other = page.locator("select#other option").first.get_attribute("value")
    page.click("form:has(select#other) button[type=submit]")
    page.wait_for_url(f"**/players/{player.pk}/vs/{other}/")

    page.add_init_script("window.print = () => { window.__printed = true; }")
    page.goto(f"{live_server.url}/matches/")
    with page.expect_navigation():
        page.select_option("#status", index=1)
    assert "status=" in page.url
    flight = Flight.objects.order_by("pk").first()
    page.goto(f"{live_server.url}{flight.get_absolute_url()}")  # the printable draw sheet
    page.locator("[data-print]").first.click()
    assert page.evaluate("() => window.__printed") is True
    assert violations == []
