"""The whole workflow through the API: event, flights, entries, draw, release, results through the match API,
placements and prizes; errors answer 400/403/404/409 and never 500."""

import pytest

from tests.clubs.factories import MembershipFactory
from tournaments.models import Slot

from .builders import drawn_event, ready_slots, win

pytestmark = pytest.mark.django_db


def base(club):
    return f"/api/v1/events/{club.slug}/"


def test_director_runs_an_event_through_the_api(club, director_user, api_as):
    api = api_as(director_user)
    response = api.post(
        "/api/v1/events/",
        {"club": club.slug, "name": "Club Cup", "starts_on": "2026-06-01", "house_percent": "10"},
        format="json",
    )
    assert response.status_code == 201, response.json()
    event_url = base(club) + "club-cup/"
    main = api.post(
        event_url + "flights/",
        {
            "name": "Main",
            "entry_fee": "20",
            "length": 5,
            "final_length": 7,
            "payout_template": [
                {"flight": "main", "place": 1, "percent": 50},
                {"flight": "main", "place": 2, "percent": 25},
                {"flight": "consolation", "place": 1, "percent": 25},
            ],
        },
        format="json",
    )
    assert main.status_code == 201, main.json()
    cons = api.post(
        event_url + "flights/",
        {"name": "Consolation", "kind": "consolation", "source": "main", "length": 3},
        format="json",
    )
    assert cons.status_code == 201, cons.json()
    players = [MembershipFactory(club=club).player for _ in range(8)]
    for player in players:
        assert api.post(event_url + "flights/main/entries/", {"player": player.pk}, format="json").status_code == 201
    drawn = api.post(event_url + "flights/main/draw/", {"seed": 42}, format="json")
    assert drawn.status_code == 200 and drawn.json()["draw_status"] == "draft" and drawn.json()["random_seed"] == 42
    assert api.post(event_url + "flights/main/draw/release/").status_code == 409  # confirm first
    assert api.post(event_url + "flights/main/draw/confirm/").json()["draw_status"] == "confirmed"
    assert api.post(event_url + "flights/main/draw/", {}, format="json").status_code == 409  # no redraw now
    assert api.post(event_url + "flights/main/draw/release/").json()["draw_status"] == "released"

    board = api.get(event_url + "dashboard/").json()
    assert len(board["ready"]) == 4
    # results go through the match-play API; the bracket follows
    while True:
        ready = list(api.get(event_url + "dashboard/").json()["ready"])
        if not ready:
            break
        for slot in ready:
            length = Slot.objects.get(pk=slot["id"]).match.length
            report = api.post(
                f"/api/v1/matches/{slot['match']}/reports/",
                {"method": "final_score", "score_a": length, "score_b": 0},
                format="json",
            )
            assert report.status_code == 201, report.json()
            version = report.json()["version"]
            confirm = api.post(f"/api/v1/matches/{slot['match']}/confirm/", {"version": version}, format="json")
            assert confirm.status_code in (200, 409)
    detail = api.get(event_url + "flights/main/").json()
    assert detail["flight"]["status"] == "finished"
    assert [r["title"] for r in detail["rounds"]][-1] == "Final"
    placements = api.get(event_url + "flights/main/placements/").json()
    assert sorted(p["place"] for p in placements) == [1, 2, 3, 3, 5, 5, 5, 5]
    prizes = api.get(event_url + "prizes/").json()
    main_pool = next(p for p in prizes if p["flight"] == "main")
    assert (main_pool["pool_cents"], main_pool["house_cents"], main_pool["net_cents"]) == (16000, 1600, 14400)
    assert [line["amount_cents"] for line in main_pool["lines"]] == [7200, 3600, 3600]
    assert all(line["holders"] for line in main_pool["lines"])
    assert api.get(base(club) + "club-cup/").json()["status"] == "finished"


def test_players_register_themselves_outsiders_cannot_direct(club, director_user, member_user, outsider_user, api_as):
    director = api_as(director_user)
    director.post("/api/v1/events/", {"club": club.slug, "name": "Open", "starts_on": "2026-06-01"}, format="json")
    url = base(club) + "open/"
    director.post(url + "flights/", {"name": "Main"}, format="json")
    assert api_as(member_user).post(url + "flights/main/entries/", {}, format="json").status_code == 201
    assert api_as(member_user).post(url + "flights/main/entries/", {}, format="json").status_code == 409
    outsider = api_as(outsider_user)
    assert outsider.post(url + "flights/main/draw/", {}, format="json").status_code == 403
    assert outsider.post(url + "flights/", {"name": "Side"}, format="json").status_code == 403
    assert outsider.get(url + "dashboard/").status_code == 403
    assert api_as(None).get(url + "flights/main/").status_code == 200  # public bracket
    assert api_as(None).post(url + "flights/main/entries/", {}, format="json").status_code in (401, 403)


def test_bad_input_names_the_field(club, director_user, api_as):
    api = api_as(director_user)
    bad = api.post("/api/v1/events/", {"club": club.slug, "name": "X", "starts_on": "nope"}, format="json")
    assert bad.status_code == 400 and "starts_on" in bad.json()["errors"]
    api.post("/api/v1/events/", {"club": club.slug, "name": "Cup", "starts_on": "2026-06-01"}, format="json")
    url = base(club) + "cup/"
    template = api.post(
        url + "flights/", {"name": "Main", "payout_template": [{"place": 1, "percent": 60}]}, format="json"
    )
    assert template.status_code == 400 and "payout_template" in template.json()["errors"]
    feed = api.post(url + "flights/", {"name": "Cons", "kind": "consolation", "source": "nope"}, format="json")
    assert feed.status_code == 400 and "source" in feed.json()["errors"]
    assert api.get(base(club) + "no-such-event/").status_code == 404
    assert api.post(url + "flights/main/draw/", {"seed": "x"}, format="json").status_code in (400, 404)


def test_private_event_is_hidden_from_anonymous(club, director_user, api_as):
    api = api_as(director_user)
    api.post(
        "/api/v1/events/",
        {"club": club.slug, "name": "Members", "starts_on": "2026-06-01", "is_public": False},
        format="json",
    )
    assert api_as(None).get(base(club) + "members/").status_code == 404
    assert api.get(base(club) + "members/").status_code == 200


JUNK = [
    {},
    {"player": "x"},
    {"player": 10**12},
    {"seed": -1},
    {"seed": "1e400"},
    {"name": "", "kind": "nope"},
    {"name": "F", "kind": "consolation", "source": "main", "feed_rule": "pool"},
    {"name": "F", "round_lengths": {"x": 3}},
    {"name": "F", "round_lengths": {"2": 500}},
    {"name": "F", "payout_template": [{"place": "a", "percent": "b"}]},
    {"name": "F", "payout_template": ["x"]},
    {"payout_template": "50/50"},
    {"winner_side": 5, "comment": ""},
    {"outcome": "annulled", "comment": "x"},
    {"outcome": "played", "winner_side": 0, "comment": "x"},
    {"outcome": "played", "score_a": 1, "score_b": 1, "winner_side": 0, "comment": "x"},
]


def test_nothing_a_user_sends_gives_a_500(club, director_user, member_user, api_as):
    event, flights = drawn_event(club, director_user, 6, consolation={})
    slot = ready_slots(flights["main"])[0]
    win(director_user, slot, 0)
    url = f"/api/v1/events/{club.slug}/{event.slug}/"
    flight = url + "flights/main/"
    paths = [
        "/api/v1/events/",
        url + "flights/",
        flight + "entries/",
        flight + "reentries/",
        flight + f"entries/{slot.entry_a_id}/withdraw/",
        flight + f"entries/{slot.entry_a_id}/check-in/",
        flight + "draw/",
        flight + "draw/confirm/",
        flight + "draw/release/",
        flight + f"slots/{slot.pk}/override/",
        url + "flights/consolation/draw/",
    ]
    for user in (director_user, member_user, None):
        api = api_as(user)
        for path in paths:
            for body in JUNK:
                response = api.post(path, body, format="json")
                assert response.status_code < 500, (path, body, response.status_code)
        assert api.put(flight + "payouts/", {"payout_template": [{"place": 1}]}, format="json").status_code < 500
        assert api.patch(url, {"house_percent": "500"}, format="json").status_code < 500


def test_a_finished_event_cannot_be_reopened_for_registration(club, director_user, api_as):
    event, flights = drawn_event(club, director_user, 2)
    win(director_user, ready_slots(flights["main"])[0], 0)
    api = api_as(director_user)
    response = api.patch(f"{base(club)}{event.slug}/", {"registration_open": True}, format="json")
    assert response.status_code == 400
    assert "registration_open" in str(response.json())
    event.refresh_from_db()
    assert not event.registration_open
    assert api.patch(f"{base(club)}{event.slug}/", {"name": "Renamed"}, format="json").status_code == 200
