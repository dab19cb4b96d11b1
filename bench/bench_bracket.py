"""The tournament day's hot paths, timed in-process with DEBUG off: the public bracket page and the bracket
through the API for a 64-entrant flight (a cache miss, right after a result changed the flight, and a hit), and a
result reported by one player and confirmed by the other through the API.

Requests go through Django's whole handler and middleware (`ClientHandler`, built by a `RequestFactory` that
carries the signed-in client's cookies) but not through the test client itself, which copies every template
context it sees and would time the test harness. Each figure is the median of many requests in ms, with the most
queries one request took. The cache is whatever CACHES says (LocMemCache without CACHE_URL)."""

import statistics
import time

from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.test import Client, RequestFactory
from django.test.client import ClientHandler
from django.test.utils import CaptureQueriesContext

from bench.scratch import scratch_database
from games.models.matches import Match
from tests.clubs.factories import ClubFactory, MembershipFactory
from tests.tournaments.builders import drawn_event, ready_slots, win

ENTRANTS = 64
ROUNDS = 40


HANDLER = ClientHandler(enforce_csrf_checks=False)


def _timed(request) -> tuple[float, float, int]:
    """Wall and CPU milliseconds and the queries of one request (a WSGIRequest from a RequestFactory) through the
    handler. CPU time is the steadier figure on a shared machine (SQLite runs in this process too)."""
    with CaptureQueriesContext(connection) as queries:
        wall, cpu = time.perf_counter(), time.process_time()
        response = HANDLER(request.environ)
        wall, cpu = (time.perf_counter() - wall) * 1000, (time.process_time() - cpu) * 1000
    assert response.status_code in (200, 201), (response.status_code, response.content[:300])
    return wall, cpu, len(queries)


def _factory(client: Client | None = None) -> RequestFactory:
    """Requests as this (signed-in) client would send them; anonymous without one."""
    factory = RequestFactory()
    if client is not None:
        factory.cookies = client.cookies
    return factory


def _median(samples: list[tuple[float, float, int]]) -> str:
    wall, cpu = statistics.median(s[0] for s in samples), statistics.median(s[1] for s in samples)
    return f"{wall:.1f} ms (cpu {cpu:.1f} ms, {max(s[2] for s in samples)} queries)"


def bracket_reads(director) -> None:
    club = ClubFactory()
    MembershipFactory(club=club, player=director.player, role="director")
    event, flights = drawn_event(club, director, ENTRANTS)
    flight = flights["main"]
    slots = ready_slots(flight)
    for slot in slots[:20]:
        win(director, slot, 0)
    page = flight.get_absolute_url()
    api = f"/api/v1/events/{club.slug}/{event.slug}/flights/{flight.slug}/"
    visitor = _factory()
    for name, url in (("page", page), ("api", api)):
        misses, hits = [], []
        spare = iter(ready_slots(flight))
        for _ in range(ROUNDS):
            slot = next(spare, None)
            if slot is not None:
                win(director, slot, 1)  # a result: the flight changed, the next read is a miss
            else:
                cache.clear()
            misses.append(_timed(visitor.get(url)))
            hits.extend(_timed(visitor.get(url)) for _ in range(3))
        print(f"bracket_{name}_{ENTRANTS}_miss: {_median(misses)}")
        print(f"bracket_{name}_{ENTRANTS}_hit: {_median(hits)}")


def report_and_confirm(director) -> None:
    club = ClubFactory()
    MembershipFactory(club=club, player=director.player, role="director")
    event, flights = drawn_event(club, director, ENTRANTS)
    reports, confirms = [], []
    factories: dict[int, RequestFactory] = {}

    def as_player(player) -> RequestFactory:
        if player.pk not in factories:
            client = Client()
            client.force_login(player.user)
            factories[player.pk] = _factory(client)
        return factories[player.pk]

    for slot in ready_slots(flights["main"])[:ROUNDS]:
        match = Match.objects.select_related("player_a__user", "player_b__user").get(pk=slot.match_id)
        reporter, confirmer = as_player(match.player_a), as_player(match.player_b)
        body = {"method": "final_score", "score_a": match.length, "score_b": 1}
        url = f"/api/v1/matches/{match.pk}/"
        reports.append(_timed(reporter.post(url + "reports/", body, content_type="application/json")))
        confirms.append(_timed(confirmer.post(url + "confirm/", {"version": 1}, content_type="application/json")))
    print(f"result_report_api_{ENTRANTS}: {_median(reports)}")
    print(f"result_confirm_api_{ENTRANTS}: {_median(confirms)}")


def main() -> None:
    settings.DEBUG = False  # `make bench` sets DEBUG=1; production answers with it off
    with scratch_database():
        director = MembershipFactory(role="director").player.user
        bracket_reads(director)
        report_and_confirm(director)
