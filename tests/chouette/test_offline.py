"""The server's half of the offline table (docs/chouette.md, "Offline at the table"): the service worker and the
manifest are served as a browser needs them, and the phone's queue gets answers it can tell apart: entered (also
when sent again), refused with the reason (nothing written), or try again later."""

import json

import pytest
from django.conf import settings
from django.contrib.staticfiles import finders
from django.db import OperationalError
from django.db.models import Sum
from django.test import Client
from django.utils import translation

from base.locks import BUSY_SQLSTATES
from chouette.models import LedgerEntry, SessionEvent
from tests.chouette.factories import table
from tests.clubs.factories import MembershipFactory

pytestmark = pytest.mark.django_db

JSON = {"HTTP_ACCEPT": "application/json"}


def signed_in(user):
    client = Client()
    client.force_login(user)
    return client


def games_url(session):
    return f"/chouette/{session.club.slug}/{session.pk}/games/"


def game(number, key, winner="team"):
    return {"expected_number": str(number), "idempotency_key": key, "winner": winner, "kind": "single"}


def test_the_service_worker_is_served_from_the_root_as_javascript_never_cached_over_http():
    response = Client().get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Service-Worker-Allowed"] == "/"
    assert response["Cache-Control"] == "no-cache"
    text = response.content.decode()
    assert '"/static/chouette/offline.js"' in text and '"/static/chouette/entry.js"' in text  # precached
    assert '["/accounts/login/", "/accounts/logout/"]' in text  # where it forgets the kept pages
    assert "/api/" not in text  # it keeps no API answer


def test_the_service_workers_version_follows_the_assets_it_keeps(settings):
    first = Client().get("/sw.js").content
    settings.STATIC_URL = "/assets/"
    second = Client().get("/sw.js").content
    version = [line for line in second.decode().splitlines() if line.startswith("var VERSION")]
    assert first != second and version and version[0] not in first.decode()


def test_the_manifest_makes_the_site_installable():
    response = Client().get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    data = json.loads(response.content)
    assert data["display"] == "standalone" and data["start_url"] == "/chouette/" and data["theme_color"]
    assert {"192x192", "512x512"} <= {icon["sizes"] for icon in data["icons"]}
    for icon in data["icons"]:  # each one is a file the site serves
        assert finders.find(icon["src"].removeprefix(settings.STATIC_URL)), icon["src"]


def test_the_manifest_is_in_german_for_a_german_reader():
    with translation.override("de"):
        response = Client(headers={"Accept-Language": "de"}).get("/manifest.webmanifest")
    assert json.loads(response.content)["name"] != "Backgammon club"


def test_every_page_links_the_manifest(club):
    session, players, _director = table(club)
    for client, url in ((Client(), "/"), (signed_in(players["A"].user), f"/chouette/{club.slug}/{session.pk}/")):
        assert b'<link rel="manifest" href="/manifest.webmanifest">' in client.get(url).content


def test_the_table_page_has_the_queues_status_only_for_those_who_enter_games(club):
    session, players, _director = table(club)
    url = f"/chouette/{club.slug}/{session.pk}/"
    player_page = signed_in(players["A"].user).get(url).content.decode()
    assert 'id="offline-queue"' in player_page and 'role="status"' in player_page
    assert "chouette/offline.js" in player_page
    outsider = MembershipFactory(club=club).player.user
    assert 'id="offline-queue"' not in signed_in(outsider).get(url).content.decode()
    assert 'id="offline-queue"' not in Client().get(url).content.decode()


def test_a_queued_game_is_answered_in_json_and_a_resend_by_its_key_enters_it_once(club):
    session, players, _director = table(club)
    phone = signed_in(players["A"].user)
    with translation.override("en"):
        first = phone.post(games_url(session), game(1, "offline-a-1"), **JSON)
        again = phone.post(games_url(session), game(1, "offline-a-1"), **JSON)  # the answer was lost: sent again
    assert first.status_code == 200 and first.json() == {"number": 1, "message": "Game entered."}
    assert again.status_code == 200 and again.json()["number"] == 1
    assert SessionEvent.objects.filter(session=session, kind="game").count() == 1


def test_a_game_another_phone_entered_first_is_refused_with_the_reason_and_nothing_written(club):
    session, players, _director = table(club)
    signed_in(players["A"].user).post(games_url(session), game(1, "phone-a-1"), **JSON)
    before = list(LedgerEntry.objects.filter(session=session).values_list("pk", "points"))
    with translation.override("en"):
        refused = signed_in(players["C"].user).post(games_url(session), game(1, "phone-c-1", "box"), **JSON)
    assert refused.status_code == 409
    assert refused.json()["code"] == "game_already_entered"
    assert refused.json()["detail"].startswith("Game 1 was already entered")
    assert list(LedgerEntry.objects.filter(session=session).values_list("pk", "points")) == before
    assert LedgerEntry.objects.filter(session=session).aggregate(s=Sum("points"))["s"] == 0
    # Its key was not kept: the same game sent again as game 2 (the player re-entered it) goes in.
    resent = signed_in(players["C"].user).post(games_url(session), game(2, "phone-c-2", "box"), **JSON)
    assert resent.status_code == 200 and resent.json()["number"] == 2


def test_an_impossible_game_and_a_non_player_are_refused_in_json_not_with_a_page(club):
    session, players, _director = table(club)
    bad = signed_in(players["A"].user).post(
        games_url(session), {**game(1, "bad"), f"cube_{players['B'].pk}": "box:nonsense"}, **JSON
    )
    assert bad.status_code == 400 and bad.json()["detail"]
    outsider = MembershipFactory(club=club).player.user
    refused = signed_in(outsider).post(games_url(session), game(1, "outsider"), **JSON)
    assert refused.status_code == 403 and refused.json()["detail"]
    assert not SessionEvent.objects.filter(session=session, kind="game").exists()


def test_a_busy_table_answers_try_again_later(club, monkeypatch):
    from chouette import services

    session, players, _director = table(club)

    class LockTimeout(Exception):
        sqlstate = sorted(BUSY_SQLSTATES)[0]

    def busy(**_kwargs):
        raise OperationalError("canceling statement due to lock timeout") from LockTimeout()

    monkeypatch.setattr(services, "record_game", busy)
    response = signed_in(players["A"].user).post(games_url(session), game(1, "busy"), **JSON)
    assert response.status_code == 503 and response.json()["code"] == "busy" and response["Retry-After"]


def test_the_plain_form_still_redirects_with_a_message(club):
    session, players, _director = table(club)
    with translation.override("en"):
        response = signed_in(players["A"].user).post(games_url(session), game(1, "plain"), follow=True)
    assert response.redirect_chain and b"Game entered." in response.content
