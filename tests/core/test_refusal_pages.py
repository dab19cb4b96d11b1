"""Refusals on pages render inside the site layout (menu, the reason, a way on), not as bare error pages."""

import pytest
from django.contrib.auth.models import AnonymousUser
from django.test import RequestFactory
from django.urls import reverse
from django.utils import translation

from base.api import Conflict
from base.middleware import RefusalPageMiddleware
from tests.games.matchplay.factories import MatchFactory

pytestmark = pytest.mark.django_db


def in_layout(html: str) -> bool:
    return 'class="site-header"' in html and 'class="refusal"' in html and "Go to the home page" in html


def test_not_found_names_the_reason_in_the_layout(client):
    response = client.get(reverse("games:match-detail", kwargs={"pk": 999999}))
    html = response.content.decode()
    assert response.status_code == 404 and in_layout(html) and "No such match." in html


def test_an_unknown_address_says_so_without_internal_words(client):
    html = client.get("/no/such/page/").content.decode()
    assert in_layout(html) and "There is nothing at this address" in html and "Resolver404" not in html


def test_forbidden_gives_the_rule_and_a_sign_in_for_visitors(client, outsider_user):
    match = MatchFactory()
    client.force_login(outsider_user)
    response = client.get(reverse("games:match-report", kwargs={"pk": match.pk}))
    html = response.content.decode()
    assert response.status_code == 403 and in_layout(html)
    assert "Only the players of this match and its directors can do this." in html


def test_forbidden_speaks_german(client, outsider_user):
    match = MatchFactory()
    client.force_login(outsider_user)
    with translation.override("en"):  # the request switches this thread to German; leave it as it was
        html = client.get(reverse("games:match-report", kwargs={"pk": match.pk}), HTTP_ACCEPT_LANGUAGE="de").content
    assert "Nicht für dich" in html.decode() and "Zur Startseite" in html.decode()


def test_a_state_refusal_on_a_page_is_a_409_in_the_layout_and_the_api_keeps_its_own():
    middleware = RefusalPageMiddleware(lambda request: None)
    request = RequestFactory().get("/matches/1/")
    request.user = AnonymousUser()
    response = middleware.process_exception(request, Conflict("This match already has a result."))
    html = response.content.decode()
    assert response.status_code == 409 and in_layout(html) and "This match already has a result." in html
    api_request = RequestFactory().get("/api/v1/matches/1/")
    assert middleware.process_exception(api_request, Conflict("x")) is None
    assert middleware.process_exception(request, ValueError("not a refusal")) is None
