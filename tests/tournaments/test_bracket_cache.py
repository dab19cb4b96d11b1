"""The public bracket page and the bracket API are served from the cache under the flight's version: each kind of
change counts a new version, so the next read shows it (never the stale rendering); a cached read costs two
queries; a director's own forms never reach anyone else; and a cache that is down only makes pages slower."""

import contextlib
import logging

import pytest
from django.contrib import messages
from django.contrib.messages.storage.cookie import CookieStorage
from django.db import connection
from django.http import HttpResponse
from django.test import Client, RequestFactory, override_settings
from django.test.signals import template_rendered
from django.test.utils import CaptureQueriesContext

from base import cache as base_cache
from games.matchplay import services as match_services
from tournaments import services
from tournaments.models import Entry, Flight, FlightChange, Slot
from tournaments.services import boards

from .builders import drawn_event, make_event, members, ready_slots, win

pytestmark = pytest.mark.django_db


def api_url(flight) -> str:
    return f"/api/v1/events/{flight.event.club.slug}/{flight.event.slug}/flights/{flight.slug}/"


def page(client, flight) -> str:
    response = client.get(flight.get_absolute_url())
    assert response.status_code == 200
    return response.content.decode()


def api(client, flight) -> dict:
    response = client.get(api_url(flight))
    assert response.status_code == 200
    return response.json()


def won(name: str) -> str:
    """A bracket side marked as the winner's."""
    return f'<span class="side won">{name}'


def queries(call) -> int:
    with CaptureQueriesContext(connection) as captured:
        call()
    return len(captured)


@pytest.fixture
def bracket(club, director_user):
    event, flights = drawn_event(club, director_user, 8)
    return Flight.objects.select_related("event__club").get(pk=flights["main"].pk)  # its URLs cost no query


@contextlib.contextmanager
def patch_render():
    """The names of the templates rendered meanwhile (Django's template_rendered signal)."""
    names: list[str] = []

    def heard(sender, template, context, **kwargs):
        names.append(template.name)

    template_rendered.connect(heard)
    try:
        yield names
    finally:
        template_rendered.disconnect(heard)


def versions(flight) -> int:
    return FlightChange.objects.filter(flight=flight).count()


def test_a_cached_read_costs_one_query_and_a_miss_no_more_than_before(client, bracket):
    for read in (page, api):
        miss = queries(lambda read=read: read(client, bracket))
        hit = queries(lambda read=read: read(client, bracket))
        # the flight with its event and version, the slots, the entries; the page adds the players' ratings for
        # the chances (computed once per version, tournaments.selectors.chances)
        assert miss == (4 if read is page else 3)
        # the flight of an event this visitor may see, with its version: one statement (it was two, the event's
        # and then the flight's, most of a cached read's time under load)
        assert hit == 1


def test_a_result_shows_at_once_on_the_cached_page_and_api(client, director_user, bracket):
    slot = ready_slots(bracket)[0]
    winner = slot.entry_a.player.name
    assert won(winner) not in page(client, bracket)
    before = api(client, bracket)
    assert before["rounds"][0]["slots"][0]["result"] == "ready"
    win(director_user, slot, 0)
    assert won(winner) in page(client, bracket)
    after = api(client, bracket)
    assert after["rounds"][0]["slots"][0]["result"] == "played"
    assert after["rounds"][1]["slots"][0]["player_a"] == winner


def test_an_override_shows_at_once(client, director_user, bracket):
    first, second = ready_slots(bracket)[:2]
    win(director_user, first, 0)
    loser = first.entry_b.player.name
    assert api(client, bracket)["rounds"][1]["slots"][0]["player_a"] == first.entry_a.player.name
    assert won(loser) not in page(client, bracket)
    services.override_result(
        actor=director_user, slot=Slot.objects.get(pk=first.pk), winner_side=1, outcome="forfeit", comment="wrong"
    )
    assert api(client, bracket)["rounds"][1]["slots"][0]["player_a"] == loser
    assert won(loser) in page(client, bracket)


def test_a_withdrawal_shows_at_once(client, director_user, bracket):
    slot = ready_slots(bracket)[0]
    assert "withdrawn" not in page(client, bracket)
    api(client, bracket)
    services.withdraw(actor=director_user, entry=Entry.objects.get(pk=slot.entry_b_id))
    assert "withdrawn" in page(client, bracket)
    assert api(client, bracket)["rounds"][0]["slots"][0]["result"] == "walkover"


def test_a_released_draw_and_its_steps_show_at_once(client, club, director_user):
    event = make_event(club, director_user)
    flight = services.add_flight(actor=director_user, event=event, name="Main")
    assert "No entries yet." in page(client, flight)
    for player in members(club, 4):
        services.register(actor=director_user, flight=flight, player=player)
    assert "No entries yet." not in page(client, flight)
    services.draw_flight(actor=director_user, flight=flight, seed=3)
    services.confirm_draw(actor=director_user, flight=flight)
    assert "Round 1 (draw not yet released)" in page(client, flight)
    assert api(client, flight)["rounds"] == []
    services.release_draw(actor=director_user, flight=flight)
    assert "Semi-finals" in page(client, flight)
    assert [r["title"] for r in api(client, flight)["rounds"]] == ["Semi-finals", "Final"]


def test_a_call_to_a_board_and_a_started_match_show_at_once(client, director_user, bracket):
    event = bracket.event
    boards.set_boards(actor=director_user, event=event, count=1)
    assert "Board 1" not in page(client, bracket)
    assert api(client, bracket)["rounds"][0]["slots"][0]["board"] is None
    boards.call_next(actor=director_user, event=event)
    assert "Board 1" in page(client, bracket)
    assert api(client, bracket)["rounds"][0]["slots"][0]["board"] == 1
    slot = ready_slots(bracket)[0]
    match_services.start_match(actor=director_user, match=slot.match)
    assert api(client, bracket)["rounds"][0]["slots"][0]["match_status"] == "in_progress"


def test_each_language_and_the_projector_view_have_their_own_rendering(client, bracket):
    assert "Semi-finals" in page(client, bracket)
    german = Client(headers={"accept-language": "de"})
    assert "Halbfinale" in page(german, bracket)
    assert api(german, bracket)["rounds"][1]["title"] == "Halbfinale"
    assert api(client, bracket)["rounds"][1]["title"] == "Semi-finals"
    projector = client.get(bracket.get_absolute_url() + "?projector=1").content.decode()
    assert 'class="bracket-page projector"' in projector
    assert 'class="bracket-page projector"' not in page(client, bracket)


def test_a_directors_forms_never_reach_another_viewer(client, director_user, member_user, bracket):
    director = Client()
    director.force_login(director_user)
    member = Client()
    member.force_login(member_user)
    withdraw_form = "/withdraw/"
    assert withdraw_form not in page(client, bracket)  # a visitor's rendering is cached first
    assert withdraw_form in page(director, bracket)
    assert withdraw_form not in page(member, bracket)
    assert withdraw_form in page(director, bracket)
    assert page(client, bracket).count("csrfmiddlewaretoken") == 0  # a reader's language switch takes none


def test_an_anonymous_reader_gets_the_whole_page_rendered_once_per_version_in_their_language(
    client, director_user, bracket, django_assert_max_num_queries
):
    """The page a reader who is not signed in gets is the same for every such reader: no CSRF token, no cookie
    set; after the first it is served whole from the cache (base.pagecache) in the reader's language, and a
    result makes the next read show it."""
    first = client.get(bracket.get_absolute_url())
    assert "csrftoken" not in first.cookies and "csrfmiddlewaretoken" not in first.content.decode()
    with CaptureQueriesContext(connection) as read, patch_render() as rendered:
        again = client.get(bracket.get_absolute_url())
    assert again.content == first.content
    assert (len(read), rendered) == (1, [])  # the flight with its event; no template rendered
    german = Client(headers={"accept-language": "de"}).get(bracket.get_absolute_url()).content.decode()
    assert '<html lang="de">' in german and "Anmelden" in german
    assert '<html lang="en">' in page(client, bracket)
    slot = ready_slots(bracket)[0]
    win(director_user, slot, 0)
    assert won(slot.entry_a.player.name) in page(client, bracket)


def test_a_reader_with_a_flash_message_or_a_session_gets_a_page_of_their_own(client, bracket):
    """A flash message is shown once, to its reader: a request that carries one (the messages cookie) is rendered
    for itself, and neither the message nor its page is kept for anyone else."""
    page(client, bracket)  # the readers' page is cached
    request = RequestFactory().get("/")
    storage = CookieStorage(request)
    storage.add(messages.SUCCESS, "You have left the club.")
    carrier = HttpResponse()
    storage.update(carrier)
    reader = Client()
    reader.cookies["messages"] = carrier.cookies["messages"].value
    assert "You have left the club." in page(reader, bracket)
    assert "You have left the club." not in page(client, bracket)


def test_every_kind_of_write_counts_a_version(club, director_user, bracket):
    """The four places a change passes through: the flight lock, the results hook, a match starting, a call."""
    seen = [versions(bracket)]
    services.update_flight(actor=director_user, flight=bracket, clock_rule="preferred")
    seen.append(versions(bracket))
    slot = ready_slots(bracket)[0]
    match_services.start_match(actor=director_user, match=slot.match)
    seen.append(versions(bracket))
    win(director_user, slot, 0)
    seen.append(versions(bracket))
    boards.set_boards(actor=director_user, event=bracket.event, count=1)
    boards.call_next(actor=director_user, event=bracket.event)
    seen.append(versions(bracket))
    services.update_event(actor=director_user, event=bracket.event, name="Renamed Open")
    seen.append(versions(bracket))
    assert seen == sorted(set(seen)), seen  # each one went up


REDIS_DOWN = {
    "default": {
        "BACKEND": "base.cache.SharedPoolRedisCache",
        "LOCATION": "redis://127.0.0.1:1/0",  # nothing listens on port 1
        "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
    }
}


@pytest.fixture
def cache_down(caplog):
    base_cache.resume()
    with override_settings(CACHES=REDIS_DOWN), caplog.at_level(logging.WARNING, logger="base.cache"):
        yield caplog
    base_cache.resume()


def test_a_cache_that_is_down_renders_the_bracket_uncached(client, director_user, bracket, cache_down):
    slot = ready_slots(bracket)[0]
    assert slot.entry_a.player.name in page(client, bracket)
    assert "cache read of bracket:" in cache_down.text
    win(director_user, slot, 0)
    assert won(slot.entry_a.player.name) in page(client, bracket)
    assert api(client, bracket)["rounds"][0]["slots"][0]["result"] == "played"
