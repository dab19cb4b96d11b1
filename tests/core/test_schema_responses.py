"""The API answers as its OpenAPI schema says, so a client generated from the schema can read every answer.

The `api` and `api_as` clients (tests/conftest.py) check every response any test receives against the schema:
the status must be declared for the operation and the body must validate. The tests here prove that check can
fail, that every operation declares its error bodies, and drive to success the operations no other test reaches;
a whole run of the suite then fails if an operation was never seen to succeed (tests/conftest.py).
"""

import json

import pytest

from calcutta import services as calcutta_services
from chouette import services as chouette_services
from clubs.models import Membership
from games.matchplay import services as match_services
from ratings.services import ladders as ladder_services
from tests.calcutta.rows import entry_ids, make_flight, sell_all
from tests.chouette.factories import table
from tests.clubs.factories import MembershipFactory, PlayerFactory
from tests.games.matchplay.factories import MatchFactory
from tests.schema_check import api_schema, operations, problems
from tests.tournaments.builders import drawn_event, make_event, members, ready_slots, win
from tournaments import services as tournament_services

pytestmark = pytest.mark.django_db

JSON = "application/json"


def test_every_operation_declares_its_error_bodies():
    assert len(list(operations())) >= 100
    for method, path in operations():
        responses = api_schema()["paths"][path][method.lower()]["responses"]
        for code in ("400", "403", "404", "409", "415"):
            assert responses[code]["content"][JSON]["schema"] == {"$ref": "#/components/schemas/Error"}


def test_the_check_refuses_what_the_schema_does_not_say(api, club):
    club_url = f"/api/v1/clubs/{club.slug}/"
    answer = api.get(club_url).json()
    assert not problems("GET", club_url, 200, json.dumps(answer).encode(), JSON)
    assert problems("GET", club_url, 200, json.dumps({**answer, "created_at": "yesterday"}).encode(), JSON)
    assert problems("GET", club_url, 200, json.dumps({**answer, "founded": 1999}).encode(), JSON)  # undeclared
    # The shape the schema declares for a match's reports is a page; the plain array they used to be is refused.
    assert problems("GET", "/api/v1/matches/1/reports/", 200, b"[]", JSON)
    assert not problems("GET", "/api/v1/matches/1/reports/", 200, b'{"count": 0, "results": []}', JSON)
    wrong_type = problems("GET", club_url, 200, b'{"id": "one"}', JSON)
    assert any("'one' is not of type 'integer'" in line for line in wrong_type)
    assert any("'name' is a required property" in line for line in wrong_type)
    assert problems("GET", club_url, 418, b"{}", JSON) == [
        f"GET /api/v1/clubs/{{slug}}/ answered 418, which the schema does not declare "
        f"({list(api_schema()['paths']['/api/v1/clubs/{slug}/']['get']['responses'])})"
    ]
    # Errors are checked too: every refusal has a code, its text and the field (or null); a 400 may list the
    # messages of every field, and nothing else.
    assert problems("GET", club_url, 404, b'{"reason": "gone"}', JSON)
    assert problems("GET", club_url, 404, b'{"detail": "Not found."}', JSON)  # the old shape: no code, no field
    assert not problems("GET", club_url, 404, b'{"code": "not_found", "detail": "Not found.", "field": null}', JSON)
    invalid = b'{"code": "invalid", "detail": "Required.", "field": "name", "errors": {"name": ["Required."]}}'
    assert not problems("POST", "/api/v1/clubs/", 400, invalid, JSON)
    assert problems("POST", "/api/v1/clubs/", 400, b'{"name": ["This field is required."]}', JSON)
    assert problems("POST", "/api/v1/clubs/", 400, invalid.replace(b'["Required."]', b'"Required."'), JSON)


def test_club_player_and_membership_details_and_full_updates(api_as, club, admin_user, director_user):
    admin = api_as(admin_user)
    club_url = f"/api/v1/clubs/{club.slug}/"
    assert admin.get(club_url).json()["member_count"] == 2
    body = {"name": "Backgammon Berlin", "slug": club.slug, "city": "Berlin", "country": "DE", "is_public": True}
    replaced = admin.put(club_url, body, format="json")
    assert replaced.status_code == 200 and replaced.json()["name"] == "Backgammon Berlin"

    walk_in = api_as(director_user).post("/api/v1/players/", {"name": "Walk In", "club": club.slug}, format="json")
    player_url = f"/api/v1/players/{walk_in.json()['id']}/"
    assert admin.get(player_url).json()["has_login"] is False
    renamed = admin.put(player_url, {"name": "Walk-In Wilma", "country": "DE"}, format="json")
    assert renamed.status_code == 200 and renamed.json()["name"] == "Walk-In Wilma"

    membership = Membership.objects.get(club=club, player__user=director_user)
    assert admin.get(f"/api/v1/memberships/{membership.pk}/").json()["role"] == "director"


def test_an_admin_invites_a_member(api_as, club, admin_user):
    player = PlayerFactory()  # a person with an account: joining needs their consent, so this is an invitation
    invitation = {"club": club.slug, "username": player.user.username}
    added = api_as(admin_user).post("/api/v1/memberships/", invitation, format="json")
    assert added.status_code == 201 and added.json()["player_name"] == player.name
    assert added.json()["status"] == "invited"


def test_a_match_is_started_and_its_games_read(api_as, club):
    match = MatchFactory(club=club, player_a=MembershipFactory(club=club).player)
    client = api_as(match.player_a.user)
    started = client.post(f"/api/v1/matches/{match.pk}/start/")
    assert started.status_code == 200 and started.json()["status"] == "in_progress"
    match_services.record_game(actor=match.player_a.user, match=match, winner_side=0)
    games = client.get(f"/api/v1/matches/{match.pk}/games/").json()
    assert [(g["number"], g["score_a_after"]) for g in games] == [(1, 1)]


def test_calcuttas_are_listed_and_a_player_buys_back_part_of_their_lot(api_as, club, director_user):
    flight = make_flight(club)
    calcutta = calcutta_services.create_calcutta(actor=director_user, flight=flight, payout_places=["100"])
    calcutta_services.set_lots(actor=director_user, calcutta=calcutta, groups=[entry_ids(flight, "Anna")])
    paul = calcutta_services.register_bidder(actor=director_user, calcutta=calcutta, name="paul")
    anna_player = flight.entries.get(player__name="Anna").player
    anna = calcutta_services.register_bidder(actor=director_user, calcutta=calcutta, name="anna", player=anna_player)
    sell_all(calcutta, director_user, {1: (paul, 2000), 0: (paul, 1000)})
    client = api_as(director_user)
    assert calcutta.pk in [c["id"] for c in client.get("/api/v1/calcuttas/").json()["results"]]
    assert client.get(f"/api/v1/calcuttas/{calcutta.pk}/").json()["status"] == "closed"

    url = f"/api/v1/calcuttas/{calcutta.pk}/buy-back/"
    bought = client.post(url, {"lot": 1, "bidder": anna.pk, "share": "25%"}, format="json")
    assert bought.status_code == 200
    assert {(h["bidder_name"], h["share"]) for h in bought.json()} == {("paul", "3/4"), ("anna", "1/4")}
    field = client.post(url, {"lot": 0, "bidder": anna.pk, "share": "25%"}, format="json")
    assert field.status_code == 400
    assert field.json()["errors"] == {
        "lot": ["The field cannot be bought back: a buy-back is only for a player's own lot."]
    }
    german = client.post(url, {"lot": 0, "bidder": anna.pk, "share": "25%"}, format="json", HTTP_ACCEPT_LANGUAGE="de")
    assert german.json()["errors"]["lot"] == [
        "Das Feld kann nicht zurückgekauft werden: Ein Rückkauf gilt nur für das eigene Los eines Spielers."
    ]


def test_chouette_balances_and_settlement_so_far(api_as, club):
    session, _, director = table(club)
    chouette_services.record_game(actor=director, session=session, game={"winner": "team"})
    client = api_as(director)
    balances = client.get(f"/api/v1/chouette/clubs/{club.slug}/balances/").json()
    assert {row["player__name"]: row["cents"] for row in balances}["A"] == -1500
    assert client.get(f"/api/v1/chouette/sessions/{session.pk}/settlement/").json() == []


def test_event_list_update_payouts_check_in_reentry_and_override(api_as, club, director_user):
    event, flights = drawn_event(club, director_user, 4)
    director = api_as(director_user)
    assert event.slug in [e["slug"] for e in director.get("/api/v1/events/", {"club": club.slug}).json()]
    event_url = f"/api/v1/events/{club.slug}/{event.slug}/"
    assert director.patch(event_url, {"house_percent": "5"}, format="json").json()["house_percent"] == "5.00"

    later = make_event(club, director_user)
    side = tournament_services.add_flight(actor=director_user, event=later, name="Main")
    entry = tournament_services.register(actor=director_user, flight=side, player=members(club, 1)[0])
    side_url = f"/api/v1/events/{club.slug}/{later.slug}/flights/main/"
    payouts = director.put(side_url + "payouts/", {"payout_template": [{"place": 1, "percent": 100}]}, format="json")
    assert payouts.status_code == 200, payouts.json()
    checked = director.post(side_url + f"entries/{entry.pk}/check-in/")
    assert checked.status_code == 200 and checked.json()["id"] == entry.pk

    slot = ready_slots(flights["main"])[0]
    override_url = event_url + f"flights/main/slots/{slot.pk}/override/"
    assert director.get(override_url).json() == []
    body = {"winner_side": 0, "outcome": "forfeit", "comment": "B did not show up"}
    overridden = director.post(override_url, body, format="json")
    assert overridden.status_code == 200 and overridden.json()["winner_player"] == slot.entry_a.player_id


def test_a_player_sees_their_next_match_and_re_enters_after_a_loss(api_as, club, director_user):
    event, flights = drawn_event(club, director_user, 6, entry_fee=20, reentry_fee=10)
    slot = ready_slots(flights["main"])[0]
    loser = slot.entry_b.player
    assert [s["id"] for s in api_as(loser.user).get("/api/v1/events/next-matches/").json()] == [slot.pk]
    win(director_user, slot, 0)
    url = f"/api/v1/events/{club.slug}/{event.slug}/flights/main/reentries/"
    reentry = api_as(director_user).post(url, {"player": loser.pk}, format="json")
    assert reentry.status_code == 201 and reentry.json()["is_reentry"] is True


def test_a_clubs_ladders_are_listed(api, club, director_user):
    ladder_services.create_ladder(actor=director_user, club=club, name="Ladder")
    assert [ladder["name"] for ladder in api.get(f"/api/v1/ratings/clubs/{club.slug}/ladders/").json()] == ["Ladder"]


def test_a_long_night_of_chouette_games_comes_in_pages(api_as, club):
    session, _, director = table(club)
    for winner in ("team", "box", "team"):
        chouette_services.record_game(actor=director, session=session, game={"winner": winner})
    client = api_as(director)
    first = client.get(f"/api/v1/chouette/sessions/{session.pk}/games/", {"limit": 2}).json()
    assert first["count"] == 3 and [g["number"] for g in first["results"]] == [1, 2]
    rest = client.get(first["next"]).json()
    assert [g["number"] for g in rest["results"]] == [3] and rest["next"] is None
