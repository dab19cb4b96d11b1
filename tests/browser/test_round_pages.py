"""The new-flight page and the pages of a flight played in rounds on a 390-pixel phone: the format's options
only (no script), a refused setting shown on its field; the crosstable scrolling inside its own box; the wall
sheet; the director's re-pairing and correction with their previews. Nothing scrolls the page sideways.
Screenshots go to $SCREENSHOT_DIR when it is set."""

import os

import pytest
from playwright.sync_api import expect

from clubs.models import Player
from tests.browser.test_chouette import sign_in
from tests.tournaments.builders import make_event
from tests.tournaments.rounds_builders import open_tables, play_round, swiss_event
from tournaments import services
from tournaments.models import Pairing

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = os.environ.get("SCREENSHOT_DIR")
PHONE = 390


def _sign_in(page, live_server, user, url):
    user.set_password("pw-for-tests")
    user.save()
    sign_in(page, live_server, user, url)


def _fill(page, values: dict) -> None:
    for selector, value in values.items():
        page.fill(selector, value)


def _fits(page, name):
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/{name}.png", full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE, name


def _long_names(flight):
    for i, entry in enumerate(flight.entries.select_related("player")):
        Player.objects.filter(pk=entry.player_id).update(name=f"Konstantinopoulou-Wetherington {i}")


def test_the_new_flight_page_shows_the_chosen_formats_options_and_a_refusal_on_its_field(
    live_server, page, club, director_user
):
    event = make_event(club, director_user)
    url = f"/events/{club.slug}/{event.slug}/flights/new/"
    _sign_in(page, live_server, director_user, url)
    assert page.locator("#id_group_size").is_hidden() and page.locator("#id_rounds").is_hidden()
    expect(page.locator("#id_seeding")).to_be_visible()
    _fits(page, "flight_new_knockout")
    page.select_option("#id_format", "groups")
    assert page.locator("#id_group_size").is_visible() and page.locator("#id_cycles").is_visible()
    assert page.locator("#id_rounds").is_hidden() and page.locator("#id_seeding").is_hidden()
    _fits(page, "flight_new_groups")
    _fill(page, {"#id_name": "Group stage", "#id_group_size": "1", "#id_advance": "1"})
    page.click(".flight-form button[type=submit]")
    page.wait_for_selector("#id_group_size_error")
    assert "Groups need a size from 2" in page.inner_text("#id_group_size_error")
    assert page.input_value("#id_name") == "Group stage" and page.input_value("#id_group_size") == "1"
    expect(page.locator("#id_group_size")).to_be_visible()  # the chosen format stays chosen, its field in sight
    _fits(page, "flight_new_refused")
    page.select_option("#id_format", "swiss")
    page.fill("#id_rounds", "5")
    page.click(".flight-form button[type=submit]")
    page.wait_for_url(f"**/events/{club.slug}/{event.slug}/")
    assert event.flights.get().rounds == 5


def test_the_standings_crosstable_and_wall_sheet_fit_a_phone(live_server, page, club, director_user):
    _, flight = swiss_event(club, director_user, 9, rounds=4)
    _long_names(flight)
    services.start_round(actor=director_user, flight=flight)
    play_round(director_user, flight)
    play_round(director_user, flight, choose=lambda p: 1)
    _sign_in(page, live_server, director_user, flight.get_absolute_url())
    box = page.locator(".crosstable-section .cross-wrap")
    assert box.count() == 1
    _fits(page, "rounds_crosstable")
    page.goto(f"{live_server.url}{flight.get_absolute_url()}?print=1")
    assert page.locator(".by-name li").count() == 9
    assert page.locator(".site-header").is_hidden()
    _fits(page, "rounds_wall_sheet")
    page.emulate_media(media="print")
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/rounds_wall_sheet_print.png", full_page=True)


def test_the_director_re_pairs_a_round_and_corrects_a_result_on_a_phone(live_server, page, club, director_user):
    _, flight = swiss_event(club, director_user, 8, rounds=3)
    _long_names(flight)
    services.start_round(actor=director_user, flight=flight)
    first = open_tables(flight)
    play_round(director_user, flight)
    _sign_in(page, live_server, director_user, flight.get_absolute_url())
    page.click("text=Re-pair round 2")
    page.wait_for_selector(".repair-rows")
    for i, table in enumerate(first, start=1):  # round 1 again: every table a rematch
        page.select_option(f"#a_{i}", str(table.entry_a_id))
        page.select_option(f"#b_{i}", str(table.entry_b_id))
    page.click(".repair-form button[type=submit]")
    page.wait_for_selector(".repair-preview")
    assert page.locator("li.rematch").count() == 4
    _fits(page, "round_repair_preview")
    page.click(".repair-preview button[type=submit]")
    page.wait_for_url(f"**{flight.get_absolute_url()}")
    assert {(p.entry_a_id, p.entry_b_id) for p in open_tables(flight)} == {(t.entry_a_id, t.entry_b_id) for t in first}
    page.goto(f"{live_server.url}{flight.get_absolute_url()}?round=1")
    page.locator(".correct-link").first.click()
    page.wait_for_selector("#id_comment")
    page.select_option("#id_outcome", "played")
    _fill(page, {"#id_score_a": "1", "#id_score_b": "7", "#id_comment": "slip read the wrong way round"})
    page.click(".flight-form button[type=submit]")
    page.wait_for_selector(".correction-preview")
    assert "Round 2 was paired since" in page.inner_text(".correction-preview")
    _fits(page, "round_correction_preview")
    page.click(".correction-preview button[type=submit]")
    page.wait_for_url(f"**{flight.get_absolute_url()}")
    corrected = Pairing.objects.get(pk=first[0].pk)
    assert corrected.winner_id == corrected.entry_b_id
