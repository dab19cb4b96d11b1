"""The page of a flight played in rounds, as a thousand open phones read it: the current round's body (standings,
tables, crosstable, check-in) is the same for every viewer but a director, so it is rendered once per flight
version and then served from the cache, and it is the live fragment pushed to open pages. Every change it shows
counts a version (a result, a match starting, a check-in, a round paired), a director's forms never reach another
viewer, and a player's own table is theirs alone, above the shared body."""

import re

import pytest
from django.test import Client
from django.test.signals import template_rendered

from games.matchplay import services as match_services
from tests.tournaments.rounds_builders import open_tables, report, swiss_event
from tournaments import services

pytestmark = pytest.mark.django_db

BODY = "tournaments/_rounds_body.html"


@pytest.fixture
def renders():
    seen = []

    def rendered(sender, template, **kwargs):
        if template.name == BODY:
            seen.append(template.name)

    template_rendered.connect(rendered)
    yield seen
    template_rendered.disconnect(rendered)


def page(client, flight, query="") -> str:
    response = client.get(flight.get_absolute_url() + query)
    assert response.status_code == 200
    return response.content.decode()


def body(html: str) -> str:
    """The shared body: the rounds region to the end of the page's main part (the header's forms have tokens)."""
    return html[html.index('<div class="rounds-page') : html.index("</main>")]


def region(html: str) -> tuple[str | None, int | None]:
    """(variant, version) the rounds region names as its live fragment, (None, None) when it names none."""
    found = re.search(r'id="live-rounds"[^>]*?(?: data-live-fragment="([^"]+)" data-live-version="([0-9]+)")?>', html)
    assert found, "the page has its rounds region"
    return found.group(1), int(found.group(2)) if found.group(2) else None


def test_the_current_round_is_rendered_once_per_version_and_each_change_shows(club, director_user, renders):
    event, flight = swiss_event(club, director_user, 6, rounds=2)
    visitor = Client()
    before = page(visitor, flight)
    assert region(before)[0] == "en.0" and "Check-in" in before
    services.check_in(actor=director_user, entry=flight.entries.order_by("pk").first())
    assert "1 of 6 checked in" in page(visitor, flight)  # a check-in counts a version

    services.start_round(actor=director_user, flight=flight)
    renders.clear()
    first = page(visitor, flight)
    assert "Round 1" in first and "Standings" in first
    _variant, version = region(first)
    assert body(page(Client(), flight)) == body(first)  # a second viewer: the cached body, not rendered again
    assert len(renders) == 1

    table = open_tables(flight)[0]
    match_services.start_match(actor=director_user, match=table.match)
    started = page(visitor, flight)
    assert region(started)[1] > version and "In progress" in started  # a match starting counts a version

    report(director_user, table, 0, loser_points=2)
    decided = page(visitor, flight)
    assert region(decided)[1] > region(started)[1]
    assert re.search(rf"<strong>{re.escape(table.entry_a.name)}</strong>", decided)  # the table's winner in bold


def test_a_directors_forms_never_reach_another_viewer_and_an_earlier_round_is_no_fragment(
    club, director_user, member_user
):
    event, flight = swiss_event(club, director_user, 4, rounds=2)
    services.start_round(actor=director_user, flight=flight)
    for table in open_tables(flight):
        report(director_user, table, 0)  # the round's last result pairs round 2
    visitor, member, director = Client(), Client(), Client()
    member.force_login(member_user)
    director.force_login(director_user)
    assert "Correct" not in page(visitor, flight)  # the visitor's rendering is cached first
    directors = page(director, flight)
    assert "Correct" in directors or "Pair the next round" in directors
    assert region(directors) == (None, None)  # a director's body carries their forms: refetched, never pushed
    for viewer in (visitor, member):
        html = page(viewer, flight)
        assert "Pair the next round" not in html and "/correct" not in html
        assert "csrfmiddlewaretoken" not in body(html)  # no form of anyone's in the shared body
    earlier = page(visitor, flight, "?round=1")
    assert "Round 1" in earlier and region(earlier) == (None, None)


def test_a_players_own_table_is_theirs_alone_above_the_shared_body(club, director_user):
    event, flight = swiss_event(club, director_user, 4, rounds=2)
    services.start_round(actor=director_user, flight=flight)
    table = open_tables(flight)[0]
    player = table.entry_a.player.user
    other = open_tables(flight)[1].entry_a.player.user
    mine, theirs = Client(), Client()
    mine.force_login(player)
    theirs.force_login(other)
    html = page(mine, flight)
    own = re.search(r'<p class="my-table no-print" id="live-my-table" data-live-groups="user-([0-9]+)">', html)
    assert own and int(own.group(1)) == player.pk
    assert f"your table is {table.table}" in html
    assert html.index('id="live-my-table"') < html.index('id="live-rounds"')
    assert f"your table is {table.table}" not in page(theirs, flight)
    assert "your table is" not in page(Client(), flight)  # a visitor has none, and the shared body names no one's


def test_a_reader_not_signed_in_gets_the_whole_current_round_page_from_the_cache(
    club, director_user, django_assert_max_num_queries
):
    """Someone not signed in reads the same page as every such reader (base.pagecache): after the first read the
    whole page comes from the cache, with no template rendered and no token; an earlier round and a result show
    as before."""
    event, flight = swiss_event(club, director_user, 6, rounds=2)
    services.start_round(actor=director_user, flight=flight)
    visitor = Client()
    first = page(visitor, flight)
    layouts = []

    def rendered(sender, template, **kwargs):
        layouts.append(template.name)

    template_rendered.connect(rendered)
    try:
        with django_assert_max_num_queries(2):  # the event and the flight with its version
            again = page(visitor, flight)
    finally:
        template_rendered.disconnect(rendered)
    assert (again, layouts) == (first, [])
    assert "csrfmiddlewaretoken" not in first
    table = open_tables(flight)[0]
    report(director_user, table)
    assert page(visitor, flight) != first  # the result counts a version: the next read shows it
