import re

import pytest

from tests.chouette.factories import table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def sign_in(page, live_server, user, next_url):
    page.goto(f"{live_server.url}/accounts/login/?next={next_url}")
    page.fill("#id_username", user.username)
    page.fill("#id_password", "pw-for-tests")
    page.click("button[type=submit]")
    page.wait_for_url(f"**{next_url}")


def test_a_game_entered_on_one_phone_shows_up_on_the_other_without_a_reload(live_server, browser, club):
    session, players, director = table(club)
    url = f"/chouette/{club.slug}/{session.pk}/"
    phones = []
    for user in (players["A"].user, players["C"].user):
        context = browser.new_context(viewport={"width": 390, "height": 844})
        page = context.new_page()
        page.set_default_timeout(15000)
        sign_in(page, live_server, user, url)
        phones.append((context, page))
    (_, first), (_, second) = phones
    second.evaluate("window.__sameDocument = true")  # gone if the page reloads
    assert second.locator(".chouette-game h2").inner_text() == "Game 1"

    # Phone one: the box doubles C, C takes; the team wins a gammon.
    first.select_option(f"select[name=box_double_{players['C'].pk}]", "take")
    first.check("input[name=winner][value=team]")
    first.select_option("select[name=kind]", "gammon")
    first.click("text=Enter the game")
    first.wait_for_url(re.compile(r".*/chouette/.*"))
    assert first.get_by_text("Game entered.").is_visible()

    # Phone two: no reload, yet within a few polls the table shows game 1 and the new box.
    second.locator(".chouette-game h2", has_text="Game 2").wait_for()
    assert second.evaluate("window.__sameDocument") is True
    seats = second.locator("ol.seats li .who").all_inner_texts()
    assert seats == ["B", "C", "D", "A"]  # captain B beat the box: B is box, A at the bottom
    assert "+4" in second.locator("#live-state").inner_text()  # C won a gammon on a 2-cube
    for context, _ in phones:
        context.close()
