"""Every page and API that shows matches waiting to be played, against every format: a knockout keeps its matches
in bracket slots, a flight played in rounds in one pairing per table and round, a team format one team board per
board. Each format's day has one table of "me" decided (round 1) and one still to play (round 2); each page must
show the pending table with its round label ("Final", "Round 2, table 1", "Group A, round 2, table 1", "Final,
board 1") and must not show the decided one. A new page that lists matches belongs in PAGES; a new format in
FORMATS."""

from dataclasses import dataclass

import pytest
from django.db import connection
from django.db.models import Q
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.matchplay import services as match_services
from notifications import kinds
from notifications.models import Notification
from tests.tournaments.builders import drawn_event, ready_slots, win
from tests.tournaments.rounds_builders import open_tables, play_round, report, swiss_event
from tests.tournaments.test_team_matches import boards_of, play_board, ready, team_flight
from tournaments import selectors, services
from tournaments.models import Slot, TeamBoard
from tournaments.services import boards as board_services

pytestmark = pytest.mark.django_db


@dataclass
class Day:
    """A tournament day seen by `me`: the table still to play (`key`, `label`, `match`) and the decided one."""

    event: object
    flight: object
    me: object
    key: str
    label: str
    match: object
    decided_key: str
    decided_match: object


def _knockout(club, director, **kwargs) -> Day:
    _event, flights = drawn_event(club, director, 4, **kwargs)
    flight = flights["main"]
    first, second = ready_slots(flight)[:2]
    me = first.entry_a.player.user
    win(director, first, 0)
    win(director, second, 0)
    final = Slot.objects.select_related("match").get(flight=flight, section="w", round=2, position=0)
    return Day(flight.event, flight, me, f"slot-{final.pk}", "Final", final.match, f"slot-{first.pk}", first.match)


def _rounds(club, director, n, **kwargs) -> Day:
    _event, flight = swiss_event(club, director, n, **kwargs)
    services.start_round(actor=director, flight=flight)
    first = open_tables(flight)[0]
    me = first.entry_a.player.user
    play_round(director, flight)
    if flight.current_round == 1:
        services.start_round(actor=director, flight=flight)
    mine = Q(entry_a__player__user=me) | Q(entry_b__player__user=me)
    pending = next(p for p in open_tables(flight) if p in flight.pairings.filter(mine))
    label = f"Round 2, table {pending.table}"
    if pending.group:
        label = f"Group {pending.group_label}, round 2, table {pending.table}"
    return Day(
        flight.event, flight, me, f"pairing-{pending.pk}", label, pending.match, f"pairing-{first.pk}", first.match
    )


def _team(club, director) -> Day:
    flight, _entries = team_flight(club, director, 4)
    slots = ready(flight)
    mine = boards_of(slots[0])[0]
    me = mine.match.player_a.user
    for slot in slots:
        for board in boards_of(slot)[:2]:
            play_board(director, board, 0)
    final = Slot.objects.get(flight=flight, round=2, position=0)
    pending = (
        TeamBoard.objects.filter(slot=final)
        .filter(Q(match__player_a__user=me) | Q(match__player_b__user=me))
        .select_related("match")
        .get()
    )
    return Day(
        flight.event,
        flight,
        me,
        f"slot-{final.pk}-{pending.board}",
        f"Final, board {pending.board}",
        pending.match,
        f"slot-{slots[0].pk}-{mine.board}",
        mine.match,
    )


FORMATS = {
    "knockout": lambda club, director: _knockout(club, director),
    "double_elimination": lambda club, director: _knockout(club, director, kind="double_elimination"),
    "swiss": lambda club, director: _rounds(club, director, 4, format="swiss"),
    "triple_elimination": lambda club, director: _rounds(club, director, 4, format="triple_elimination"),
    "round_robin": lambda club, director: _rounds(club, director, 4, format="round_robin"),
    "groups": lambda club, director: _rounds(club, director, 8, format="groups", group_size=4, advance=2),
    "team": _team,
}


def _event_url(day: Day, name: str) -> str:
    return reverse(f"tournaments:{name}", args=[day.event.club.slug, day.event.slug])


def _api_key(row: dict) -> str:
    if "kind" in row:
        kind, pk = row["kind"], row["id"]
    else:  # a queue line or a call: the slot's or the pairing's id
        kind, pk = ("slot", row["slot"]) if row["slot"] is not None else ("pairing", row["pairing"])
    return f"{kind}-{pk}" + (f"-{row['team_board']}" if row.get("team_board") else "")


def home_panel(day, client, api_as, director):
    client.force_login(day.me)
    return "html", client.get("/").content.decode()


def next_match_page(day, client, api_as, director):
    client.force_login(day.me)
    return "html", client.get(reverse("tournaments:next-match")).content.decode()


def next_matches_api(day, client, api_as, director):
    answer = api_as(day.me).get("/api/v1/events/next-matches/")
    assert answer.status_code == 200
    return "rows", answer.json()


def dashboard_page(day, client, api_as, director):
    client.force_login(director)
    return "html", client.get(_event_url(day, "dashboard")).content.decode()


def dashboard_api(day, client, api_as, director):
    answer = api_as(director).get(f"/api/v1/events/{day.event.club.slug}/{day.event.slug}/dashboard/").json()
    return "rows", [
        row for state in ("ready", "in_progress", "reported", "waiting", "disputed") for row in answer[state]
    ]


def calling_page(day, client, api_as, director):
    board_services.set_boards(actor=director, event=day.event, count=8)
    client.force_login(director)
    return "html", client.get(_event_url(day, "calling")).content.decode()


def boards_api(day, client, api_as, director):
    board_services.set_boards(actor=director, event=day.event, count=8)
    answer = api_as(director).get(f"/api/v1/events/{day.event.club.slug}/{day.event.slug}/boards/").json()
    return "rows", answer["queue"]


def call_slips(day, client, api_as, director):
    """Auto-call sends every waiting table to a board: the pending one is on a slip, the decided one never."""
    board_services.set_boards(actor=director, event=day.event, count=8)
    board_services.set_auto_call(actor=director, event=day.event, on=True)
    client.force_login(director)
    return "html", client.get(_event_url(day, "call-slips")).content.decode()


def boards_api_calls(day, client, api_as, director):
    board_services.set_boards(actor=director, event=day.event, count=8)
    board_services.set_auto_call(actor=director, event=day.event, on=True)
    answer = api_as(director).get(f"/api/v1/events/{day.event.club.slug}/{day.event.slug}/boards/").json()
    return "rows", [line["call"] for line in answer["boards"] if line["call"]]


def your_match(day, client, api_as, director):
    """The round page's (or the bracket page's) line for the signed-in player: their table and its match."""
    client.force_login(day.me)
    return "html", client.get(day.flight.get_absolute_url()).content.decode()


PAGES = {
    "home panel": home_panel,
    "next-match page": next_match_page,
    "next-matches API": next_matches_api,
    "dashboard": dashboard_page,
    "dashboard API": dashboard_api,
    "calling page": calling_page,
    "boards API queue": boards_api,
    "call slips": call_slips,
    "boards API calls": boards_api_calls,
    "round or bracket page": your_match,
}


def _problem(day: Day, page: str, kind: str, shown) -> str | None:
    """What is wrong with the page's list of matches waiting, None when nothing is."""
    if kind == "rows":
        keys = [_api_key(row) for row in shown]
        if day.key not in keys or day.decided_key in keys:
            return f"pending {day.key} / decided {day.decided_key} in {keys}"
        label = next(row for row in shown if _api_key(row) == day.key)["label"]
        return None if label == day.label else f"label {label!r}, not {day.label!r}"
    if page == "round or bracket page":  # the player's own line links straight to the match
        if f'href="{day.match.get_absolute_url()}">open your match' not in shown:
            return "no link to the pending match"
        if f'href="{day.decided_match.get_absolute_url()}">open your match' in shown:
            return "a link to the decided match"
        return None
    if f'data-table="{day.key}"' not in shown or f'data-table="{day.decided_key}"' in shown:
        return f"pending {day.key} missing or decided {day.decided_key} shown"
    line = shown.split(f'data-table="{day.key}"', 1)[1].split("</li>", 1)[0]
    return None if day.label in line else f"label {day.label!r} not in {line!r}"


@pytest.mark.parametrize("fmt", FORMATS)
def test_the_pending_table_shows_with_its_round_label_and_the_decided_one_does_not(
    fmt, club, director_user, client, api_as
):
    """One day per format, every page in PAGES's order (the queue's pages before the calls'): each problem is
    named with its page."""
    day = FORMATS[fmt](club, director_user)
    problems = {}
    for page, show in PAGES.items():
        kind, shown = show(day, client, api_as, director_user)
        problem = _problem(day, page, kind, shown)
        if problem:
            problems[page] = problem
    assert problems == {}


def test_a_decided_round_table_offers_no_match_to_open(club, director_user, client):
    """After the night the Swiss page says the table is decided, without "open your match"."""
    day = FORMATS["swiss"](club, director_user)
    pending = day.event.flights.get().pairings.get(match=day.match)
    report(director_user, pending, 0)
    client.force_login(day.me)
    page = client.get(day.flight.get_absolute_url()).content.decode()
    assert "open your match" not in page
    assert "decided" in page


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_decided_table_frees_its_board_in_every_format(fmt, club, director_user):
    """Auto-call puts the pending table on a board; its confirmed result frees the board (the call stays, with
    the time it was freed), as a bracket match's does."""
    day = FORMATS[fmt](club, director_user)
    board_services.set_boards(actor=director_user, event=day.event, count=8)
    board_services.set_auto_call(actor=director_user, event=day.event, on=True)
    called = selectors.match_table(match=day.match)
    assert called.state == "called" and called.board is not None
    match_services.submit_report(
        actor=director_user, match=day.match, method="final_score", scores=(day.match.length, 0), as_director=True
    )
    after = selectors.match_table(match=day.match)
    assert after.state == "decided" and after.call.pk == called.call.pk
    assert after.board is None and after.call.freed_at is not None


def test_a_round_table_called_to_a_board_names_table_and_board_to_its_players(
    club, director_user, django_capture_on_commit_callbacks
):
    day = FORMATS["swiss"](club, director_user)
    board_services.set_boards(actor=director_user, event=day.event, count=8)
    with django_capture_on_commit_callbacks(execute=True):
        board_services.set_auto_call(actor=director_user, event=day.event, on=True)
    board = selectors.match_table(match=day.match).board
    told = [
        kinds.personal(n.kind, n.params)
        for n in Notification.objects.filter(recipient=day.me, kind="match_ready", object_key__contains="board")
    ]
    assert told == [f"Your match against {_opponent(day)} is ready: {day.label}, board {board.number}."]


def _opponent(day: Day) -> str:
    table = selectors.match_table(match=day.match)
    return table.opponent_of_user(day.me.pk)


def test_tables_cost_the_same_queries_whatever_the_number_of_tables_and_events(club, director_user):
    """One statement for which kinds of table there are, then one per kind (slots, pairings, team boards): an
    event's tables and a player's across events cost the same for a small and a large field."""
    day = FORMATS["swiss"](club, director_user)
    _knockout(club, director_user)
    bigger, flight = swiss_event(club, director_user, 32, format="swiss")
    services.start_round(actor=director_user, flight=flight)
    counts = []
    for event in (day.event, bigger):
        with CaptureQueriesContext(connection) as read:
            assert selectors.event_tables(event=event)
        counts.append(len(read))
    assert counts == [2, 2]  # which kinds, the pairings
    with CaptureQueriesContext(connection) as read:
        mine = selectors.player_tables(user=day.me)
    assert [t.key for t in mine] == [day.key]
    assert len(read) == 2
    with CaptureQueriesContext(connection) as read:
        assert selectors.player_tables(user=director_user) == []
    assert len(read) == 1  # a home page without tables asks once
