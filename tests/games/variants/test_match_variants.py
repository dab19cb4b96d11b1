"""Match play in the variants: long nardy scores oin (1) and mars (2) with no cube, Dave stakes score the stake,
Crawford applies only where a cube is; a record of another game is refused on upload and on a report."""

import pytest
from django.db import IntegrityError, transaction
from django.test import Client
from django.utils import translation

from backgammon.dave.random_play import random_session
from backgammon.dave.record import write_dave
from backgammon.nardy.random_play import random_match
from backgammon.nardy.record import write_nardy
from backgammon.record_routing import check_any_record, record_game
from games.matchplay import services
from games.records import services as record_services
from tests.clubs.factories import MembershipFactory
from tests.games.matchplay.factories import MatchFactory

pytestmark = pytest.mark.django_db


def url(match, action=""):
    return f"/api/v1/matches/{match.pk}/" + (f"{action}/" if action else "")


@pytest.fixture
def nardy(club):
    a, b = MembershipFactory(club=club).player, MembershipFactory(club=club).player
    return MatchFactory(club=club, player_a=a, player_b=b, length=3, variant="long_nardy")


def test_a_long_nardy_scoresheet_counts_oin_and_mars_and_has_no_crawford_game(api_as, nardy):
    client = api_as(nardy.player_a.user)
    mars = client.post(url(nardy, "games"), {"winner_side": 0, "kind": "mars"}, format="json")
    assert mars.status_code == 201 and mars.json()["points"] == 2 and mars.json()["score_a_after"] == 2
    state = client.get(url(nardy)).json()["state"]
    # 2–0 in a 3-point match would be the Crawford game in backgammon; long nardy has no cube to take away.
    assert state["phase"] == "normal" and state["cube_allowed"] is False and state["variant"] == "long_nardy"
    oin = client.post(url(nardy, "games"), {"winner_side": 1, "kind": "oin"}, format="json")
    assert oin.json()["points"] == 1 and oin.json()["score_b_after"] == 1
    resign = client.post(url(nardy, "games"), {"winner_side": 0, "kind": "resign", "resign_level": 2}, format="json")
    assert resign.json()["score_a_after"] == 4
    report = client.post(url(nardy, "reports"), {"method": "games"}, format="json")
    assert report.status_code == 201 and (report.json()["score_a"], report.json()["score_b"]) == (4, 1)


@pytest.mark.parametrize(
    ("body", "field", "code", "german"),
    [
        ({"winner_side": 0, "kind": "oin", "cube": 2}, "cube", "nardy_no_cube", "ohne Doppelwürfel"),
        ({"winner_side": 0, "kind": "gammon"}, "kind", "nardy_no_such_result", "Oin (1 Punkt) oder Mars"),
        ({"winner_side": 0, "kind": "drop"}, "kind", "nardy_no_such_result", "abgelehntes Doppel"),
    ],
)
def test_a_long_nardy_game_refuses_the_cube_and_the_backgammon_kinds(api_as, nardy, body, field, code, german):
    with translation.override("en"):
        refused = api_as(nardy.player_a.user).post(url(nardy, "games"), body, HTTP_ACCEPT_LANGUAGE="de", format="json")
    assert refused.status_code == 400
    assert refused.json()["code"] == code and refused.json()["field"] == field
    assert german in refused.json()["detail"]
    assert not nardy.games.exists()


def test_a_long_nardy_final_score_is_at_most_one_past_the_length(api_as, nardy):
    client = api_as(nardy.player_a.user)
    too_high = client.post(url(nardy, "reports"), {"method": "final_score", "score_a": 5, "score_b": 1}, format="json")
    assert too_high.status_code == 400 and too_high.json()["code"] == "nardy_final_score"
    ok = client.post(url(nardy, "reports"), {"method": "final_score", "score_a": 4, "score_b": 2}, format="json")
    assert ok.status_code == 201


def test_a_dave_stakes_match_scores_the_stake_with_no_crawford_and_no_gammon(api_as, club):
    a, b = MembershipFactory(club=club).player, MembershipFactory(club=club).player
    match = MatchFactory(club=club, player_a=a, player_b=b, length=5, stakes="dave", dave_progression="arithmetic")
    client = api_as(a.user)
    assert client.post(url(match, "games"), {"winner_side": 0, "cube": 3}, format="json").json()["score_a_after"] == 3
    # 4–0 would be Crawford with a cube; with Daves a stake of 2 is fine in the next game.
    second = client.post(url(match, "games"), {"winner_side": 1, "kind": "drop", "cube": 2}, format="json")
    assert second.status_code == 201 and second.json()["score_b_after"] == 2
    gammon = client.post(url(match, "games"), {"winner_side": 0, "kind": "gammon", "cube": 1}, format="json")
    assert gammon.status_code == 400 and gammon.json()["code"] == "dave_no_gammon"
    geometric = MatchFactory(club=club, player_a=a, player_b=b, stakes="dave")
    off = client.post(url(geometric, "games"), {"winner_side": 0, "cube": 3}, format="json")
    assert off.status_code == 400 and off.json()["code"] == "wrong_stake" and off.json()["field"] == "cube"
    won = client.post(url(match, "games"), {"winner_side": 0, "cube": 4}, format="json")
    assert won.json()["score_a_after"] == 7 and client.get(url(match)).json()["state"]["is_over"] is True


def test_the_database_keeps_dave_stakes_on_the_standard_board(club):
    with pytest.raises(IntegrityError), transaction.atomic():
        MatchFactory(club=club, variant="long_nardy", stakes="dave")
    with pytest.raises(IntegrityError), transaction.atomic():
        MatchFactory(club=club, variant="shogi")


def test_creating_a_match_names_its_variant_and_refuses_dave_off_the_standard_board(api_as, club, director_user):
    a, b = MembershipFactory(club=club).player, MembershipFactory(club=club).player
    body = {"player_a": a.pk, "player_b": b.pk, "length": 5, "club": club.slug, "context": "club_night"}
    made = api_as(director_user).post("/api/v1/matches/", body | {"variant": "long_nardy"}, format="json")
    assert made.status_code == 201 and made.json()["variant"] == "long_nardy" and made.json()["stakes"] == "cube"
    refused = api_as(director_user).post(
        "/api/v1/matches/", body | {"variant": "backward", "stakes": "dave"}, format="json"
    )
    assert refused.status_code == 400 and refused.json()["code"] == "dave_on_standard"


def test_records_are_routed_to_their_games_verifier():
    nardy_text = write_nardy(random_match(seed=88, length=1, players=("Anna", "Boris"))).encode()
    dave_text = write_dave(random_session(seed=387, games=2, players=("Anna", "Boris"))).encode()
    assert record_game(nardy_text) == "long_nardy" and record_game(dave_text) == "dave"
    assert record_game(b'; [Variation "Backgammon with backward hitting"]\n 1 point match\n') == "backward"
    assert record_game(b"(;FF[4]GM[6])", name="x.sgf") == "standard"
    status, verdict = check_any_record(nardy_text)
    assert status == "valid" and verdict.winner == "Boris" and list(verdict.final_score) == [0, 2]
    status, verdict = check_any_record(dave_text)
    assert status == "valid" and [game.points for game in verdict.games] == [4, 2]


def test_a_record_of_another_game_is_refused_on_upload_and_on_a_report(nardy, club, django_capture_on_commit_callbacks):
    user = nardy.player_a.user
    backgammon = MatchFactory(club=club, player_a=nardy.player_a, player_b=nardy.player_b)
    names = (nardy.player_a.name, nardy.player_b.name)
    nardy_text = write_nardy(random_match(seed=88, length=3, players=names))
    with pytest.raises(Exception) as refused:
        record_services.upload_text(uploader=user, text=nardy_text, match=backgammon)
    assert refused.value.error_dict["file"][0].code == "variant_mismatch"
    with django_capture_on_commit_callbacks(execute=True):
        batch = record_services.upload_text(uploader=user, text=nardy_text, match=nardy)
    record = batch.records.get()
    record.refresh_from_db()
    assert record.status == "valid" and record.verdict["variant"] == "long_nardy"
    report, _created = services.submit_report(actor=user, match=nardy, method="record", game_record_id=record.pk)
    client = Client()
    client.force_login(user)  # the version reported by the record links to it: the record is one tap away
    assert f'href="/records/{record.pk}/"' in client.get(nardy.get_absolute_url()).content.decode()
    winner = record.verdict["final_score"].index(max(record.verdict["final_score"]))
    assert report.method == "record" and report.winner == nardy.players[winner]
    assert max(report.score_a, report.score_b) in (3, 4)
    with pytest.raises(Exception) as mismatch:
        services.submit_report(actor=user, match=backgammon, method="record", game_record_id=record.pk)
    assert mismatch.value.error_dict["game_record"][0].code == "variant_mismatch"
