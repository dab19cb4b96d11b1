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
