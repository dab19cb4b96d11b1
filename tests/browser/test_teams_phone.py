"""The demo's doubles cup and nations cup on a 390-pixel phone: the brackets (pair and team names, a team match's
board links), the entries with their players, and a pair's and a board's match page never scroll sideways."""

import io

import pytest
from django.core.management import call_command

from tournaments import demo
from tournaments.models import Slot, TeamBoard

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_doubles_and_team_pages_fit_a_phone(live_server, page, monkeypatch):
    from tests.core.api_sweep import PASSWORD

    monkeypatch.setenv("DEMO_PASSWORD", PASSWORD)
    call_command("load_demo", stdout=io.StringIO())
    pair_match = Slot.objects.filter(flight__event__slug=demo.DOUBLES, round=1).first().match_id
    board_match = TeamBoard.objects.filter(flight__event__slug=demo.NATIONS).first().match_id
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("#id_username", "director")
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(f"{live_server.url}/")
    wide = {}
    for url in (
        f"/events/bc-berlin/{demo.DOUBLES}/doubles/",
        f"/events/bc-berlin/{demo.NATIONS}/teams/",
        f"/matches/{pair_match}/",
        f"/matches/{board_match}/",
    ):
        response = page.goto(f"{live_server.url}{url}")
        assert response.status == 200, url
        width = page.evaluate("document.documentElement.scrollWidth")
        if width > 390:
            wide[url] = width
    assert wide == {}
