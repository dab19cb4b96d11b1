"""Live pages: a result confirmed on one phone shows up, without a reload, on the other open pages within 2 s.

Served by uvicorn (live_asgi_server) with the channel layer the settings name: in-memory by default, Redis when
CHANNEL_LAYER_URL is set (CI)."""

import time

import pytest
from playwright.sync_api import expect

from games.matchplay import services as match_services
from tests.browser import pages
from tests.clubs.factories import ClubFactory, MembershipFactory
from tests.tournaments.builders import drawn_event, ready_slots, win

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


# What each page's sockets and console said, by page: printed when a page does not go live, so a failure says why.
_journal: dict[int, list[str]] = {}


def new_page(browser):
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.set_default_timeout(15000)
    journal = _journal.setdefault(id(page), [])
    page.on("console", lambda message: journal.append(f"console {message.type}: {message.text}"))
    page.on("pageerror", lambda error: journal.append(f"page error: {error}"))
    page.on("framenavigated", lambda frame: frame == page.main_frame and journal.append(f"at {frame.url}"))

    def watch(socket):
        journal.append(f"socket {socket.url}")
        socket.on("framereceived", lambda payload: journal.append(f"  received {str(payload)[:200]}"))
        socket.on("socketerror", lambda error: journal.append(f"  error {error}"))
        socket.on("close", lambda _socket: journal.append("  closed"))

    page.on("websocket", watch)
    return context, page


def sign_in(page, server, user, next_url):
    pages.sign_in(page, server.url, user.username, next_url)


def wait_live(page):
    """The page's socket is open and subscribed (js/live.js marks <html data-live="on">); if it does not come,
    the failure prints what the page's sockets and console said."""
    try:
        page.locator("html[data-live=on]").wait_for(state="attached")
    except Exception as error:
        journal = "\n".join(_journal.get(id(page), [])[-60:])
        raise AssertionError(f"{page.url} never went live: {error}\n{journal}") from error
    page.evaluate("window.__sameDocument = true")  # gone if the page reloads


def test_a_confirmed_result_reaches_the_players_home_the_public_bracket_and_the_dashboard_within_two_seconds(
    live_asgi_server, browser
):
    club = ClubFactory()
    director = MembershipFactory(club=club, role="director").player.user
    event, flights = drawn_event(club, director, 8, length=3)
    first, second = ready_slots(flights["main"])[:2]
    win(director, second)  # the winner of `first` will meet this slot's winner in round 2
    winner, loser = first.entry_a.player, first.entry_b.player
    next_opponent = second.entry_a.player
    match_services.submit_report(actor=winner.user, match=first.match, method="final_score", scores=(3, 1))
    bracket_url = flights["main"].get_absolute_url()

    contexts = []
    context, home = new_page(browser)  # the winner's own page: "my next match" among its panels
    contexts.append(context)
    sign_in(home, live_asgi_server, winner.user, "/")
    context, bracket = new_page(browser)  # anyone's phone on the public bracket
    contexts.append(context)
    bracket.goto(f"{live_asgi_server.url}{bracket_url}")
    context, dashboard = new_page(browser)  # the director's dashboard
    contexts.append(context)
    sign_in(dashboard, live_asgi_server, director, f"{event.get_absolute_url()}dashboard/")
    context, confirming = new_page(browser)  # the loser confirms on a third phone
    contexts.append(context)
    sign_in(confirming, live_asgi_server, loser.user, f"/matches/{first.match_id}/")
    for page in (home, bracket, dashboard):
        wait_live(page)
    board_before = dashboard.locator("#live-dashboard").inner_text()
    pairing = f"against {next_opponent.name}"  # "My next tournament matches" on the home page
    assert pairing not in home.locator("#live-home").inner_text()
    round_two = bracket.locator(".round").nth(1)
    assert round_two.get_by_text(winner.name, exact=True).count() == 0  # "winner of A / B" until then

    with confirming.expect_navigation():
        confirming.locator(f"[data-to-confirm='{first.match_id}'] button[type=submit]").first.click()
    confirmed_at = time.monotonic()

    home.locator("#live-home").get_by_text(pairing).first.wait_for(timeout=2000)
    round_two.get_by_text(winner.name, exact=True).first.wait_for(timeout=2000)
    assert bracket.locator(f"#slot-{first.pk} .side.won").inner_text().startswith(winner.name)
    dashboard.wait_for_function(
        "before => document.getElementById('live-dashboard').innerText !== before", arg=board_before, timeout=2000
    )
    assert time.monotonic() - confirmed_at < 2
    for page in (home, bracket, dashboard):
        assert page.evaluate("window.__sameDocument") is True  # updated in place, not reloaded
    for context in contexts:
        context.close()


def test_a_report_on_one_phone_shows_on_the_opponents_open_home_page_without_a_reload(live_asgi_server, browser):
    """Player A reports 7–3 on a 390 px phone; player B's home page, open on another phone, shows "A reported
    7–3" with its event, flight and round and the header's "1 to confirm" within 2 s, in place."""
    from tests.tournaments.rounds_builders import open_tables, swiss_event
    from tournaments import services as tournament_services

    club = ClubFactory()
    director = MembershipFactory(club=club, role="director").player.user
    event, flight = swiss_event(club, director, 4, rounds=3, length=7)
    tournament_services.start_round(actor=director, flight=flight)
    match = open_tables(flight)[0].match
    reporter, opponent = match.player_a, match.player_b

    context_a, phone_a = new_page(browser)
    context_b, phone_b = new_page(browser)
    sign_in(phone_b, live_asgi_server, opponent.user, "/")
    wait_live(phone_b)
    assert phone_b.locator(f"[data-to-confirm='{match.pk}']").count() == 0
    sign_in(phone_a, live_asgi_server, reporter.user, f"/matches/{match.pk}/")
    phone_a.select_option("form.report-form #id_method", "final_score")  # the form is open: no game entered yet
    phone_a.fill("#id_score_a", "7")
    phone_a.fill("#id_score_b", "3")
    with phone_a.expect_navigation():
        phone_a.locator("form.report-form button[type=submit]").click()
    reported_at = time.monotonic()

    banner = phone_b.locator(f"#live-home [data-to-confirm='{match.pk}']")
    banner.wait_for(timeout=2000)
    assert time.monotonic() - reported_at < 2
    text = banner.inner_text()
    assert f"{reporter.name} reported" in text and "7–3" in text
    assert f"{event.name} · {flight.name} · Round 1" in text
    phone_b.locator("#live-me .to-confirm-badge", has_text="1 to confirm").wait_for(timeout=2000)
    assert phone_b.evaluate("window.__sameDocument") is True  # updated in place, not reloaded
    context_a.close()
    context_b.close()


def test_an_open_public_bracket_shows_a_result_from_the_socket_alone_and_a_reload_shows_the_same(
    live_asgi_server, browser
):
    """The result travels in the socket as the bracket's region itself (rendered once for every open
    page); the page asks nothing over HTTP to show it, and a reload shows the very same bracket."""
    club = ClubFactory()
    director = MembershipFactory(club=club, role="director").player.user
    event, flights = drawn_event(club, director, 8, length=3)
    flight = flights["main"]
    slot = ready_slots(flight)[0]
    winner = slot.entry_a.player
    context, bracket = new_page(browser)
    bracket.goto(f"{live_asgi_server.url}{flight.get_absolute_url()}")
    wait_live(bracket)
    shown = int(bracket.locator("#live-bracket").get_attribute("data-live-version"))
    requests = []
    bracket.on("request", lambda request: requests.append(request.url))

    win(director, slot)
    bracket.locator(f"#slot-{slot.pk} .side.won").wait_for(timeout=2000)
    assert bracket.locator(f"#slot-{slot.pk} .side.won").inner_text().startswith(winner.name)
    bracket.wait_for_timeout(700)  # past any refetch the page would have made
    assert requests == []  # shown without a GET
    assert bracket.evaluate("window.__sameDocument") is True
    live_version = int(bracket.locator("#live-bracket").get_attribute("data-live-version"))
    assert live_version > shown
    live_html = bracket.locator("#live-bracket").inner_html()

    bracket.reload()
    assert int(bracket.locator("#live-bracket").get_attribute("data-live-version")) == live_version
    assert bracket.locator("#live-bracket").inner_html() == live_html
    context.close()


def test_results_arrive_as_the_changed_slots_and_the_bracket_is_then_the_one_a_reload_shows(live_asgi_server, browser):
    """After the first result the socket sends only the slots a result changed (and the entries' places); the page
    swaps them in, asks nothing over HTTP, and after three results shows exactly what a reload shows."""
    club = ClubFactory()
    director = MembershipFactory(club=club, role="director").player.user
    event, flights = drawn_event(club, director, 16, length=3)
    flight = flights["main"]
    context, bracket = new_page(browser)
    frames = []
    bracket.on("websocket", lambda socket: socket.on("framereceived", lambda payload: frames.append(str(payload))))
    bracket.goto(f"{live_asgi_server.url}{flight.get_absolute_url()}")
    wait_live(bracket)
    requests = []
    bracket.on("request", lambda request: requests.append(request.url))

    for number, slot in enumerate(ready_slots(flight)[:3]):
        win(director, slot, number % 2)
        expect(bracket.locator(f"#slot-{slot.pk} .side.won")).to_have_count(1, timeout=2000)
    bracket.wait_for_timeout(700)  # past any refetch the page would have made
    assert requests == []
    assert sum('"patches"' in frame for frame in frames) >= 2  # the results after the first came as parts
    assert bracket.evaluate("window.__sameDocument") is True
    live_version = bracket.locator("#live-bracket").get_attribute("data-live-version")
    live_html = bracket.locator("#live-bracket").inner_html()

    bracket.reload()
    assert bracket.locator("#live-bracket").get_attribute("data-live-version") == live_version
    assert bracket.locator("#live-bracket").inner_html() == live_html
    context.close()
