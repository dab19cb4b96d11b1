"""The settings the rule texts leave to the club are the director's choice for a match, a flight or a chouette
session: backward hitting with either die or only the smaller one, and for long nardy which first-turn doubles
take two checkers off the head and when a six-block is allowed. A record of the match must play by the same
settings (its headers name them); a setting of another game is refused."""

import pytest
from django.test import Client
from django.utils import translation

from backgammon.backward_play import random_match as random_backward_match
from backgammon.dave.random_play import random_session
from backgammon.dave.record import write_dave
from backgammon.matchfiles.mat import write_mat
from backgammon.matchfiles.sgf import write_sgf
from backgammon.nardy.random_play import random_match as random_nardy_match
from backgammon.nardy.record import write_nardy
from backgammon.nardy.settings import ANY_HEAD_DOUBLES, BlockRule, NardySettings
from backgammon.record_routing import record_game, record_settings
from backgammon.variants import BackwardHitting
from games.matchplay import services
from games.models.matches import Match
from games.records import services as record_services
from tests.clubs.factories import MembershipFactory
from tests.games.matchplay.factories import MatchFactory
from tests.tournaments.rounds_builders import swiss_event
from tournaments import services as tournament_services

pytestmark = pytest.mark.django_db


def _pair(club):
    return MembershipFactory(club=club).player, MembershipFactory(club=club).player


def _match_body(club, a, b, **form):
    return {"player_a": a.pk, "player_b": b.pk, "length": 3, "club": club.slug, "context": "club_night"} | form


def test_a_director_creates_a_match_with_the_smaller_die_form_of_backward_hitting(api_as, club, director_user):
    a, b = _pair(club)
    body = _match_body(club, a, b, variant="backward", backward_hits="smaller_die")
    made = api_as(director_user).post("/api/v1/matches/", body, format="json")
    assert made.status_code == 201, made.json()
    assert made.json()["backward_hits"] == "smaller_die"
    page = api_as(director_user).get(f"/api/v1/matches/{made.json()['id']}/").json()
    assert page["backward_hits"] == "smaller_die" and page["head_doubles"] == "classic"


@pytest.mark.parametrize(
    ("form", "field", "code"),
    [
        ({"variant": "standard", "backward_hits": "smaller_die"}, "backward_hits", "setting_not_for_variant"),
        ({"variant": "backward", "six_block": "opponent_home"}, "six_block", "setting_not_for_variant"),
        ({"variant": "long_nardy", "head_doubles": "some"}, "head_doubles", None),
        ({"variant": "long_nardy", "six_block": "x" * 10_000}, "six_block", None),
    ],
)
def test_a_setting_of_another_game_or_an_unknown_one_is_refused(api_as, club, director_user, form, field, code):
    a, b = _pair(club)
    with translation.override("en"):
        refused = api_as(director_user).post(
            "/api/v1/matches/", _match_body(club, a, b, **form), format="json", HTTP_ACCEPT_LANGUAGE="de"
        )
    assert refused.status_code == 400 and refused.json()["field"] == field
    if code:
        assert refused.json()["code"] == code
        assert "gehört zu einem anderen Spiel" in refused.json()["detail"]
    assert not Match.objects.exists()


def test_the_match_form_offers_the_settings_and_stores_them(client, club, director_user):
    a, b = _pair(club)
    client.force_login(director_user)
    page = client.get("/matches/new/")
    assert "Long nardy: six-block allowed" in page.content.decode()
    form = _match_body(club, a, b, variant="long_nardy", head_doubles="any", six_block="opponent_home")
    form["club"] = club.pk
    made = client.post("/matches/new/", form)
    assert made.status_code == 302, made.content.decode()[:2000]
    match = Match.objects.get(player_a=a)
    assert (match.variant, match.head_doubles, match.six_block) == ("long_nardy", "any", "opponent_home")
    assert "any double" in match.variant_label


def test_the_match_form_keeps_no_setting_of_a_game_not_chosen(client, club, director_user):
    """The page shows a game's settings only once that game is chosen (its stylesheet), so a select picked for
    long nardy and then hidden by choosing backgammon still sends its value: the form takes the default instead
    of refusing the match for a setting nobody can see."""
    a, b = _pair(club)
    client.force_login(director_user)
    page = client.get("/matches/new/").content.decode()
    assert 'class="match-form"' in page and "match_form" in page and ".css" in page
    form = _match_body(club, a, b, variant="standard", head_doubles="any", six_block="opponent_home")
    form.update(club=club.pk, backward_hits="smaller_die", dave_progression="arithmetic")
    made = client.post("/matches/new/", form)
    assert made.status_code == 302, made.content.decode()[:2000]
    match = Match.objects.get(player_a=a)
    assert (match.variant, match.head_doubles, match.six_block, match.backward_hits, match.dave_progression) == (
        "standard",
        "classic",
        "ahead",
        "any_die",
        "geometric",
    )


def test_the_record_headers_name_the_settings_as_a_match_does():
    backward = write_mat(random_backward_match(seed=3, rule=BackwardHitting.SMALLER_DIE)).encode()
    assert record_settings(backward) == {"backward_hits": "smaller_die"}
    either = write_mat(random_backward_match(seed=3)).encode()
    assert record_settings(either) == {"backward_hits": "any_die"}
    settings = NardySettings(head_doubles=ANY_HEAD_DOUBLES, block_rule=BlockRule.OPPONENT_HOME)
    nardy = write_nardy(random_nardy_match(seed=5, length=1, settings=settings)).encode()
    assert record_settings(nardy) == {"head_doubles": "any", "six_block": "opponent_home"}
    assert record_settings(write_nardy(random_nardy_match(seed=5, length=1))) == {
        "head_doubles": "classic",
        "six_block": "ahead",
    }
    dave = write_dave(random_session(seed=387, games=1))
    assert record_settings(dave) == {"dave_progression": "geometric"}
    assert record_settings(b"1 point match\n") == {}


def test_a_record_played_by_other_settings_is_refused_on_upload_and_on_a_report(
    club, django_capture_on_commit_callbacks
):
    a, b = _pair(club)
    smaller = MatchFactory(club=club, player_a=a, player_b=b, length=1, variant="backward", backward_hits="smaller_die")
    either = MatchFactory(club=club, player_a=a, player_b=b, length=1, variant="backward")
    text = write_mat(random_backward_match(seed=3, players=(a.name, b.name), rule=BackwardHitting.SMALLER_DIE))
    with pytest.raises(Exception) as refused:
        record_services.upload_text(uploader=a.user, text=text, match=either)
    assert refused.value.error_dict["file"][0].code == "settings_mismatch"
    message = refused.value.error_dict["file"][0].message
    assert "backward hits by: the smaller die only in the record, either die here" in message
    with django_capture_on_commit_callbacks(execute=True):
        batch = record_services.upload_text(uploader=a.user, text=text, match=smaller)
    record = batch.records.get()
    record.refresh_from_db()
    assert record.status == "valid" and record.verdict["settings"] == {"backward_hits": "smaller_die"}
    report, _created = services.submit_report(actor=a.user, match=smaller, method="record", game_record_id=record.pk)
    assert report.method == "record"
    with pytest.raises(Exception) as mismatch:
        services.submit_report(actor=a.user, match=either, method="record", game_record_id=record.pk)
    assert mismatch.value.error_dict["game_record"][0].code == "settings_mismatch"


def test_a_nardy_record_with_other_head_doubles_is_refused_on_upload(club):
    a, b = _pair(club)
    match = MatchFactory(club=club, player_a=a, player_b=b, length=1, variant="long_nardy")
    settings = NardySettings(head_doubles=ANY_HEAD_DOUBLES)
    text = write_nardy(random_nardy_match(seed=5, length=1, players=(a.name, b.name), settings=settings))
    with pytest.raises(Exception) as refused:
        record_services.upload_text(uploader=a.user, text=text, match=match)
    assert refused.value.error_dict["file"][0].code == "settings_mismatch"
    custom = text.replace('HeadDoubles "33 44 66 11 22 55"', 'HeadDoubles "55 66"').replace(
        'HeadDoubles "11 22 33 44 55 66"', 'HeadDoubles "55 66"'
    )
    assert 'HeadDoubles "55 66"' in custom
    with pytest.raises(Exception) as other:
        record_services.upload_text(uploader=a.user, text=custom, match=match)
    assert "55 66 in the record" in other.value.error_dict["file"][0].message


def test_a_flight_hands_its_settings_to_its_matches_and_a_flight_of_another_game_does_not_take_them(
    api_as, club, director_user
):
    director = api_as(director_user)
    made = director.post("/api/v1/events/", {"club": club.slug, "name": "Night", "starts_on": "2026-06-01"})
    assert made.status_code == 201, made.json()
    flights = f"/api/v1/events/{club.slug}/night/flights/"
    main = director.post(
        flights, {"name": "Main", "length": 3, "variant": "long_nardy", "head_doubles": "any"}, format="json"
    )
    assert main.status_code == 201, main.json()
    assert (main.json()["head_doubles"], main.json()["six_block"]) == ("any", "ahead")
    consolation = director.post(
        flights, {"name": "Consolation", "kind": "consolation", "source": "main", "length": 3}, format="json"
    )
    assert consolation.status_code == 201 and consolation.json()["head_doubles"] == "any"
    side = director.post(
        flights,
        {"name": "Side", "kind": "side_pool", "source": "main", "length": 3, "variant": "backward"},
        format="json",
    )
    assert side.status_code == 201, side.json()
    assert side.json()["head_doubles"] == "classic" and side.json()["backward_hits"] == "any_die"
    refused = director.post(flights, {"name": "Odd", "length": 3, "backward_hits": "smaller_die"}, format="json")
    assert refused.status_code == 400 and refused.json()["code"] == "setting_not_for_variant"
    # the event page says which game each flight is played in, with the settings that differ from the texts
    client = Client()
    client.force_login(director_user)
    page = client.get(f"/events/{club.slug}/night/").content.decode()
    assert "Long nardy (two off the head on the first turn: any double)" in page
    assert "Backgammon with backward hitting" in page


def test_a_swiss_flight_plays_its_rounds_in_its_own_game(club, director_user):
    _, flight = swiss_event(club, director_user, 4, rounds=2, variant="backward", backward_hits="smaller_die", length=3)
    pairings = tournament_services.start_round(actor=director_user, flight=flight)
    matches = [pairing.match for pairing in pairings if pairing.match_id]
    assert matches and all((m.variant, m.backward_hits) == ("backward", "smaller_die") for m in matches)


def test_a_chouette_table_names_its_backward_hitting_form(api_as, club, director_user):
    players = [MembershipFactory(club=club).player for _ in range(3)]
    body = {"club": club.slug, "players": [p.pk for p in players], "variant": "backward"}
    made = api_as(director_user).post("/api/v1/chouette/sessions/", body | {"backward_hits": "smaller_die"})
    assert made.status_code == 201, made.json()
    assert made.json()["backward_hits"] == "smaller_die"
    refused = api_as(director_user).post(
        "/api/v1/chouette/sessions/", body | {"variant": "standard", "backward_hits": "smaller_die"}
    )
    assert refused.status_code == 400 and refused.json()["code"] == "setting_not_for_variant"


def test_an_sgf_record_of_a_variant_goes_to_a_match_of_that_variant(club, django_capture_on_commit_callbacks):
    """An SGF file names its variant in its rules (RU[...]); every SGF file was once taken as standard
    backgammon, so a backward-hitting SGF was refused for a backward-hitting match and accepted for a standard."""
    a, b = _pair(club)
    backward = MatchFactory(club=club, player_a=a, player_b=b, length=3, variant="backward")
    standard = MatchFactory(club=club, player_a=a, player_b=b, length=3)
    data = write_sgf(random_backward_match(seed=2, length=3, players=(a.name, b.name))).encode()
    assert record_game(data, name="m.sgf") == "backward"
    assert record_settings(data, name="m.sgf") == {"backward_hits": "any_die"}
    upload = record_services.UploadedFile("m.sgf", data)
    with pytest.raises(Exception) as refused:
        record_services.upload_records(uploader=a.user, files=[upload], match=standard)
    assert refused.value.error_dict["file"][0].code == "variant_mismatch"
    with django_capture_on_commit_callbacks(execute=True):
        batch = record_services.upload_records(uploader=a.user, files=[upload], match=backward)
    record = batch.records.get()
    record.refresh_from_db()
    assert record.status == "valid" and record.verdict["variant"] == "backward"
