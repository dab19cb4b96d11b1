import re

import pytest
from playwright.sync_api import expect

from chouette.models import LedgerEntry
from tests.chouette.factories import table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def sign_in(page, live_server, user, next_url):
    page.goto(f"{live_server.url}/accounts/login/?next={next_url}")
    page.fill("#id_username", user.username)
    page.fill("#id_password", "pw-for-tests")
    page.click("button[type=submit]")
    page.wait_for_url(f"**{next_url}")


def test_a_game_entered_on_one_phone_shows_up_on_the_other_without_a_reload(live_asgi_server, browser, club):
    """Served with websockets: the second phone hears the push (the WSGI live_server's pages poll instead)."""
    live_server = live_asgi_server
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
    first.click("fieldset.cube-row[data-name=C] [data-step='box:take']")
    first.check("input[name=winner][value=team]")
    first.check("input[name=kind][value=gammon]")
    first.click("text=Enter the game")
    first.wait_for_url(re.compile(r".*/chouette/.*"))
    expect(first.get_by_text("Game entered.")).to_be_visible()

    # Phone two: no reload, yet within 2 s (pushed, not polled) the table shows game 1 and the new box.
    second.locator(".chouette-game h2", has_text="Game 2").wait_for(timeout=2000)
    assert second.evaluate("window.__sameDocument") is True
    seats = second.locator("ol.seats li .who").all_inner_texts()
    assert seats == ["B", "C", "D", "A"]  # captain B beat the box: B is box, A at the bottom
    assert "+4" in second.locator("#live-state").inner_text()  # C won a gammon on a 2-cube
    for context, _ in phones:
        context.close()


def test_a_redouble_a_beaver_and_a_drop_go_in_by_taps_above_the_ledger(live_server, page, club):
    """The phone enters a real sequence without scrolling past the ledger: the form comes first, each member's
    cube is a few taps, and the buttons only offer what that cube allows. From the home page: seven taps."""
    session, players, director = table(club)
    url = f"/chouette/{club.slug}/{session.pk}/"
    sign_in(page, live_server, players["B"].user, "/")
    page.locator(f"main a[href='{url}']").first.click()  # the home page's "My open chouette tables"
    taps = 1
    page.wait_for_url(f"**{url}")
    row = {name: page.locator(f"fieldset.cube-row[data-name={name}]") for name in "BCD"}
    row["B"].locator("[data-step='box:take']").click()  # the box doubles B, B takes at 2
    assert row["B"].locator(".by-box").is_hidden()  # B owns the cube now: only B can redouble
    row["B"].locator("[data-step='team:take']").click()  # B redoubles, the box takes at 4
    assert "4" in row["B"].locator(".cube-now").inner_text()
    row["C"].locator("[data-step='box:beaver']").click()  # the box doubles C, C beavers to 4
    row["D"].locator("[data-step='box:drop']").click()  # D drops the box's double
    assert row["D"].locator(".cube-buttons .by-box").is_hidden() and row["D"].locator(".by-team").is_hidden()
    page.check("input[name=winner][value=team]")
    taps += 5
    submit = page.locator(".chouette-game button[type=submit]")
    ledger = page.locator("ol.seats")
    assert submit.bounding_box()["y"] < ledger.bounding_box()["y"]  # the entry form is above the ledger
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # no sideways scrolling on a phone
    submit.click()
    taps += 1
    assert taps == 7  # the kind (single) is the default
    page.get_by_text("Game entered.").wait_for()
    points = {e.player.name: int(e.points) for e in LedgerEntry.objects.filter(session=session)}
    assert points == {"B": 4, "C": 4, "D": -1, "A": -7}
    assert "B is the box, C the captain." in page.locator(".last-game").inner_text()


def test_a_dave_tables_labels_stay_beside_their_fields_on_a_phone(live_server, page, club):
    """'Gave up' once ended one line and its select began the next, reading as the label of nothing."""
    session, players, _director = table(
        club, names=("Anna Becker", "Bernd Hoffmann", "Clara Wagner"), stake_form="dave"
    )
    url = f"/chouette/{club.slug}/{session.pk}/"
    sign_in(page, live_server, players["Bernd Hoffmann"].user, url)
    labels = page.locator(".dave-row label")
    assert labels.count() == 4
    for index in range(labels.count()):
        label = labels.nth(index)
        field = label.locator("input, select").bounding_box()
        box = label.bounding_box()
        # one line: the words first, the field right beside them (not at the start of the next line)
        assert field["x"] > box["x"] + 20 and box["height"] < 1.2 * field["height"], label.inner_text()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
