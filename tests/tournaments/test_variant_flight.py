"""A long nardy flight played to the end through the public API: the director creates it and draws 8 players,
each match takes the flight's variant, the players enter oin and mars game by game (no cube), one reports and
the opponent confirms, and the flight ends with its standings."""

import pytest

from games.models.matches import Match
from tests.clubs.factories import MembershipFactory

pytestmark = pytest.mark.django_db


def test_a_long_nardy_flight_is_played_to_the_end_through_the_api(club, director_user, api_as):
    director = api_as(director_user)
    made = director.post(
        "/api/v1/events/", {"club": club.slug, "name": "Nardy Night", "starts_on": "2026-06-01"}, format="json"
    )
    assert made.status_code == 201, made.json()
    event_url = f"/api/v1/events/{club.slug}/nardy-night/"
    flight = director.post(
        event_url + "flights/", {"name": "Main", "length": 3, "variant": "long_nardy"}, format="json"
    )
    assert flight.status_code == 201, flight.json()
    assert (flight.json()["variant"], flight.json()["stakes"]) == ("long_nardy", "cube")
    players = [MembershipFactory(club=club).player for _ in range(8)]
    for player in players:
        entry = api_as(player.user).post(event_url + "flights/main/entries/", {}, format="json")
        assert entry.status_code == 201, entry.json()
    assert director.post(event_url + "flights/main/draw/", {"seed": 7}, format="json").status_code == 200
    assert director.post(event_url + "flights/main/draw/confirm/").status_code == 200
    assert director.post(event_url + "flights/main/draw/release/").status_code == 200

    played = 0
    while ready := director.get(event_url + "dashboard/").json()["ready"]:
        for slot in ready:
            match = Match.objects.select_related("player_a__user", "player_b__user").get(pk=slot["match"])
            assert match.variant == "long_nardy" and match.length == 3
            match_url = f"/api/v1/matches/{match.pk}/"
            a, b = api_as(match.player_a.user), api_as(match.player_b.user)
            # B wins an oin, then A two mars: 4–1 (a long nardy match ends at most one past its length).
            cube = a.post(match_url + "games/", {"winner_side": 0, "kind": "oin", "cube": 2}, format="json")
            assert cube.status_code == 400 and cube.json()["code"] == "nardy_no_cube"
            for side, kind in ((1, "oin"), (0, "mars"), (0, "mars")):
                game = a.post(match_url + "games/", {"winner_side": side, "kind": kind}, format="json")
                assert game.status_code == 201, game.json()
            state = a.get(match_url).json()["state"]
            assert state["scores"] == [4, 1] and state["is_over"] and state["phase"] == "decided"
            report = a.post(match_url + "reports/", {"method": "games"}, format="json")
            assert report.status_code == 201, report.json()
            confirmed = b.post(match_url + "confirm/", {"version": report.json()["version"]}, format="json")
            assert confirmed.status_code == 200, confirmed.json()
            played += 1
    assert played == 7
    detail = director.get(event_url + "flights/main/").json()
    assert detail["flight"]["status"] == "finished" and detail["flight"]["variant"] == "long_nardy"
    placements = director.get(event_url + "flights/main/placements/").json()
    assert sorted(p["place"] for p in placements) == [1, 2, 3, 3, 5, 5, 5, 5]
    finals = Match.objects.filter(score_a=4, score_b=1, variant="long_nardy", status="finished")
    assert finals.count() == 7 and all(m.winner_id == m.player_a_id for m in finals)
