"""API under /api/v1/ratings/: reads for everyone, writes for the right people, clear errors, never a 500."""

import datetime

import pytest

from ratings.models import ClubSeason, EventPoints, LadderChallenge
from tests.clubs.factories import ClubFactory, MembershipFactory
from tests.ratings.builders import event_of, played
from tournaments.models import Entry, Flight

pytestmark = pytest.mark.django_db


@pytest.fixture
def trio(club, director_user):
    a, b, c = (MembershipFactory(club=club, player__name=n).player for n in ("Anna", "Bernd", "Clara"))
    played(director_user, club, a, b, day=1, length=7)
    played(director_user, club, c, a, day=2, length=5)
    return a, b, c


def test_player_rating_with_explained_history(api, club, trio):
    a, b, c = trio
    data = api.get(f"/api/v1/ratings/players/{a.pk}/").json()
    assert [row["opponent_name"] for row in data["history"]] == ["Bernd", "Clara"]
    first = data["history"][0]
    assert first["won"] and first["k"] == 5.0 and first["upset_probability"] == 0.5
    assert data["rating"] == pytest.approx(data["history"][-1]["rating_after"])
    at_club = api.get(f"/api/v1/ratings/players/{a.pk}/?club={club.slug}").json()
    assert at_club["club"] == club.slug and len(at_club["history"]) == 2
    assert api.get(f"/api/v1/ratings/players/{a.pk}/?club=nope").status_code == 404
    h2h = api.get(f"/api/v1/ratings/players/{a.pk}/vs/{c.pk}/").json()
    assert (h2h["wins_a"], h2h["wins_b"], len(h2h["matches"])) == (0, 1, 1)
    top = api.get(f"/api/v1/ratings/?club={club.slug}").json()
    assert top[0]["club"] == club.slug and {r["player_name"] for r in top} == {"Anna", "Bernd", "Clara"}


def test_leaderboard_filters_and_errors(api, club, trio):
    url = f"/api/v1/ratings/clubs/{club.slug}/leaderboard/"
    rows = api.get(url + "?order=rating").json()
    assert rows[0]["rating"] >= rows[1]["rating"] and {"points", "win_share", "matches"} <= set(rows[0])
    assert api.get(url + "?scheme=elo").json()["errors"] == {"scheme": ["Choose one of gammonpoints, usbgf, abt."]}
    assert "season" in api.get(url + "?season=x").json()["errors"]
    assert api.get(url + "?season=999").status_code == 404
    assert api.get(url + "?order=nonsense").status_code == 400


def test_seasons_are_added_by_directors_with_clear_errors(api_as, club, director_user, member_user):
    url = f"/api/v1/ratings/clubs/{club.slug}/seasons/"
    body = {"name": "2026", "starts_on": "2026-01-01", "ends_on": "2026-12-31"}
    assert api_as(member_user).post(url, body, format="json").status_code == 403
    assert api_as(None).post(url, body, format="json").status_code in (401, 403)
    assert api_as(director_user).post(url, body, format="json").status_code == 201
    again = api_as(director_user).post(url, body, format="json")
    assert again.status_code == 400 and "name" in again.json()["errors"]
    backwards = api_as(director_user).post(url, {**body, "name": "x", "ends_on": "2025-01-01"}, format="json")
    assert backwards.status_code == 400 and "ends_on" in backwards.json()["errors"]
    assert [s["name"] for s in api_as(None).get(url).json()] == ["2026"]


def test_event_points_chosen_by_a_director_and_awarded(api_as, club, director_user, member_user):
    event = event_of(club, on=datetime.date(2026, 3, 1))
    main = Flight.objects.create(event=event, name="Main", slug="main", kind="main")
    for place in [1, 2, 3, 3, 5, 5, 5, 5]:
        Entry.objects.create(flight=main, player=MembershipFactory(club=club).player, place=place)
    url = f"/api/v1/ratings/clubs/{club.slug}/events/{event.slug}/points/"
    assert api_as(member_user).put(url, {"scheme": "abt"}, format="json").status_code == 403
    bad = api_as(director_user).put(url, {"scheme": "elo"}, format="json")
    assert bad.status_code == 400 and "scheme" in bad.json()["errors"]
    data = api_as(director_user).put(url, {"scheme": "usbgf", "division_weight": 0.7}, format="json").json()
    assert data["scheme"]["scheme"] == "usbgf" and len(data["awards"]) == 8
    assert data["awards"][0]["points"] == pytest.approx(0.7 * 0.6 * 3)
    assert EventPoints.objects.get(event=event).division_weight == 0.7
    assert api_as(None).get(url).json()["awards"][0]["place"] == 1
    assert api_as(None).get(f"/api/v1/ratings/clubs/{club.slug}/events/nope/points/").status_code == 404


def test_ladder_flow_through_the_api(api_as, club, director_user, django_capture_on_commit_callbacks):
    from games.matchplay import services as matchplay

    director = api_as(director_user)
    created = director.post(f"/api/v1/ratings/clubs/{club.slug}/ladders/", {"name": "Ladder"}, format="json")
    assert created.status_code == 201 and created.json()["reach"] == 3
    base = f"/api/v1/ratings/clubs/{club.slug}/ladders/ladder/"
    members = [MembershipFactory(club=club).player for _ in range(5)]
    for member in members:
        assert api_as(member.user).post(base + "join/", {}, format="json").status_code == 200
    positions = director.get(base).json()["positions"]
    assert [p["player"] for p in positions] == [m.pk for m in members]
    challenger = api_as(members[4].user)
    too_far = challenger.post(base + "challenges/", {"defender": members[0].pk}, format="json")
    assert too_far.status_code == 400 and "defender" in too_far.json()["errors"]
    challenge = challenger.post(base + "challenges/", {"defender": members[1].pk}, format="json").json()
    busy = api_as(members[3].user).post(base + "challenges/", {"defender": members[1].pk}, format="json")
    assert busy.status_code == 409
    match = LadderChallenge.objects.get(pk=challenge["id"]).match
    matchplay.submit_report(actor=director_user, match=match, method="final_score", scores=(11, 4), as_director=True)
    order = [p["player"] for p in director.get(base).json()["positions"]]
    assert order == [members[0].pk, members[4].pk, members[1].pk, members[2].pk, members[3].pk]
    second = api_as(members[3].user).post(base + "challenges/", {"defender": members[4].pk}, format="json").json()
    cancel = base + f"challenges/{second['id']}/cancel/"
    assert api_as(members[0].user).post(cancel).status_code == 403
    assert api_as(members[4].user).post(cancel).json()["status"] == "cancelled"
    assert api_as(members[4].user).post(cancel).status_code == 409


def test_recompute_is_for_club_admins(api_as, club, admin_user, member_user, trio):
    url = f"/api/v1/ratings/clubs/{club.slug}/recompute/"
    assert api_as(member_user).post(url).status_code == 403
    assert api_as(admin_user).post(url).status_code == 202
    hidden = ClubFactory(is_public=False)
    assert api_as(admin_user).post(f"/api/v1/ratings/clubs/{hidden.slug}/recompute/").status_code == 404
    assert ClubSeason.objects.count() == 0


@pytest.mark.parametrize("field, action", [("player", "join/"), ("defender", "challenges/")])
def test_ladder_ids_beyond_the_database_range_are_refused_not_500(api_as, club, director_user, field, action):
    """A stranger's `{"player": 2**63}` reached the database lookup and answered 500 (integer overflow)."""
    from ratings.services import ladders as ladder_services

    ladder_services.create_ladder(actor=director_user, club=club, name="Ladder")
    response = api_as(director_user).post(
        f"/api/v1/ratings/clubs/{club.slug}/ladders/ladder/{action}", {field: 2**63}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["field"] == field
