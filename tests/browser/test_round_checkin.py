"""A Swiss night of nine in the browser: a player checks in from the home page on a 390-pixel phone (the button
names the event and flight), the director on a 1366-pixel laptop sees the player ticked on the flight page, pairs
round 1 and confirms the one no-show on the page that names them. Nothing scrolls the phone sideways.
Screenshots go to $SCREENSHOT_DIR when it is set."""

import datetime
import os

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from clubs.models import Player
from tests.browser.test_chouette import sign_in
from tests.tournaments.rounds_builders import swiss_event
from tournaments import services
from tournaments.models import Entry, EntryStatus, Pairing

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = os.environ.get("SCREENSHOT_DIR")
PHONE = 390


def _shot(page, name):
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/{name}.png", full_page=True)


def test_a_player_checks_in_from_home_and_the_director_pairs_round_one_confirming_the_no_show(
    live_server, browser, club, director_user
):
    event, flight = swiss_event(
        club, director_user, 9, rounds=4, check_in_deadline=timezone.now() + datetime.timedelta(hours=1)
    )
    entries = list(flight.entries.select_related("player__user").order_by("pk"))
    for i, entry in enumerate(entries):
        Player.objects.filter(pk=entry.player_id).update(name=f"Konstantinopoulou-Wetherington {i}")
    for entry in entries[:7]:
        services.check_in(actor=director_user, entry=entry)
    arriving, absent = entries[7], entries[8]
    for user in (arriving.player.user, director_user):
        user.set_password("pw-for-tests")
        user.save()

    phone = browser.new_context(viewport={"width": PHONE, "height": 844}).new_page()
    phone.set_default_timeout(15000)
    sign_in(phone, live_server, arriving.player.user, "/")
    button = phone.get_by_role("button", name=f"Check in — {event.name}, Swiss")
    button.click()
    phone.wait_for_selector("text=Checked in.")
    assert Entry.objects.get(pk=arriving.pk).status == EntryStatus.CHECKED_IN
    assert phone.get_by_role("button", name=f"Check in — {event.name}, Swiss").count() == 0
    phone.goto(live_server.url + flight.get_absolute_url())
    assert "8 of 9 checked in" in phone.inner_text(".check-in-count")
    _shot(phone, "round_checkin_phone")
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE

    laptop = browser.new_context(viewport={"width": 1366, "height": 900}).new_page()
    laptop.set_default_timeout(15000)
    sign_in(laptop, live_server, director_user, flight.get_absolute_url())
    row = laptop.locator(".check-in-list li", has_text="Konstantinopoulou-Wetherington 7")
    assert "✓ checked in" in row.inner_text()
    expect(row.get_by_role("button", name="Undo the check-in of Konstantinopoulou-Wetherington 7")).to_be_visible()
    laptop.get_by_role("button", name="Pair round 1").click()
    laptop.wait_for_selector("text=Withdraw them and pair round 1")
    assert laptop.inner_text(".no-shows-to-withdraw") == "Konstantinopoulou-Wetherington 8"
    assert not Pairing.objects.filter(flight=flight).exists()  # nothing happened before the confirmation
    _shot(laptop, "round_checkin_confirm")
    laptop.get_by_role("button", name="Withdraw them and pair round 1").click()
    laptop.wait_for_selector(".round-tables")
    assert Entry.objects.get(pk=absent.pk).status == EntryStatus.WITHDRAWN
    assert Pairing.objects.filter(flight=flight, round=1).count() == 4  # eight here: four tables
    phone.goto(live_server.url + "/")
    assert phone.get_by_role("button", name=f"Check in — {event.name}, Swiss").count() == 0
