"""Refusals answered before any view runs still carry the API's one error body ({code, detail, field}),
in German for a German client: a NUL in the query string and an address that matches no API route."""

import pytest


@pytest.mark.django_db
def test_nul_in_an_api_query_string_is_refused_with_the_error_body_in_german(client):
    response = client.get("/api/v1/clubs/", {"q": "\x00"}, HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "nul_character" and body["field"] is None
    assert body["detail"] == "Die Adresse darf keine NUL-Zeichen enthalten."


@pytest.mark.django_db
@pytest.mark.parametrize("url", ["/api/v1/ratings/players/abc/", "/api/v1/no-such-thing/"])
def test_an_api_address_matching_no_route_answers_the_json_error_body(client, url):
    response = client.get(url, HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 404
    body = response.json()
    assert body["code"] == "not_found" and body["field"] is None and body["detail"]


@pytest.mark.django_db
def test_a_page_address_matching_no_route_still_renders_the_site_404_page(client):
    response = client.get("/no-such-page/")
    assert response.status_code == 404 and "text/html" in response["Content-Type"]


@pytest.mark.django_db
def test_an_invalid_choice_quotes_a_short_prefix_of_the_value_and_names_the_choices(api_as, member_user, club):
    """DRF's "“…” is not a valid choice." quoted the whole value: 100 KB sent came back as a 100 KB 400. The
    message quotes the value's first 40 characters and says what is wrong and which values would work."""
    huge = "x" * 100_000
    session = {"club": club.slug, "players": [], "variant": huge}
    response = api_as(member_user).post("/api/v1/chouette/sessions/", session, format="json")
    assert response.status_code == 400
    assert len(response.content) < 1_500
    body = response.json()
    [message] = body["errors"]["variant"]
    assert message.startswith('"' + "x" * 40 + '…" is not a valid choice.')
    assert message.endswith("Choose one of: standard, nackgammon, hypergammon, backward, long_nardy.")
    assert "x" * 41 not in response.content.decode()
    short = api_as(member_user).post("/api/v1/chouette/sessions/", {**session, "variant": "nope"}, format="json")
    assert short.json()["errors"]["variant"] == [
        '"nope" is not a valid choice. Choose one of: standard, nackgammon, hypergammon, backward, long_nardy.'
    ]  # a short value is quoted whole


@pytest.mark.django_db
def test_an_invalid_choice_in_german_is_cut_and_names_the_choices_too(api_as, member_user, club):
    session = {"club": club.slug, "players": [], "stake_form": "y" * 5_000}
    response = api_as(member_user).post("/api/v1/chouette/sessions/", session, format="json", HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 400
    [message] = response.json()["errors"]["stake_form"]
    assert "y" * 40 + "…" in message and "y" * 41 not in message
    assert message.endswith("Wählen Sie eines von: cube, dave.")


@pytest.mark.django_db
def test_a_json_value_of_the_wrong_type_is_refused_not_coerced(api_as, member_user):
    """DRF read `"name": 0` as the text "0", a value the schema says is of the wrong type."""
    response = api_as(member_user).post("/api/v1/game-records/", {"text": "x", "name": 0}, format="json")
    assert response.status_code == 400
    assert response.json()["errors"] == {"name": ["Give text."]}
    german = api_as(member_user).post(
        "/api/v1/game-records/", {"text": "x", "name": 0}, format="json", HTTP_ACCEPT_LANGUAGE="de"
    )
    assert german.json()["errors"] == {"name": ["Geben Sie einen Text an."]}


@pytest.mark.django_db
def test_the_create_and_update_mixin_views_refuse_a_json_value_of_the_wrong_type(
    api_as, director_user, admin_user, club
):
    """Clubs and players are created and changed through DRF's mixins, which read `"is_public": 0` as false and
    `"club": 0` as the slug "0": the same JSON type check as every other input (base.api.JSONTypedInput)."""
    client = api_as(director_user)
    made = client.post("/api/v1/clubs/", {"name": "Typed", "is_public": 0}, format="json")
    assert made.status_code == 400 and made.json()["errors"] == {"is_public": ["Give true or false."]}
    changed = api_as(admin_user).patch(f"/api/v1/clubs/{club.slug}/", {"is_public": "false"}, format="json")
    assert changed.status_code == 400 and changed.json()["errors"] == {"is_public": ["Give true or false."]}
    player = client.post("/api/v1/players/", {"name": "Walk In", "club": 0}, format="json")
    assert player.status_code == 400 and player.json()["errors"] == {"club": ["Give text."]}
    assert client.post("/api/v1/clubs/", {"name": "Typed", "is_public": False}, format="json").status_code == 201


def test_a_wrong_json_type_inside_a_list_or_an_integer_choice_is_refused():
    """`true` is no whole number though Python's bool is an int, and a list's items and a 0/1 choice are checked
    too: DRF read `"5"` as 5 and `"0"` as the choice 0."""
    from django.utils import translation

    with translation.override("en"):  # a message outside a request is in the thread's language
        _wrong_json_types_are_named()


def _wrong_json_types_are_named():
    from base.api import _wrong_json_type
    from games.matchplay.api import LatenessInputSerializer, ReportInputSerializer

    assert _wrong_json_type(LatenessInputSerializer(), {"late_side": 0, "minutes_late": False}) == {
        "minutes_late": ["Give a number."]
    }
    assert _wrong_json_type(LatenessInputSerializer(), {"late_side": "0", "minutes_late": 2.5}) == {
        "late_side": ["Give a whole number."]
    }
    assert _wrong_json_type(ReportInputSerializer(), {"method": "score", "score_a": True}) == {
        "score_a": ["Give a whole number."]
    }
    from chouette.api import ChouetteOrderInputSerializer

    assert _wrong_json_type(ChouetteOrderInputSerializer(), {"order": [1, "2"], "rolls": {"7": True}}) == {
        "order": {"1": ["Give a whole number."]},
        "rolls": {"7": ["Give a whole number."]},
    }


@pytest.mark.django_db
def test_a_short_name_already_taken_is_a_conflict_not_bad_input(api_as, director_user, admin_user, club):
    """A slug another club (or another event of the club) has is the state of things: 409 `conflict` on `slug`."""
    taken = api_as(director_user).post("/api/v1/clubs/", {"name": "Again", "slug": club.slug}, format="json")
    assert taken.status_code == 409
    assert taken.json()["code"] == "conflict" and taken.json()["field"] == "slug" and "errors" not in taken.json()
    other = api_as(director_user).post("/api/v1/clubs/", {"name": "Other", "slug": "other-club"}, format="json")
    assert other.status_code == 201
    changed = api_as(admin_user).patch(f"/api/v1/clubs/{club.slug}/", {"slug": "other-club"}, format="json")
    assert changed.status_code == 409 and changed.json()["code"] == "conflict"
    event = {"club": club.slug, "name": "Open", "starts_on": "2026-06-01"}
    assert api_as(director_user).post("/api/v1/events/", event, format="json").status_code == 201
    again = api_as(director_user).post("/api/v1/events/", event, format="json")
    assert again.status_code == 409 and again.json()["field"] == "slug"


@pytest.mark.django_db
def test_a_decimal_in_json_is_text_as_the_schema_says(api_as, director_user, club):
    """`"house_percent": 5` was read as 5.00 though the schema says a string: a JSON number cannot say 0.07."""
    event = {"club": club.slug, "name": "Open", "starts_on": "2026-06-01", "house_percent": 5}
    refused = api_as(director_user).post("/api/v1/events/", event, format="json")
    assert refused.status_code == 400 and list(refused.json()["errors"]) == ["house_percent"]
    event["house_percent"] = "5"
    assert api_as(director_user).post("/api/v1/events/", event, format="json").status_code == 201


@pytest.mark.django_db
@pytest.mark.parametrize("depth", [5000, 100_000])
def test_json_nested_thousands_deep_is_a_parse_error_not_a_500(api_as, member_user, depth):
    """Python's JSON decoder recurses once per level: a body of thousands of "[" raised a RecursionError, which
    every endpoint answered with a 500."""
    body = '{"text": ' + "[" * depth + "]" * depth + "}"
    response = api_as(member_user).post("/api/v1/game-records/", body, content_type="application/json")
    assert response.status_code == 400
    assert response.json()["code"] == "parse_error" and "nested too deeply" in response.json()["detail"]
