"""Boards and match calling through the API: every endpoint answers a director as the schema says, and the
called board shows on the bracket and the next-matches list."""

import datetime

import pytest

from tournaments.models import Call

from .builders import drawn_event

pytestmark = pytest.mark.django_db


def test_a_director_sets_up_boards_calls_moves_frees_and_applies_lateness(club, director_user, api_as):
    event, _flights = drawn_event(club, director_user, 8)
    api = api_as(director_user)
    url = f"/api/v1/events/{club.slug}/{event.slug}/"
    setup = api.put(url + "boards/", {"count": 3, "tags": {"1": ["step-free"]}, "grace_minutes": 10}, format="json")
    assert setup.status_code == 200, setup.json()
    assert setup.json()["grace_minutes"] == 10
    assert [b["board"]["tags"] for b in setup.json()["boards"]] == [["step-free"], [], []]
    assert len(setup.json()["queue"]) == 4
    called = api.post(url + "boards/call-next/")
    assert called.status_code == 201, called.json()
    assert called.json()["board"] == 1
    bracket = api.get(url + "flights/main/").json()
    on_board = {s["match"]: s["board"] for r in bracket["rounds"] for s in r["slots"]}
    assert on_board[called.json()["match"]] == 1
    moved = api.post(url + f"calls/{called.json()['id']}/move/", {"board": 3}, format="json")
    assert moved.status_code == 200 and moved.json()["board"] == 3
    assert api.post(url + f"calls/{called.json()['id']}/move/", {"board": 9}, format="json").status_code == 404
    auto = api.post(url + "boards/auto-call/", {"on": True}, format="json")
    assert auto.status_code == 200 and auto.json()["auto_call"] is True
    assert [line["call"] is not None for line in auto.json()["boards"]] == [True, True, True]
    assert len(auto.json()["queue"]) == 1
    freed = api.post(url + "boards/3/free/")
    assert freed.status_code == 200
    assert freed.json()["boards"][2]["call"]["match"] != called.json()["match"]  # auto-call filled it again
    assert api.post(url + "boards/call-next/").json()["code"] == "no_free_board"
    late = Call.objects.get(pk=called.json()["id"])
    Call.objects.filter(pk=late.pk).update(called_at=late.called_at - datetime.timedelta(minutes=6))
    early = api.post(url + f"calls/{late.pk}/lateness/", {"late_side": 0}, format="json")
    assert early.status_code == 409 and early.json()["code"] == "within_grace"  # 6 minutes, grace is 10
    Call.objects.filter(pk=late.pk).update(called_at=late.called_at - datetime.timedelta(minutes=11))
    applied = api.post(url + f"calls/{late.pk}/lateness/", {"late_side": 0}, format="json")
    assert applied.status_code == 200, applied.json()
    assert applied.json()["lateness_applied_at"] is not None
    again = api.post(url + f"calls/{late.pk}/lateness/", {"late_side": 0}, format="json")
    assert again.status_code == 409 and again.json()["code"] == "lateness_applied"
    listing = api.get(url + "boards/")
    assert listing.status_code == 200 and len(listing.json()["boards"]) == 3


def test_a_player_sees_their_board_in_next_matches(club, director_user, api_as):
    event, flights = drawn_event(club, director_user, 4)
    api_as(director_user).put(f"/api/v1/events/{club.slug}/{event.slug}/boards/", {"count": 1}, format="json")
    called = api_as(director_user).post(f"/api/v1/events/{club.slug}/{event.slug}/boards/call-next/").json()
    player = Call.objects.get(pk=called["id"]).slot.entry_a.player
    player.user = director_user.__class__.objects.create_user(username="boardplayer", password="x")
    player.save(update_fields=["user"])
    mine = api_as(player.user).get("/api/v1/events/next-matches/").json()
    assert [m["board"] for m in mine] == [1]


def test_only_directors_see_the_boards(club, director_user, member_user, api_as):
    event, _flights = drawn_event(club, director_user, 4)
    url = f"/api/v1/events/{club.slug}/{event.slug}/boards/"
    assert api_as(member_user).get(url).status_code == 403
    assert api_as(member_user).put(url, {"count": 2}, format="json").status_code == 403
