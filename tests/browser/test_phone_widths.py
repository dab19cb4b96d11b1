"""At the board on a 390-pixel phone, the director's and players' pages never scroll sideways."""

import io

import pytest
from django.core.management import call_command

from calcutta.models import Calcutta
from chouette import services as chouette_services
from chouette.models import ChouetteSession
from clubs.models import Player
from games.models import GameRecord
from tournaments import demo
from tournaments.models import Slot, TeamBoard

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def demo_sweep(monkeypatch) -> tuple[list[str], ChouetteSession]:
    """The demo loaded, its open table six games on, and the pages the sweep visits as the director (the
    accessibility sweep visits them too). Returns the URLs and the open table."""
    from tests.core.api_sweep import PASSWORD

    monkeypatch.setenv("DEMO_PASSWORD", PASSWORD)
    call_command("load_demo", stdout=io.StringIO())
    table = ChouetteSession.objects.filter(status="open").first()
    director = table.club.memberships.get(player__user__username="director").player.user
    while table.games_played < 6:  # a table after six games
        chouette_services.record_game(actor=director, session=table, game={"winner": "team", "kind": "gammon"})
        table.refresh_from_db()
    finished = ChouetteSession.objects.filter(status="finished").first()
    calcutta = Calcutta.objects.first()
    pair_match = Slot.objects.filter(flight__event__slug=demo.DOUBLES, round=1).first().match_id  # a pair's match
    board_match = TeamBoard.objects.filter(flight__event__slug=demo.NATIONS).first().match_id  # a team's board
    record = GameRecord.objects.order_by("pk").first()
    analysed = GameRecord.objects.filter(analyses__status="done").order_by("pk").first()  # the analysis demo's
    anna = Player.objects.get(name="Anna Becker")  # her analysed matches: the error-rate chart
    urls = [
        "/events/",
        "/events/bc-berlin/club-championship/",
        "/events/bc-berlin/club-championship/main/",
        "/events/bc-berlin/spring-open/main/",
        "/events/bc-berlin/spring-open/prizes/",
        "/events/bc-berlin/swiss-night/swiss/",
        "/events/bc-berlin/swiss-night/swiss/?round=1",
        "/events/bc-berlin/swiss-night/swiss/?print=1",
        "/events/bc-berlin/swiss-night/swiss/rounds/current/edit/",
        "/events/bc-berlin/club-championship/flights/new/",
        "/chouette/",
        table.get_absolute_url(),
        f"/chouette/bc-berlin/{table.pk}/settlement/",
        f"/chouette/bc-berlin/{finished.pk}/settlement/",
        "/events/bc-berlin/club-championship/dashboard/",
        f"/calcuttas/{calcutta.pk}/board/",
        f"/events/bc-berlin/{demo.DOUBLES}/doubles/",  # pair names and each pair's players
        f"/events/bc-berlin/{demo.NATIONS}/teams/",  # team matches with their board links
        f"/matches/{pair_match}/",
        f"/matches/{board_match}/",
        f"/calcuttas/{calcutta.pk}/settlement/",  # the owners' nets with their settle-up codes
        "/events/bc-berlin/spring-open/main/payments/",
        f"/events/bc-berlin/{demo.CAPPED}/main/waiting-list/",
        "/clubs/bc-berlin/event-templates/",
        "/clubs/bc-berlin/bank-account/",  # the club's own account for what owners owe it (its admins)
        f"/records/{record.pk}/",  # with its engine analysis section
        "/records/analysis/settings/",
        *([f"/records/{analysed.pk}/"] if analysed else []),  # biggest errors with their boards
        f"/players/{anna.pk}/rating/",
        "/clubs/bc-berlin/error-rates/",
    ]
    return urls, table


def sign_in_as_director(page, server) -> None:
    from tests.core.api_sweep import PASSWORD

    page.goto(f"{server.url}/accounts/login/")
    page.fill("#id_username", "director")
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(f"{server.url}/")


def test_event_chouette_and_calcutta_pages_fit_a_phone(live_server, page, monkeypatch):
    urls, table = demo_sweep(monkeypatch)
    sign_in_as_director(page, live_server)
    wide = {}
    for url in urls:
        response = page.goto(f"{live_server.url}{url}")
        assert response.status == 200, url
        width = page.evaluate("document.documentElement.scrollWidth")
        if width > 390:
            wide[url] = width
    assert wide == {}
    page.goto(f"{live_server.url}{table.get_absolute_url()}")
    assert "Game 7" in page.locator(".chouette-game h2").inner_text()
