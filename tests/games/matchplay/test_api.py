"""The match-play API: visibility, permissions, reporting workflow and errors as 400/403/409, and the schema."""

import pytest
from django.utils import translation

from games.matchplay import services
from games.models.matches import MatchStatus
from tests.clubs.factories import ClubFactory, MembershipFactory
from tests.games.matchplay.factories import MatchFactory

pytestmark = pytest.mark.django_db


def url(match, action=""):
    return f"/api/v1/matches/{match.pk}/" + (f"{action}/" if action else "")


def test_anonymous_sees_only_public_matches(api, match):
    private = MatchFactory(club=match.club, is_public=False)
    hidden_club = MatchFactory(club=ClubFactory(is_public=False))
    ids = [m["id"] for m in api.get("/api/v1/matches/").json()["results"]]
    assert ids == [match.pk]
    assert api.get(url(private)).status_code == 404 and api.get(url(hidden_club)).status_code == 404


def test_members_see_their_clubs_private_matches(api_as, match, member_user):
    private = MatchFactory(club=match.club, is_public=False)
    assert api_as(member_user).get(url(private)).status_code == 200


def test_list_filters_by_player_and_status(api, match):
    MatchFactory(club=match.club)
    data = api.get("/api/v1/matches/", {"player": match.player_a_id}).json()
    assert [m["id"] for m in data["results"]] == [match.pk]
    assert api.get("/api/v1/matches/", {"status": "finished"}).json()["count"] == 0


def test_scoresheet_via_api_shows_the_crawford_game(api_as, match, user_a):
    client = api_as(user_a)
    response = client.post(url(match, "games"), {"winner_side": 0, "kind": "gammon", "cube": 2}, format="json")
    assert response.status_code == 201 and response.json()["score_a_after"] == 4
    state = client.get(url(match)).json()["state"]
    assert state["phase"] == "crawford" and state["cube_allowed"] is False and state["scores"] == [4, 0]
    refused = client.post(url(match, "games"), {"winner_side": 1, "cube": 2}, format="json")
    assert refused.status_code == 400 and "Game 2 is the Crawford game" in refused.json()["errors"]["cube"][0]
    with translation.override("en"):  # the request switches this thread to German; leave it as it was
        german = client.post(url(match, "games"), {"winner_side": 1, "kind": "drop"}, HTTP_ACCEPT_LANGUAGE="de")
    assert german.status_code == 400
    cube = german.json()["errors"]["cube"][0]
    assert "Spiel 2 ist das Crawford-Spiel" in cube and "abgelehnt" in cube


def test_report_confirm_flow_and_idempotent_retry(api_as, match, user_a, user_b):
    body = {"method": "final_score", "score_a": 5, "score_b": 3, "idempotency_key": "k1"}
    first = api_as(user_a).post(url(match, "reports"), body, format="json")
    retry = api_as(user_a).post(url(match, "reports"), body, format="json")
    assert first.status_code == 201 and retry.status_code == 200 and retry.json()["version"] == 1
    assert first.json()["source"] == "api"
    own = api_as(user_a).post(url(match, "confirm"), {"version": 1}, format="json")
    assert own.status_code == 403
    confirmed = api_as(user_b).post(url(match, "confirm"), {"version": 1}, format="json")
    assert confirmed.status_code == 200 and confirmed.json()["confirmed"]
    detail = api_as(user_b).get(url(match)).json()
    assert detail["status"] == MatchStatus.FINISHED and (detail["score_a"], detail["score_b"]) == (5, 3)
    history = api_as(user_b).get(url(match, "reports")).json()
    assert history["count"] == 1 and [r["version"] for r in history["results"]] == [1]


def test_outsider_and_anonymous_cannot_report(api, api_as, match, outsider_user):
    body = {"method": "final_score", "score_a": 5, "score_b": 3}
    assert api_as(outsider_user).post(url(match, "reports"), body, format="json").status_code == 403
    assert api.post(url(match, "reports"), body, format="json").status_code in (401, 403)
    assert not match.reports.exists()


def test_unreachable_score_is_400_with_the_reason(api_as, match, user_a):
    response = api_as(user_a).post(url(match, "reports"), {"method": "final_score", "score_a": 4, "score_b": 2})
    assert response.status_code == 400 and "one player must reach 5" in response.json()["errors"]["scores"][0]


def test_impossible_final_scores_are_400_with_the_reason_in_english_and_german(api_as, match, user_a, director_user):
    client = api_as(user_a)
    body = {"method": "final_score", "score_a": 21, "score_b": 0}
    response = client.post(url(match, "reports"), body, format="json")
    assert response.status_code == 400
    assert "would have been worth 17 to 21 points" in response.json()["errors"]["scores"][0]
    with translation.override("en"):  # the request switches this thread to German; leave it as it was
        german = client.post(url(match, "reports"), body, format="json", HTTP_ACCEPT_LANGUAGE="de")
    assert german.status_code == 400
    assert "hätte dieses Spiel 17 bis 21 Punkte wert sein müssen" in german.json()["errors"]["scores"][0]
    eleven = MatchFactory(club=match.club, player_a=match.player_a, player_b=match.player_b, length=11)
    typo = client.post(url(eleven, "reports"), {"method": "final_score", "score_a": 111, "score_b": 3}, format="json")
    assert typo.status_code == 400 and "96 or 128 come closest" in typo.json()["errors"]["scores"][0]
    override = api_as(director_user).post(
        url(eleven, "override"), {"method": "final_score", "score_a": 111, "score_b": 3}
    )
    assert override.status_code == 400 and "Check the score for a typo" in override.json()["errors"]["scores"][0]
    assert (
        client.post(url(eleven, "reports"), {"method": "final_score", "score_a": 11, "score_b": 3}).status_code == 201
    )
    assert not match.reports.exists() and eleven.reports.count() == 1


def test_a_final_score_report_starts_the_match_and_a_late_correction_is_refused_at_the_report(
    api_as, match, user_a, user_b
):
    score = {"method": "final_score", "score_a": 5, "score_b": 1}
    assert api_as(user_a).post(url(match, "reports"), score, format="json").status_code == 201
    assert api_as(user_a).get(url(match)).json()["started_at"] is not None
    assert api_as(user_b).post(url(match, "confirm"), {"version": 1}, format="json").status_code == 200
    # Player A's next match, reported by final score as well (and not confirmed yet): it has started.
    later = MatchFactory(club=match.club, player_a=match.player_a, player_b=MembershipFactory(club=match.club).player)
    assert api_as(user_a).post(url(later, "reports"), score, format="json").status_code == 201
    correction = api_as(user_b).post(url(match, "reports"), score | {"score_b": 4}, format="json")
    assert correction.status_code == 409 and "ask a director to override it" in correction.json()["detail"]
    detail = api_as(user_b).get(url(match)).json()
    assert (detail["score_a"], detail["score_b"]) == (5, 1) and match.reports.count() == 1


def test_a_correction_reported_in_time_is_refused_at_the_confirmation_once_a_later_match_started(
    api_as, match, user_a, user_b, director_user
):
    score = {"method": "final_score", "score_a": 5, "score_b": 1}
    assert api_as(user_a).post(url(match, "reports"), score, format="json").status_code == 201
    assert api_as(user_b).post(url(match, "confirm"), {"version": 1}, format="json").status_code == 200
    correction = api_as(user_a).post(url(match, "reports"), score | {"score_b": 4}, format="json")
    assert correction.status_code == 201 and correction.json()["version"] == 2
    # Player A's next match starts while the correction waits for player B.
    later = MatchFactory(club=match.club, player_a=match.player_a, player_b=MembershipFactory(club=match.club).player)
    assert api_as(user_a).post(url(later, "reports"), score, format="json").status_code == 201
    refused = api_as(user_b).post(url(match, "confirm"), {"version": 2}, format="json")
    assert refused.status_code == 409 and refused.json()["code"] == "late_correction"
    assert (api_as(user_b).get(url(match)).json()["score_b"]) == 1
    # A director may still confirm it (and a director's own report is theirs to confirm).
    confirmed = api_as(director_user).post(url(match, "confirm"), {"version": 2}, format="json")
    assert confirmed.status_code == 200 and confirmed.json()["confirmed_by"] == director_user.username
    assert confirmed.json()["submitted_by"] == user_a.username
    assert api_as(user_b).get(url(match)).json()["score_b"] == 4


def test_confirming_a_replaced_version_is_409(api_as, match, user_a, user_b):
    services.submit_report(actor=user_a, match=match, method="final_score", scores=(5, 3))
    services.submit_report(actor=user_a, match=match, method="final_score", scores=(5, 2))
    assert api_as(user_b).post(url(match, "confirm"), {"version": 2}, format="json").status_code == 200
    assert api_as(user_b).post(url(match, "confirm"), {"version": 1}, format="json").status_code == 409


def test_dispute_then_director_override_and_annul(api_as, match, user_a, user_b, director_user):
    services.submit_report(actor=user_a, match=match, method="final_score", scores=(5, 0))
    dispute = api_as(user_b).post(url(match, "disputes"), {"version": 1, "comment": "It was 5-4"}, format="json")
    assert dispute.status_code == 201
    assert (
        api_as(user_b).post(url(match, "override"), {"method": "final_score", "score_a": 5, "score_b": 4}).status_code
        == 403
    )
    override = api_as(director_user).post(
        url(match, "override"), {"method": "final_score", "score_a": 5, "score_b": 4}, format="json"
    )
    assert override.status_code == 201 and override.json()["confirmed"] and override.json()["role"] == "director"
    assert api_as(director_user).get(url(match, "disputes")).json()["results"][0]["resolved_at"] is not None
    annul = api_as(director_user).post(url(match, "annul"), {"comment": "wrong pairing"}, format="json")
    assert annul.status_code == 201
    assert api_as(director_user).get(url(match)).json()["status"] == MatchStatus.ABANDONED


def test_player_creates_a_casual_match_director_a_club_match(api_as, club, member_user, director_user):
    other = MembershipFactory(club=club).player
    body = {"player_a": member_user.player.pk, "player_b": other.pk, "length": 3}
    created = api_as(member_user).post("/api/v1/matches/", body, format="json")
    assert created.status_code == 201 and created.json()["context"] == "casual"
    club_night = body | {"context": "club_night", "club": club.slug}
    assert api_as(member_user).post("/api/v1/matches/", club_night, format="json").status_code == 403
    assert api_as(director_user).post("/api/v1/matches/", club_night, format="json").status_code == 201
    assert api_as(director_user).post("/api/v1/matches/", body | {"length": 0}, format="json").status_code == 400


def test_match_list_query_count_does_not_grow(api, club, django_assert_max_num_queries):
    for _ in range(15):
        MatchFactory(club=club)
    with django_assert_max_num_queries(3):
        assert api.get("/api/v1/matches/").json()["count"] == 15


def test_schema_lists_the_match_endpoints(api):
    schema = api.get("/api/schema/", {"format": "json"}).json()
    for path in [
        "/api/v1/matches/",
        "/api/v1/matches/{id}/reports/",
        "/api/v1/matches/{id}/confirm/",
        "/api/v1/matches/{id}/disputes/",
        "/api/v1/matches/{id}/override/",
        "/api/v1/matches/{id}/games/",
    ]:
        assert path in schema["paths"]


def test_lateness_by_a_director_only(api_as, match, user_a, director_user):
    body = {"late_side": 1, "minutes_late": 12}
    assert api_as(user_a).post(url(match, "lateness"), body, format="json").status_code == 403
    response = api_as(director_user).post(url(match, "lateness"), body, format="json")
    assert response.status_code == 200 and response.json()["state"]["scores"] == [2, 0]
    late = api_as(director_user).post(url(match, "lateness"), {"late_side": 0, "minutes_late": 15}, format="json")
    assert late.json()["status"] == "forfeited" and late.json()["winner"] == match.player_b_id
    assert late.json()["rated"] is False


def test_lateness_refuses_false_for_minutes(api_as, match, director_user):
    """Python's False is the int 0: the JSON type check (base.api) must not let `false` through as a number."""
    body = {"late_side": 1, "minutes_late": False}
    response = api_as(director_user).post(url(match, "lateness"), body, format="json")
    assert response.status_code == 400 and response.json()["errors"] == {"minutes_late": ["Give a number."]}


def test_a_token_brings_its_players_row_so_a_report_and_its_confirmation_ask_for_no_player(match, user_a, user_b):
    """Signed in with an API token, as the phones and the load test are: the caller's player comes with the
    token's row, so neither the report nor the confirmation reads it again (it was a query of each request). A
    token of an account without a player still signs in, and is refused as a player of the match."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from accounts.services import create_token
    from tests.clubs.factories import UserFactory
    from tests.schema_check import SchemaCheckingClient

    def client(user):
        key = create_token(user=user, name="phone")[1]
        signed_in = SchemaCheckingClient()
        signed_in.credentials(HTTP_AUTHORIZATION=f"Token {key}")
        return signed_in

    body = {"method": "final_score", "score_a": 5, "score_b": 3}
    reporter, confirmer = client(user_a), client(user_b)
    with CaptureQueriesContext(connection) as queries:
        report = reporter.post(url(match, "reports"), body, format="json")
        confirmed = confirmer.post(url(match, "confirm"), {"version": report.json()["version"]}, format="json")
    assert report.status_code == 201 and confirmed.status_code == 200 and confirmed.json()["confirmed"]
    player_reads = [q["sql"] for q in queries if 'FROM "clubs_player" WHERE "clubs_player"."user_id" =' in q["sql"]]
    assert player_reads == []
    nobody = client(UserFactory())
    assert nobody.get("/api/v1/auth/tokens/").status_code == 200
    assert nobody.post(url(match, "reports"), body, format="json").status_code in (403, 404)
