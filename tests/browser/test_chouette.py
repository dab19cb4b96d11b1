import re

import pytest
from playwright.sync_api import expect

from chouette import services
from chouette.models import LedgerEntry
from tests.browser import pages
from tests.chouette.factories import table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def sign_in(page, live_server, user, next_url):
    pages.sign_in(page, live_server.url, user.username, next_url)


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
    first.click("details.cube-action > summary")
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
    cube is a few taps (behind "Cube action"), and the buttons only offer what that cube allows. From the home
    page: eight taps."""
    session, players, director = table(club)
    url = f"/chouette/{club.slug}/{session.pk}/"
    sign_in(page, live_server, players["B"].user, "/")
    page.locator(f"main a[href='{url}']").first.click()  # the home page's "My open chouette tables"
    taps = 1
    page.wait_for_url(f"**{url}")
    page.locator("details.cube-action > summary").click()
    taps += 1
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
    submit = page.locator(".chouette-game button[type=submit]").first
    ledger = page.locator("ol.seats")
    assert submit.bounding_box()["y"] < ledger.bounding_box()["y"]  # the entry form is above the ledger
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # no sideways scrolling on a phone
    submit.click()
    taps += 1
    assert taps == 8  # the kind (single) is the default
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


# --- the entry within reach, deals and the take-back, on a phone held at the board -------------------------------

PHONE = {"width": 390, "height": 844}


def phone(browser, live_server, user, url):
    """A touch phone (390 x 844), signed in and on `url`."""
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    page = context.new_page()
    page.set_default_timeout(15000)
    sign_in(page, live_server, user, url)
    return page


def six_games_with_cube_action(session, director):
    """Six games of a four-player table with per-member cubes: doubles, a beaver, drops, a gammon. Each double
    names team members by their place in that game's team (0 = the captain)."""
    games = [
        ({"box": [(0, "take"), (1, "take"), (2, "drop")]}, "team", "gammon"),
        ({"team": [(1, "take")]}, "box", "single"),
        ({"box": [(2, "beaver")]}, "team", "single"),
        ({}, "box", "gammon"),
        ({"box": [(0, "take")]}, "team", "single"),
        ({}, "team", "single"),
    ]
    for doubles, winner, kind in games:
        session.refresh_from_db()
        team = session.order[1:]
        events = [
            {"doubler": doubler, "responses": [{"player": team[i], "response": r} for i, r in answers]}
            for doubler, answers in doubles.items()
        ]
        services.record_game(actor=director, session=session, game={"events": events, "winner": winner, "kind": kind})


def test_after_six_games_the_enter_button_is_within_one_and_a_half_screens_on_a_phone(live_server, browser, club):
    """It stood at y = 1,714 of a 2,679 px page: the per-member cube blocks, "Who won" and "How" came first."""
    session, players, director = table(club)
    six_games_with_cube_action(session, director)
    url = f"/chouette/{club.slug}/{session.pk}/"
    page = phone(browser, live_server, players["B"].user, url)
    expect(page.locator(".chouette-game h2")).to_have_text("Game 7")
    enter = page.get_by_role("button", name="Enter the game").first
    expect(enter).to_be_visible()
    box = enter.bounding_box()
    bottom = box["y"] + box["height"] + page.evaluate("window.scrollY")
    print(f"enter button bottom at {bottom:.0f} px of {page.evaluate('document.documentElement.scrollHeight')} px")
    assert bottom <= 1.5 * PHONE["height"]
    # the cube action is there, one tap away, and the take-back sits below the games, not above the form
    expect(page.locator("details.cube-action fieldset.cube-row")).to_have_count(3)
    take_back = page.get_by_role("link", name="Take back game 6…")
    assert take_back.bounding_box()["y"] > box["y"]
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def enter_plain_team_single(page) -> int:
    """A game without cube action, the team winning a single, entered by taps; returns the taps."""
    taps = 0
    page.locator("input[name=winner][value=team]").tap()
    taps += 1
    if not page.locator("input[name=kind][value=single]").is_checked():
        page.locator("input[name=kind][value=single]").tap()
        taps += 1
    page.get_by_role("button", name="Enter the game").first.tap()
    taps += 1
    expect(page.get_by_text("Game entered.")).to_be_visible()
    return taps


def test_a_plain_game_takes_the_same_few_taps_at_game_one_and_game_six(live_server, browser, club):
    session, players, director = table(club)
    url = f"/chouette/{club.slug}/{session.pk}/"
    page = phone(browser, live_server, players["B"].user, url)
    first = enter_plain_team_single(page)
    for _ in range(4):
        session.refresh_from_db()
        services.record_game(actor=director, session=session, game={"winner": "box", "kind": "gammon"})
    page.goto(live_server.url + url)
    expect(page.locator(".chouette-game h2")).to_have_text("Game 6")
    sixth = enter_plain_team_single(page)
    assert first == sixth <= 3
    assert LedgerEntry.objects.filter(session=session, game_number=6).count() == 4


def test_a_deal_goes_in_from_the_phone_and_shows_as_a_deal_in_the_games(live_server, browser, club):
    session, players, director = table(club)
    url = f"/chouette/{club.slug}/{session.pk}/"
    page = phone(browser, live_server, players["B"].user, url)
    page.locator("details.cube-action > summary").tap()
    row = page.locator("fieldset.cube-row[data-name=C]")
    row.locator("[data-step='box:take']").tap()  # the box doubles C, C takes at 2
    row.locator("input[name^=deal_]").fill("-3")  # then C settles: the box wins 3
    page.locator("input[name=winner][value=team]").tap()
    page.get_by_role("button", name="Enter the game").first.tap()
    expect(page.get_by_text("Game entered.")).to_be_visible()
    expect(page.locator(".chouette-games")).to_contain_text("C deal: -3")
    points = {e.player.name: (int(e.points), e.deal) for e in LedgerEntry.objects.filter(session=session)}
    assert points == {"B": (1, False), "C": (-3, True), "D": (1, False), "A": (1, False)}


def test_the_last_game_is_taken_back_only_after_the_page_says_what_changes(live_server, browser, club):
    session, players, director = table(club)
    url = f"/chouette/{club.slug}/{session.pk}/"
    page = phone(browser, live_server, players["A"].user, url)
    enter_plain_team_single(page)
    page.get_by_role("link", name="Take back game 1…").tap()
    expect(page.locator("h1")).to_have_text("Take back game 1?")
    lines = page.locator(".take-back-lines")
    expect(lines).to_contain_text("A (box): -3")
    expect(lines).to_contain_text("B: +1")
    assert LedgerEntry.objects.filter(session=session).count() == 4  # nothing changed yet
    page.get_by_role("button", name="Yes, take back game 1").tap()
    expect(page.get_by_text("Game 1 taken back.")).to_be_visible()
    expect(page.locator(".chouette-game h2")).to_have_text("Game 1")
    assert not LedgerEntry.objects.filter(session=session).exists()
