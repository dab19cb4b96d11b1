"""A round robin's standings and a groups flight's group tables on a 390-pixel phone, as the director sees them
(the widest view: the drop column), never scroll sideways. Screenshots go to $SCREENSHOT_DIR when it is set."""

import os

import pytest

from clubs.models import Player
from tests.tournaments.rounds_builders import play_round, swiss_event
from tournaments import services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = os.environ.get("SCREENSHOT_DIR")


def _long_names(flight):
    for i, entry in enumerate(flight.entries.select_related("player")):
        Player.objects.filter(pk=entry.player_id).update(name=f"Konstantinopoulou-Wetherington {i}")


@pytest.mark.parametrize(
    "settings",
    [{"format": "round_robin", "cycles": 2}, {"format": "groups", "group_size": 4, "advance": 2}],
    ids=["round_robin", "groups"],
)
def test_round_robin_and_group_tables_fit_a_phone(live_server, page, club, director_user, settings):
    _, flight = swiss_event(club, director_user, 8, **settings)
    _long_names(flight)
    services.start_round(actor=director_user, flight=flight)
    play_round(director_user, flight)
    director_user.set_password("pw-for-tests")
    director_user.save()
    page.goto(f"{live_server.url}/accounts/login/?next={flight.get_absolute_url()}")
    page.fill("#id_username", director_user.username)
    page.fill("#id_password", "pw-for-tests")
    page.click("button[type=submit]")
    page.wait_for_url(f"**{flight.get_absolute_url()}")
    live_tables = page.locator("section.standings table.standings-table")  # not the round's kept ones (folded)
    assert live_tables.count() == (2 if settings["format"] == "groups" else 1)
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/{settings['format']}.png", full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
