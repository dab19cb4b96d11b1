"""Reporting a result and advancing costs the same number of queries in a field of 8 and of 256; the bracket
page of a 256-entry flight renders with at most 15 queries."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tournaments import hooks

from .builders import drawn_event, ready_slots, win

pytestmark = pytest.mark.django_db

# measured 37 incl. match play and ratings, equal for 8 and 256 (the players' first results: each of the two pools
# makes their rating rows), and one more on PostgreSQL (the `SET LOCAL lock_timeout` of the first row lock). It
# was 44 before the rating rule was asked for both pools at once, a first rating row made with INSERT … RETURNING
# and both players' first played match marked in one update; 36 until every match event was pushed to its
# flight's pages (games/live.py): one query finds the flight and event.
REPORT_AND_ADVANCE_MAX = 38


@pytest.fixture
def only_our_flight_callbacks(monkeypatch):
    """Other apps' reactions (points, Calcutta, notifications) are theirs to bound; count the bracket's own work.
    (The notifications bound theirs in tests/notifications: constant per result.)"""
    from games.matchplay import hooks as match_hooks
    from notifications import receivers

    monkeypatch.setattr(hooks.flight_results_changed, "_callbacks", [])
    monkeypatch.setattr(hooks.match_called, "_callbacks", [])
    monkeypatch.setattr(
        match_hooks.result_confirmed,
        "_callbacks",
        [c for c in match_hooks.result_confirmed._callbacks if c is not receivers.result_confirmed],
    )


def queries_for_one_result(club, director, n):
    event, flights = drawn_event(club, director, n, consolation={})
    slot = ready_slots(flights["main"])[0]
    win(director, slot, 0)  # the first result of the flight differs from the rest (nothing to correct yet)
    slot = ready_slots(flights["main"])[0]
    with CaptureQueriesContext(connection) as captured:
        win(director, slot, 1)
    return len(captured)


def test_reporting_one_result_costs_the_same_whatever_the_field_size(
    club, director_user, django_assert_max_num_queries, only_our_flight_callbacks
):
    small = queries_for_one_result(club, director_user, 8)
    large = queries_for_one_result(club, director_user, 256)
    print(f"queries for one result: {small} (8 entrants), {large} (256 entrants)")
    assert small == large
    assert large <= REPORT_AND_ADVANCE_MAX
    event, flights = drawn_event(club, director_user, 256, consolation={})
    slot = ready_slots(flights["main"])[0]
    with django_assert_max_num_queries(REPORT_AND_ADVANCE_MAX):
        win(director_user, slot, 0)


def test_bracket_page_of_256_entries_renders_with_at_most_15_queries(
    club, director_user, client, django_assert_max_num_queries
):
    event, flights = drawn_event(club, director_user, 256, consolation={})
    for slot in ready_slots(flights["main"])[:20]:
        win(director_user, slot, 0)
    url = flights["main"].get_absolute_url()
    with django_assert_max_num_queries(15):
        response = client.get(url)
    assert response.status_code == 200
    assert response.content.count(b'class="slot ') == 255


@pytest.mark.parametrize("n", [8, 64])
def test_dashboard_event_page_and_prize_list_cost_the_same_queries_whatever_the_field_size(
    club, director_user, client, django_assert_max_num_queries, n
):
    """Measured 12 (dashboard, two of them the entry fees), 12 (event page), 8 (prize list, with the club's
    payout tables and the rights for a director's forms) for 8 and for 64 entrants; the dashboard once loaded each
    listed match's event and club again for its override link (69 queries for 64 entrants). The dashboard's
    finish-time forecast adds two (the club's match durations, the rounds begun), whatever the size. The prize
    list's expected prizes add one (the flights' versions) and two while the main's chances are not cached yet
    (its slots, the ratings); its "Confirm received" buttons one (the viewer's own player), whatever the size."""
    event, flights = drawn_event(
        club,
        director_user,
        n,
        consolation={},
        entry_fee=10,
        payout_template=[{"place": 1, "percent": 70}, {"place": 2, "percent": 30}],
    )
    for slot in ready_slots(flights["main"])[:3]:
        win(director_user, slot, 0)
    client.force_login(director_user)
    for name, most in (("dashboard", 12), ("event-detail", 13), ("prizes", 12)):
        with django_assert_max_num_queries(most):
            response = client.get(reverse(f"tournaments:{name}", args=[club.slug, event.slug]))
        assert response.status_code == 200


def api_report_and_confirm_statements(club, director, n, **extra) -> tuple[list[str], list[str]]:
    """The statements of a player's report (with these `extra` fields) and the opponent's confirmation
    through the API, every app's hooks on (points, Calcutta, ratings, notifications, the live push, the
    bracket's version)."""
    from django.test import Client

    event, flights = drawn_event(club, director, n, consolation={})
    first, slot = ready_slots(flights["main"])[:2]
    win(director, first, 0)  # the first result of a flight differs from the rest
    match = slot.match
    reporter, confirmer = Client(), Client()
    reporter.force_login(match.player_a.user)
    confirmer.force_login(match.player_b.user)
    url = f"/api/v1/matches/{match.pk}/"
    with CaptureQueriesContext(connection) as report:
        response = reporter.post(
            url + "reports/", {"method": "final_score", "score_a": match.length, "score_b": 1, **extra}
        )
    assert response.status_code == 201
    with CaptureQueriesContext(connection) as confirm:
        response = confirmer.post(url + "confirm/", {"version": response.json()["version"]})
    assert response.status_code == 200
    return [q["sql"] for q in report], [q["sql"] for q in confirm]


def api_report_and_confirm(club, director, n) -> tuple[int, int]:
    report, confirm = api_report_and_confirm_statements(club, director, n)
    return len(report), len(confirm)


def test_report_and_confirm_through_the_api_cost_the_same_queries_for_8_and_128_entrants(club, director_user):
    """Measured 13 (report) and 60 (confirm, with a consolation flight fed by the loser) for both sizes; on
    PostgreSQL each request also sends the `SET LOCAL lock_timeout` of its first row lock (base.locks). They were
    14 and 80: the opponent confirming a first result was asked whether they direct the match, the rating rule
    was asked once per pool, the notifications read the players and their recipients again. Then 12 and 59, until
    every match event was pushed to its flight's pages (games/live.py): one query finds the flight and event."""
    small = api_report_and_confirm(club, director_user, 8)
    large = api_report_and_confirm(club, director_user, 128)
    print(f"queries for report, confirm: {small} (8 entrants), {large} (128 entrants)")
    assert small == large
    timeout_statement = 1 if connection.vendor == "postgresql" else 0
    assert large[0] <= 13 + timeout_statement and large[1] <= 60 + timeout_statement


SORTED_ON = re.compile(r'"(\w+)"\."\w+"')


def test_no_statement_of_a_report_or_confirmation_joins_a_table_to_sort_on_it(club, director_user):
    """A model's default order that names a relation (a slot's flight, a report's match, a membership's club)
    sorts on the related model's own default order, so a query that asked for no order joined those tables and
    sorted on them: the confirmation's slot lock joined the flight and the event for its ORDER BY, and building
    that statement cost a confirmation more CPU than any other. Every statement of a report and a confirmation
    sorts, if at all, on the columns of the table it reads."""
    report, confirm = api_report_and_confirm_statements(club, director_user, 8, idempotency_key="phone-1")
    joined_for_order = []
    for sql in report + confirm:
        if not sql.startswith("SELECT") or " ORDER BY " not in sql:
            continue
        head, order = sql.rsplit(" ORDER BY ", 1)
        table = re.search(r' FROM "(\w+)"', head)
        sorted_on = set(SORTED_ON.findall(order))
        if table is None or sorted_on - {table.group(1)}:
            joined_for_order.append(f"{sorted(sorted_on)}: {sql[:200]} ... ORDER BY {order[:200]}")
    assert joined_for_order == []
