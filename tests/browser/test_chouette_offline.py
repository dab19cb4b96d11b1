"""The chouette table without WiFi (docs/chouette.md, "Offline at the table"): games entered offline wait on the
phone, go in by their keys and in order when the connection returns, and a phone that lost the race for a game
number is told so and sends nothing after it."""

import pytest
from django.db.models import Sum
from playwright.sync_api import expect

from chouette.models import EventKind, LedgerEntry, SessionEvent
from tests.browser.test_chouette import sign_in
from tests.chouette.factories import table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def phone(browser, live_server, user, url):
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    page = context.new_page()
    page.set_default_timeout(15000)
    sign_in(page, live_server, user, url)
    # The service worker is running and controls the page (it claims it on activation), and the page's copy is
    # kept (offline.js stores it on the first visit, which came before the worker): a reload offline works.
    # (Polled by evaluate: wait_for_function evaluates a string, which the site's CSP refuses.)
    for _attempt in range(100):
        if page.evaluate(
            "navigator.serviceWorker.controller ? caches.open('chouette-pages')"
            ".then(c => c.match(location.origin + location.pathname)).then(Boolean) : false"
        ):
            break
        page.wait_for_timeout(100)
    else:
        raise AssertionError("the service worker never took control of the table page, or kept no copy of it")
    return context, page


def enter(page, number, winner, kind="single", steps=()):
    expect(page.locator(".chouette-game h2")).to_have_text(f"Game {number}")
    if steps and page.locator("details.cube-action:not([open])").count():
        page.locator("details.cube-action > summary").tap()  # the cube blocks are one tap away
    for name, step in steps:
        page.locator(f"fieldset.cube-row[data-name={name}] [data-step='{step}']").tap()
    page.locator(f"input[name=winner][value={winner}]").check()
    page.locator(f"input[name=kind][value={kind}]").check()
    page.get_by_role("button", name="Enter the game").first.tap()


def games(session):
    return list(
        SessionEvent.objects.filter(session=session, kind=EventKind.GAME, is_current=True)
        .order_by("game_number")
        .values_list("game_number", "payload__winner")
    )


def assert_zero_sum(session):
    totals = LedgerEntry.objects.filter(session=session).values("game_number").annotate(p=Sum("points"), c=Sum("cents"))
    assert all(row["p"] == 0 and row["c"] == 0 for row in totals)


def test_two_games_entered_offline_wait_survive_a_reload_and_reach_every_phone(live_server, browser, club):
    session, players, _director = table(club)
    url = f"/chouette/{club.slug}/{session.pk}/"
    (first_context, first), (_, second) = (phone(browser, live_server, players[name].user, url) for name in ("A", "C"))
    status = first.locator("#offline-queue")
    expect(status).to_have_attribute("role", "status")

    first_context.set_offline(True)
    expect(status).to_contain_text("You are offline")
    # Game 1: the box (A) doubles C, C takes, the team wins a gammon: B takes the box, A to the bottom.
    enter(first, 1, "team", "gammon", steps=[("C", "box:take")])
    expect(status).to_contain_text("1 game waiting to send")
    # The form moved on to game 2 at the seating this phone worked out: B box, C captain, then D and A.
    expect(first.locator(".offline-seating")).to_contain_text("B is the box, C the captain")
    assert first.locator("fieldset.cube-row").evaluate_all("rows => rows.map(r => r.dataset.name)") == ["C", "D", "A"]
    # Game 2: A (now in the team) doubles the box B, B takes; the box wins single.
    enter(first, 2, "box", steps=[("A", "team:take")])
    expect(status).to_contain_text("2 games waiting to send")
    expect(status.locator("li[data-number]")).to_have_count(2)
    assert games(session) == []

    # A reload without a connection shows the table (the service worker's copy) and the queue, at game 3.
    first.reload()
    expect(first.locator("#offline-queue")).to_contain_text("2 games waiting to send")
    expect(first.locator(".chouette-game h2")).to_have_text("Game 3")

    first_context.set_offline(False)
    expect(status).not_to_contain_text("waiting")
    assert games(session) == [(1, "team"), (2, "box")]
    assert_zero_sum(session)
    # Every phone shows the server's ledger: after 2 games, B box and C captain, B's +2 for game 2... the same text.
    for page in (first, second):
        expect(page.locator("#live-state h2").first).to_have_text("After 2 games")
        expect(page.locator(".chouette-game h2")).to_have_text("Game 3")
    assert first.locator("#live-state").inner_text() == second.locator("#live-state").inner_text()
    assert first.locator("ol.seats li .who").all_inner_texts() == ["B", "D", "A", "C"]

    # Signing out forgets the kept table page: offline, the next person on this phone sees no one's table.
    first.get_by_role("button", name="Menu").tap()
    first.get_by_role("button", name="Sign out").tap()
    first.wait_for_url(lambda address: "/chouette/" not in address)
    kept = "caches.open('chouette-pages').then(c => c.keys()).then(k => k.length)"
    for _attempt in range(50):
        if first.evaluate(kept) == 0:
            break
        first.wait_for_timeout(100)
    assert first.evaluate(kept) == 0
    first_context.set_offline(True)
    first.goto(f"{live_server.url}{url}")
    expect(first.locator("body")).to_contain_text("this table was not opened on this phone before")


@pytest.mark.parametrize("winner_first", ["A", "C"])
def test_two_offline_phones_entered_the_same_game_the_second_to_reconnect_is_refused(
    live_server, browser, club, winner_first
):
    """Both phones enter games 1 and 2 offline. The first back puts both in; the second's game 1 is refused with
    the reason and its game 2, entered at a seating that never happened, is held: nothing of it is written."""
    session, players, _director = table(club)
    url = f"/chouette/{club.slug}/{session.pk}/"
    phones = {name: phone(browser, live_server, players[name].user, url) for name in ("A", "C")}
    plans = {  # the two phones disagree about game 1
        "A": [("team", [("C", "box:take")]), ("box", [])],
        "C": [("box", []), ("team", [])],
    }
    for name, (context, page) in phones.items():
        context.set_offline(True)
        expect(page.locator("#offline-queue")).to_contain_text("You are offline")
        for number, (winner, steps) in enumerate(plans[name], start=1):
            enter(page, number, winner, steps=steps)
        expect(page.locator("#offline-queue")).to_contain_text("2 games waiting to send")
    loser = "C" if winner_first == "A" else "A"

    context, page = phones[winner_first]
    context.set_offline(False)
    expect(page.locator("#offline-queue")).not_to_contain_text("waiting")
    expected = [(n, winner) for n, (winner, _steps) in enumerate(plans[winner_first], start=1)]
    assert games(session) == expected

    context, page = phones[loser]
    context.set_offline(False)
    status = page.locator("#offline-queue")
    expect(status.locator("li[data-number='1']")).to_contain_text("Game 1 was refused: Game 1 was already entered")
    expect(status.locator("li[data-number='2']")).to_contain_text("Game 2 was not sent")
    expect(status).not_to_contain_text("waiting to send")
    assert games(session) == expected  # nothing of the loser's written, nothing twice
    assert_zero_sum(session)
    # The loser's page shows the server's ledger, the same as the winner's.
    expect(page.locator("#live-state h2").first).to_have_text("After 2 games")
    winner_page = phones[winner_first][1]
    assert page.locator("#live-state").inner_text() == winner_page.locator("#live-state").inner_text()

    # Discarding the refused game (after a question) leaves the held one; both can go.
    page.on("dialog", lambda dialog: dialog.accept())
    status.locator("li[data-number='1'] button", has_text="Discard").tap()
    expect(status.locator("li[data-number]")).to_have_count(1)
    status.locator("li[data-number='2'] button", has_text="Discard").tap()
    expect(status.locator("li[data-number]")).to_have_count(0)
    page.reload()
    expect(page.locator("#offline-queue li")).to_have_count(0)


def test_after_the_captain_drops_the_phone_seats_the_acting_captain_as_the_server_does(live_server, browser, club):
    """Game 1: the box (A) doubles everyone, B (captain) drops, C and D take; the team wins. C, the highest-ranked
    taker, played on as acting captain and takes the box; B, then A go to the bottom: C, D, B, A."""
    session, players, _director = table(club)
    url = f"/chouette/{club.slug}/{session.pk}/"
    context, page = phone(browser, live_server, players["D"].user, url)
    context.set_offline(True)
    enter(page, 1, "team", steps=[("B", "box:drop"), ("C", "box:take"), ("D", "box:take")])
    expect(page.locator(".offline-seating")).to_contain_text("C is the box, D the captain")
    assert page.locator("fieldset.cube-row").evaluate_all("rows => rows.map(r => r.dataset.name)") == ["D", "B", "A"]
    enter(page, 2, "box")  # the box (C) beats the captain (D): C stays, D to the bottom
    expect(page.locator("#offline-queue")).to_contain_text("2 games waiting to send")
    context.set_offline(False)
    expect(page.locator("#offline-queue")).not_to_contain_text("waiting")
    assert games(session) == [(1, "team"), (2, "box")]
    assert_zero_sum(session)
    session.refresh_from_db()
    names = {p.pk: name for name, p in players.items()}
    assert [names[pid] for pid in session.order] == ["C", "B", "A", "D"]
    expect(page.locator("ol.seats li .who")).to_have_text(["C", "B", "A", "D"])
