"""A whole Swiss night of nine with a top-4 cut, run from the pages only, as a club runs it: the director on a
1366-pixel laptop sets the event up, enters the players from the checklist, confirms the one no-show, pairs three
rounds, calls the tables to the boards and watches the dashboard; each player on a 390-pixel phone checks in,
finds tonight's table from the home page and reports, and the opponent confirms on a page that shows the report
without a reload (the live push). The cut is drawn by itself when round 3 ends and played to a winner the same
way. The test counts the director's clicks and each player's taps from home, and prints them.

Served by uvicorn with websockets (live_asgi_server), so the pages hear the pushes as in production."""

import datetime
import os
from collections import Counter, defaultdict

import pytest
from django.utils import timezone

from clubs.models import Player
from tests.clubs.factories import MembershipFactory
from tournaments.models import Entry, EntryStatus, Event, FeedRule, Flight, Pairing

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = os.environ.get("SCREENSHOT_DIR")
PHONE, LAPTOP = 390, 1366
PASSWORD = "pw-for-tests"
NAMES = ["Ana", "Bea", "Cai", "Dov", "Eli", "Fay", "Gus", "Hal", "Ivo"]  # Ivo does not come


class Clicks:
    """Counts each person's clicks and taps: every action of the test goes through `tap`."""

    def __init__(self):
        self.counts: Counter = Counter()

    def tap(self, who: str, locator) -> None:
        self.counts[who] += 1
        locator.click()


def _shot(page, name):
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/{name}.png", full_page=True)


def _fits(page):
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]


def _report_and_confirm(live, phones, match, winner_name, loser_name, clicks, home_taps, where: str):
    """The winner finds the match on the home page and reports it; the loser's home page, open all along, shows
    the report to confirm without a reload (the live push) and the loser confirms it."""
    winner, loser = phones[winner_name], phones[loser_name]
    loser.goto(f"{live.url}/")  # open before the report: what follows arrives by the push
    winner.goto(f"{live.url}/")
    row = winner.locator("section[aria-labelledby=tournament-next-title] li", has_text=where)
    taps_before = clicks.counts[winner_name]
    clicks.tap(winner_name, row.get_by_role("link", name="Play / report"))
    winner.wait_for_url(f"**/matches/{match.pk}/")
    winner.select_option("form.report-form #id_method", "final_score")
    clicks.counts[winner_name] += 1
    a_wins = match.player_a.name == winner_name
    winner.fill("#id_score_a", str(match.length if a_wins else 1))
    winner.fill("#id_score_b", str(1 if a_wins else match.length))
    home_taps[winner_name].append(clicks.counts[winner_name] - taps_before)
    _shot(winner, f"night_report_{match.pk}")
    clicks.tap(winner_name, winner.locator("form.report-form button[type=submit]"))
    banner = loser.locator(f"[data-to-confirm='{match.pk}']")
    banner.wait_for(timeout=5000)  # no reload: the push brought it (a poll would take longer)
    _fits(loser)
    _shot(loser, f"night_confirm_{match.pk}")
    assert match.player_a.name in banner.inner_text()  # the card names the match (and its event and round)
    clicks.tap(loser_name, banner.get_by_role("button", name="Confirm"))
    loser.wait_for_load_state()


def _play_round_from_phones(live, laptop, phones, flight, number, clicks, home_taps):
    tables = list(
        Pairing.objects.filter(flight=flight, round=number).select_related("match__player_a", "match__player_b")
    )
    assert len(tables) == 4 and all(t.match_id for t in tables)
    laptop.goto(f"{live.url}{flight.event.get_absolute_url()}boards/")
    boards = laptop.inner_text(".calling-boards")
    _shot(laptop, f"night_boards_round_{number}")
    for table in tables:
        assert f"Round {number}, table {table.table}" in boards  # every Swiss table called to a board
    laptop.goto(f"{live.url}{flight.event.get_absolute_url()}dashboard/")
    dashboard = laptop.inner_text("main")
    _shot(laptop, f"night_dashboard_round_{number}")
    for table in tables:
        assert f"Round {number}, table {table.table}" in dashboard
    for table in tables:
        match = table.match
        a, b = match.player_a.name, match.player_b.name
        _report_and_confirm(live, phones, match, a, b, clicks, home_taps, f"Round {number}, table {table.table}")
    flight.refresh_from_db()


def _play_knockout_round_from_phones(live, laptop, phones, cut, clicks, home_taps):
    from tournaments.models import Slot

    slots = list(
        Slot.objects.filter(flight=cut, result="ready", match__isnull=False).select_related(
            "match__player_a", "match__player_b"
        )
    )
    assert slots
    for slot in slots:
        match = slot.match
        _report_and_confirm(
            live, phones, match, match.player_b.name, match.player_a.name, clicks, home_taps, match.player_a.name
        )


def _context(browser, live, user, width):
    page = browser.new_context(viewport={"width": width, "height": 900 if width > PHONE else 844}).new_page()
    page.set_default_timeout(20000)
    page.goto(f"{live.url}/accounts/login/?next=/")
    page.fill("#id_username", user.username)
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(f"{live.url}/")
    return page


@pytest.fixture
def night(club):
    director = MembershipFactory(club=club, role="director").player.user
    players = {}
    for name in NAMES:
        player = MembershipFactory(club=club).player
        Player.objects.filter(pk=player.pk).update(name=name)
        player.user.set_password(PASSWORD)
        player.user.save()
        players[name] = player.user
    director.set_password(PASSWORD)
    director.save()
    return director, players


def test_a_swiss_night_of_nine_with_a_top_four_cut_is_run_from_the_pages(live_asgi_server, browser, club, night):
    live = live_asgi_server
    director_user, users = night
    clicks = Clicks()
    laptop = _context(browser, live, director_user, LAPTOP)

    # --- set-up: the event, the Swiss with its cut and check-in deadline, nine players from the checklist
    laptop.goto(f"{live.url}/events/")
    laptop.fill("#id_name", "Friday Swiss")
    laptop.fill("#id_starts_on", timezone.localdate().isoformat())
    clicks.tap("director", laptop.get_by_role("button", name="Create event"))
    laptop.wait_for_selector("text=Event created.")
    event = Event.objects.get(name="Friday Swiss")
    clicks.tap("director", laptop.get_by_role("link", name="Add a flight"))
    laptop.fill("#id_name", "Main")
    laptop.select_option("#id_format", "swiss")
    laptop.fill("#id_rounds", "3")
    laptop.fill("#id_cut_size", "4")
    laptop.fill("#id_length", "3")
    deadline = timezone.localtime() + datetime.timedelta(hours=1)
    laptop.fill("#id_check_in_deadline", deadline.strftime("%Y-%m-%d %H:%M"))
    clicks.tap("director", laptop.get_by_role("button", name="Add flight"))
    laptop.wait_for_selector("text=Flight added.")
    swiss = Flight.objects.get(event=event, slug="main")
    cut = Flight.objects.get(source=swiss, feed_rule=FeedRule.CUT)  # made with the Swiss
    for name in NAMES:
        clicks.tap("director", laptop.locator(f"#id_members_main li[data-name] label:has-text('{name}')"))
    clicks.tap("director", laptop.get_by_role("button", name="Check the list"))
    clicks.tap("director", laptop.get_by_role("button", name="Enter these 9 players"))
    laptop.wait_for_selector("text=9 players entered")
    assert swiss.entries.count() == 9
    setup_clicks = clicks.counts["director"]

    # --- check-in: eight players tap "Check in" on their phones; Ivo does not come
    phones = {name: _context(browser, live, users[name], PHONE) for name in NAMES[:8]}
    for name, phone in phones.items():
        clicks.tap(name, phone.get_by_role("button", name="Check in — Friday Swiss, Main"))
        phone.wait_for_selector("text=Checked in.")
    _fits(phones["Ana"])
    laptop.goto(f"{live.url}{swiss.get_absolute_url()}")
    assert "8 of 9 checked in" in laptop.inner_text(".check-in-count")
    assert "then" in laptop.inner_text(".next-stage").lower() and "drawn when round 3 ends" in laptop.inner_text(
        ".next-stage"
    )
    clicks.tap("director", laptop.get_by_role("button", name="Pair round 1"))
    assert laptop.inner_text(".no-shows-to-withdraw") == "Ivo"
    clicks.tap("director", laptop.get_by_role("button", name="Withdraw them and pair round 1"))
    laptop.wait_for_selector(".round-tables")
    ivo = Entry.objects.get(flight=swiss, player__name="Ivo")
    assert ivo.status == EntryStatus.WITHDRAWN
    assert Pairing.objects.filter(flight=swiss, round=1).count() == 4

    # --- boards: four boards, auto-call on: the Swiss tables are called to them as they come
    laptop.goto(f"{live.url}{event.get_absolute_url()}")
    clicks.tap("director", laptop.get_by_role("link", name="Boards and calls"))
    laptop.fill("input[name=count]", "4")
    clicks.tap("director", laptop.locator("form:has(input[name=count]) button[type=submit]"))
    clicks.tap("director", laptop.get_by_role("button", name="Switch auto-call on"))
    laptop.wait_for_selector("text=Auto-call is on.")

    home_taps: dict = defaultdict(list)  # each player's taps from home to the report form, match by match
    for number in (1, 2, 3):
        _play_round_from_phones(live, laptop, phones, swiss, number, clicks, home_taps)
    swiss.refresh_from_db()
    assert swiss.status == "finished"
    cut.refresh_from_db()
    assert cut.draw_status == "released" and cut.entries.count() == 4  # drawn by itself when round 3 ended
    laptop.goto(f"{live.url}{swiss.get_absolute_url()}")
    assert "Main is over." in laptop.inner_text(".next-stage")

    # --- the cut: two semi-finals and the final, found and reported from home the same way
    for _ in range(2):
        _play_knockout_round_from_phones(live, laptop, phones, cut, clicks, home_taps)
    winner = Entry.objects.get(flight=cut, place=1)
    laptop.goto(f"{live.url}{cut.get_absolute_url()}")
    assert winner.player.name in laptop.inner_text("main")
    print(f"\nset-up clicks (director): {setup_clicks}")
    print("director clicks, whole night:", clicks.counts["director"])
    print("taps from home to a report form, per player:", dict(home_taps))
    print("all clicks and taps:", dict(clicks.counts))
    assert sum(len(taps) for taps in home_taps.values()) == 12 + 3  # every match reported from a phone's home
    assert max(t for taps in home_taps.values() for t in taps) <= 3  # found and opened in at most 3 taps
