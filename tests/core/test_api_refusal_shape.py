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
def test_a_refusal_quotes_at_most_a_few_hundred_characters_of_what_was_sent(api_as, member_user):
    """DRF's "“…” is not a valid choice." quoted the whole value: 100 KB sent came back as a 100 KB 400. The
    message keeps its start and its ending (what is wrong), and the middle of the value is cut."""
    huge = "x" * 100_000
    response = api_as(member_user).post("/api/v1/matches/", {"variant": huge, "length": 5}, format="json")
    assert response.status_code == 400
    assert len(response.content) < 2_000
    body = response.json()
    [message] = body["errors"]["variant"]
    assert message.startswith('"xxx') and message.endswith("is not a valid choice.")
    assert "…" in message and len(message) <= 300
    assert api_as(member_user).post("/api/v1/matches/", {"variant": "nope"}, format="json").json()["errors"][
        "variant"
    ] == ['"nope" is not a valid choice.']  # a short value is quoted whole, as before
