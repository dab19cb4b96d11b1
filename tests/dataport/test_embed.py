"""The embeddable bracket: any site may frame it (and only it), it shows what an anonymous visitor sees, and it
carries the live region the public page has."""

import pytest
from django.urls import reverse

from tests.clients import web
from tests.clubs.factories import ClubFactory, MembershipFactory
from tests.tournaments.builders import drawn_event
from tests.tournaments.rounds_builders import swiss_event
from tournaments import services as tournament_services

pytestmark = pytest.mark.django_db


def _embed(event, flight="main"):
    return reverse("data:embed", args=[event.club.slug, event.slug, flight])


def test_only_the_embed_page_may_be_framed_and_it_updates_live(club, director_user):
    event, flights = drawn_event(club, director_user, 4)
    response = web().get(_embed(event))
    assert response.status_code == 200
    assert "X-Frame-Options" not in response
    assert "frame-ancestors *" in response["Content-Security-Policy"]
    body = response.content.decode()
    assert f'data-live-groups="flight-{flights["main"].pk}"' in body and "js/live.js" in body
    assert flights["main"].entries.first().player.name in body
    page = web().get(flights["main"].get_absolute_url())  # every other page stays unframable
    assert page["X-Frame-Options"] == "DENY" and "frame-ancestors 'none'" in page["Content-Security-Policy"]


def test_a_swiss_embeds_its_round_and_standings(club, director_user):
    event, flight = swiss_event(club, director_user, 4, rounds=2)
    tournament_services.start_round(actor=director_user, flight=flight)
    body = web().get(_embed(event, "swiss")).content.decode()
    assert 'id="live-rounds"' in body


def test_a_private_club_or_event_is_not_embedded_even_for_its_members(director_user):
    hidden = ClubFactory(is_public=False)
    director = MembershipFactory(club=hidden, role="director").player.user
    event, _flights = drawn_event(hidden, director, 4)
    assert web(director).get(_embed(event)).status_code == 404
    snippet = web(director).get(reverse("data:embed-snippet", args=[hidden.slug, event.slug, "main"]))
    assert "iframe" not in snippet.content.decode() and snippet.status_code == 200


def test_the_snippet_page_gives_the_iframe_to_copy(club, director_user):
    event, _flights = drawn_event(club, director_user, 4)
    body = web().get(reverse("data:embed-snippet", args=[club.slug, event.slug, "main"])).content.decode()
    assert "&lt;iframe src=&quot;http://testserver" + _embed(event) in body
