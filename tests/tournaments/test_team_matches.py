"""Team events (a nations cup) in a knockout: a team match is one board match per board, board k between the
k-th players of the lineups; the boards decide it as soon as one team has won more than half of them, and the
bracket moves on as for any result. Board matches are ordinary singles matches, rated as such."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from base.api import Conflict
from games.matchplay import services as match_services
from ratings.services.pools import club_pool, rateable_matches
from tests.refusals import ValidationError
from tests.tournaments.builders import make_event, members
from tournaments import selectors, services
from tournaments.models import Pairing, Slot, TeamBoard

from .test_queries import only_our_flight_callbacks  # noqa: F401 - a fixture

pytestmark = pytest.mark.django_db


def team_flight(club, director, teams, boards=3, *, release=True):
    event = make_event(club, director)
    flight = services.add_flight(
        actor=director, event=event, name="Nations Cup", slug="nations", team_kind="team", team_size=boards, length=3
    )
    entries = [
        services.register_team(actor=director, flight=flight, players=members(club, boards), team_name=f"Team {n}")
        for n in range(1, teams + 1)
    ]
    if release:
        services.draw_flight(actor=director, flight=flight, seed=5)
        services.confirm_draw(actor=director, flight=flight)
        services.release_draw(actor=director, flight=flight)
        flight.refresh_from_db()
    return flight, entries


def ready(flight):
    return list(
        Slot.objects.filter(flight=flight, result="ready")
        .select_related("entry_a", "entry_b")
        .order_by("section", "round", "position")
    )


def play_board(director, board, side, *, loser_points=1):
    match = board.match
    scores = (match.length, loser_points) if side == 0 else (loser_points, match.length)
    match_services.submit_report(actor=director, match=match, method="final_score", scores=scores, as_director=True)


def boards_of(slot):
    return list(TeamBoard.objects.filter(slot=slot).select_related("match").order_by("board"))


def test_a_team_event_is_a_knockout_of_2_to_9_boards(club, director_user):
    event = make_event(club, director_user)
    for kwargs, field in (
        ({"team_size": None}, "team_size"),
        ({"team_size": 10}, "team_size"),
        ({"team_size": 3, "format": "groups", "group_size": 4, "advance": 2}, "format"),
    ):
        with pytest.raises(ValidationError) as refused:
            services.add_flight(actor=director_user, event=event, name="T", team_kind="team", **kwargs)
        assert field in refused.value.message_dict
    flight = services.add_flight(actor=director_user, event=event, name="T", team_kind="team", team_size=3)
    assert (flight.team_kind, flight.team_size) == ("team", 3)
    with pytest.raises(ValidationError):  # a team is as many players as boards
        services.register_team(actor=director_user, flight=flight, players=members(club, 2))


def test_a_team_match_is_one_match_per_board_by_the_lineups(club, director_user):
    flight, entries = team_flight(club, director_user, 4)
    slot = ready(flight)[0]
    assert slot.match_id is None
    boards = boards_of(slot)
    assert [b.board for b in boards] == [1, 2, 3]
    lineup_a = [m.player_id for m in slot.entry_a.members.order_by("order")]
    lineup_b = [m.player_id for m in slot.entry_b.members.order_by("order")]
    assert [(b.match.player_a_id, b.match.player_b_id) for b in boards] == list(zip(lineup_a, lineup_b, strict=True))


def test_two_boards_of_three_decide_and_the_winner_moves_on(club, director_user):
    flight, _entries = team_flight(club, director_user, 4)
    slot = ready(flight)[0]
    first, second, third = boards_of(slot)
    play_board(director_user, first, 1)
    slot.refresh_from_db()
    assert slot.result == "ready"
    play_board(director_user, third, 1)
    slot.refresh_from_db()
    assert (slot.result, slot.winner_id) == ("played", slot.entry_b_id)
    final = Slot.objects.get(flight=flight, round=2)
    assert slot.entry_b_id in (final.entry_a_id, final.entry_b_id)
    play_board(director_user, second, 0)  # the last board is still played and rated; the team result stands
    slot.refresh_from_db()
    assert slot.winner_id == slot.entry_b_id
    assert rateable_matches(club_pool(club.pk)).filter(pk__in=[b.match_id for b in (first, second, third)]).count() == 3


def test_an_even_tie_goes_to_the_points(club, director_user):
    flight, _entries = team_flight(club, director_user, 2, boards=2)
    slot = ready(flight)[0]
    first, second = boards_of(slot)
    play_board(director_user, first, 0, loser_points=2)  # A 3-2
    play_board(director_user, second, 1, loser_points=0)  # B 3-0: B scored 5, A 3
    slot.refresh_from_db()
    assert (slot.result, slot.winner_id) == ("played", slot.entry_b_id)
    flight.refresh_from_db()
    assert flight.status == "finished"


def play_out(director, flight, side=0):
    """Every open team match (a knockout's slots, a round's tables) played board by board until none is left;
    the boards left once a team match is decided stay open."""
    model, field, open_result = (
        (Slot, "slot", "ready") if flight.format == "knockout" else (Pairing, "pairing", "pending")
    )
    while tables := list(model.objects.filter(flight=flight, result=open_result, entry_b__isnull=False)):
        for table in tables:
            for board in TeamBoard.objects.filter(**{field: table}).select_related("match").order_by("board"):
                if model.objects.get(pk=table.pk).result == open_result:
                    play_board(director, board, side)


def test_a_nations_cup_is_played_to_the_end(club, director_user):
    flight, entries = team_flight(club, director_user, 4)
    play_out(director_user, flight)
    flight.refresh_from_db()
    assert flight.status == "finished"
    places = sorted(p.place for p in selectors.flight_placements(flight=flight))
    assert places[0] == 1 and places.count(1) == 1 and None not in places


def test_a_corrected_board_that_changes_the_team_winner_reroutes_the_bracket(club, director_user):
    flight, _entries = team_flight(club, director_user, 4)
    slot = ready(flight)[0]
    first, second, _third = boards_of(slot)
    play_board(director_user, first, 0)
    play_board(director_user, second, 0)
    slot.refresh_from_db()
    assert slot.winner_id == slot.entry_a_id
    play_board(director_user, first, 1)  # the director corrects board 1: now 1-1, board 3 open
    slot.refresh_from_db()
    assert (slot.result, slot.winner_id) == ("ready", None)
    final = Slot.objects.get(flight=flight, round=2)
    assert slot.entry_a_id not in (final.entry_a_id, final.entry_b_id)


def queries_for_one_board(club, director, teams):
    flight, _entries = team_flight(club, director, teams)
    slots = ready(flight)
    play_board(director, boards_of(slots[0])[0], 0)  # the first result differs (nothing to correct yet)
    board = boards_of(slots[1])[0]
    with CaptureQueriesContext(connection) as captured:
        play_board(director, board, 0)
    return len(captured)


def test_a_board_result_costs_the_same_for_8_and_32_teams(club, director_user, only_our_flight_callbacks):  # noqa: F811
    assert queries_for_one_board(club, director_user, 8) == queries_for_one_board(club, director_user, 32)


def test_pages_and_api_show_the_boards(client, club, director_user, api_as):
    flight, _entries = team_flight(club, director_user, 4)
    slot = ready(flight)[0]
    first = boards_of(slot)[0]
    play_board(director_user, first, 0)
    page = client.get(flight.get_absolute_url() + "?round=1").content.decode()
    assert "Team 1" in page and reverse("games:match-detail", args=[first.match_id]) in page
    client.force_login(director_user)
    match_page = client.get(reverse("games:match-detail", args=[first.match_id])).content.decode()
    assert f"Board 1 of {slot.entry_a.name} – {slot.entry_b.name}" in match_page
    url = f"/api/v1/events/{club.slug}/{flight.event.slug}/flights/{flight.slug}/"
    detail = api_as(None).get(url).json()
    by_id = {s["id"]: s for r in detail["rounds"] for s in r["slots"]}
    assert by_id[slot.pk]["boards_won"] == [1, 0] and by_id[slot.pk]["player_a"] == slot.entry_a.name
    boards = api_as(None).get(url + f"slots/{slot.pk}/boards/")
    assert boards.status_code == 200
    assert [(b["board"], b["winner"]) for b in boards.json()] == [
        (1, first.match.player_a_id),
        (2, None),
        (3, None),
    ]
    team = api_as(director_user).post(
        url.replace(flight.slug, "other"),
        {},
        format="json",
    )
    assert team.status_code in (404, 405)


def test_a_board_correction_is_refused_once_the_next_team_match_has_started(club, director_user):
    flight, _entries = team_flight(club, director_user, 4)
    first_slot, second_slot = ready(flight)
    for slot in (first_slot, second_slot):
        for board in boards_of(slot)[:2]:
            play_board(director_user, board, 0)
    final = Slot.objects.get(flight=flight, round=2)
    match_services.start_match(actor=director_user, match=boards_of(final)[0].match)
    reported = boards_of(first_slot)[0].match
    first_slot.refresh_from_db()
    assert [s.started for s in services.BracketStore(flight.event).cascade(first_slot, include_self=False)] == [True]
    own = reported.player_b.user  # a player's own correction may not re-route a started team match
    with pytest.raises(Conflict):
        match_services.submit_report(actor=own, match=reported, method="final_score", scores=(1, reported.length))
    first_slot.refresh_from_db()
    assert first_slot.winner_id == first_slot.entry_a_id


def round_team_flight(club, director, teams, fmt, **kwargs):
    event = make_event(club, director)
    flight = services.add_flight(
        actor=director, event=event, name="League", team_kind="team", team_size=3, length=3, format=fmt, **kwargs
    )
    for n in range(1, teams + 1):
        services.register_team(actor=director, flight=flight, players=members(club, 3), team_name=f"Team {n}")
    services.start_round(actor=director, flight=flight)
    flight.refresh_from_db()
    return flight


def open_tables(flight):
    return list(
        Pairing.objects.filter(flight=flight, result="pending", entry_b__isnull=False).order_by("round", "table")
    )


def table_boards(pairing):
    return list(TeamBoard.objects.filter(pairing=pairing).select_related("match").order_by("board"))


def test_a_team_swiss_scores_each_table_by_the_boards_and_pairs_on(client, club, director_user):
    flight = round_team_flight(club, director_user, 4, "swiss", rounds=2)
    table = open_tables(flight)[0]
    assert table.match_id is None and [b.board for b in table_boards(table)] == [1, 2, 3]
    first, second, third = table_boards(table)
    play_board(director_user, first, 0)
    play_board(director_user, second, 1)
    table.refresh_from_db()
    assert (table.result, table.score_a, table.score_b) == ("pending", 1, 1)
    play_board(director_user, third, 1)
    table.refresh_from_db()
    assert (table.result, table.winner_id, table.score_a, table.score_b) == ("played", table.entry_b_id, 1, 2)
    play_out(director_user, flight)
    flight.refresh_from_db()
    assert (flight.status, flight.current_round) == ("finished", 2)
    places = sorted(p.place for p in selectors.flight_placements(flight=flight))
    assert places[0] == 1 and None not in places
    page = client.get(flight.get_absolute_url() + "?round=1").content.decode()
    assert "Team 1" in page and reverse("games:match-detail", args=[first.match_id]) in page
    client.force_login(director_user)
    match_page = client.get(reverse("games:match-detail", args=[first.match_id])).content.decode()
    assert f"Board 1 of {table.entry_a.name} – {table.entry_b.name}" in match_page


def test_a_team_round_robin_is_played_to_the_end(club, director_user):
    flight = round_team_flight(club, director_user, 3, "round_robin")
    play_out(director_user, flight, side=1)
    flight.refresh_from_db()
    assert flight.status == "finished"
    with pytest.raises(Conflict):
        services.edit_pairings(actor=director_user, flight=flight, pairs=[])


def queries_for_one_table_board(club, director, teams):
    flight = round_team_flight(club, director, teams, "swiss", rounds=3)
    first, second = open_tables(flight)[:2]
    play_board(director, table_boards(first)[0], 0)  # the first result differs (nothing to correct yet)
    with CaptureQueriesContext(connection) as captured:
        play_board(director, table_boards(second)[0], 0)
    return len(captured)


def test_a_team_table_board_costs_the_same_for_8_and_32_teams(club, director_user, only_our_flight_callbacks):  # noqa: F811
    assert queries_for_one_table_board(club, director_user, 8) == queries_for_one_table_board(club, director_user, 32)


def test_a_captain_sets_the_lineup_for_the_next_match(club, director_user, api_as):
    flight, entries = team_flight(club, director_user, 2, release=False)
    team = entries[0]
    lineup = [m.player for m in team.members.order_by("order")]
    url = f"/api/v1/events/{club.slug}/{flight.event.slug}/flights/{flight.slug}/entries/{team.pk}/members/"
    new_order = [lineup[2], lineup[0], lineup[1]]
    captain = api_as(team.player.user)
    answer = captain.put(url, {"players": [p.pk for p in new_order]}, format="json")
    assert answer.status_code == 200, answer.json()
    assert [m["player"] for m in answer.json()] == [p.pk for p in new_order]
    assert captain.put(url, {"players": [lineup[0].pk]}, format="json").status_code == 400  # everyone, once
    assert api_as(lineup[1].user).put(url, {"players": [p.pk for p in lineup]}, format="json").status_code == 403
    services.draw_flight(actor=director_user, flight=flight, seed=1)
    services.confirm_draw(actor=director_user, flight=flight)
    services.release_draw(actor=director_user, flight=flight)
    (slot,) = ready(flight)
    side = "player_a_id" if slot.entry_a_id == team.pk else "player_b_id"
    assert [getattr(b.match, side) for b in boards_of(slot)] == [p.pk for p in new_order]
