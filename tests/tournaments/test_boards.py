"""Boards and match calling through the services, as a tournament day runs: auto-call, the director's taps,
and lateness counted from the call."""

from __future__ import annotations

import datetime
import random

import pytest
from django.db import IntegrityError, transaction

from base.api import Conflict
from tournaments import hooks, selectors, services
from tournaments.models import Board, Call, Slot, SlotResult
from tournaments.services import boards

from .builders import drawn_event, make_event, members, ready_slots, win

pytestmark = pytest.mark.django_db


@pytest.fixture
def called():
    """Every (match, board number) match_called told its subscribers (a match merely ready, board None, is told
    too, for the notifications; this list holds the calls to boards)."""
    heard = []

    def listen(match, board):
        if board is not None:
            heard.append((match.pk, board.number))

    hooks.on_match_called(listen)
    yield heard
    hooks.remove_match_called_callback(listen)


def _undecided_calls(event):
    return list(
        Call.objects.filter(board__event=event, slot__result=SlotResult.READY).select_related(
            "slot__entry_a", "slot__entry_b", "board"
        )
    )


def _check_no_one_twice(event):
    calls = _undecided_calls(event)
    players = [p for c in calls for p in (c.slot.entry_a.player_id, c.slot.entry_b.player_id)]
    assert len(players) == len(set(players)), "a player is called to two matches at once"
    open_boards = list(Call.objects.filter(board__event=event, freed_at__isnull=True).values_list("board", flat=True))
    assert len(open_boards) == len(set(open_boards)), "a board holds two matches"
    return calls


def test_a_64_player_day_runs_to_the_end_on_16_boards_with_auto_call(
    club, director_user, called, django_capture_on_commit_callbacks
):
    event, flights = drawn_event(club, director_user, 64, consolation={"feed_rule": "first_played"})
    boards.set_boards(actor=director_user, event=event, count=16, tags={1: ["step-free"], 2: ["clock"]})
    rnd = random.Random(3)
    with django_capture_on_commit_callbacks(execute=True):
        first = boards.set_auto_call(actor=director_user, event=event, on=True)
    assert len(first) == 16  # 32 round-1 matches wait: every board is called at once
    most_at_once = 0
    while True:
        calls = _check_no_one_twice(event)
        most_at_once = max(most_at_once, len(calls))
        if not calls:
            break
        slot = Slot.objects.select_related("match").get(pk=rnd.choice(calls).slot_id)
        with django_capture_on_commit_callbacks(execute=True):
            win(director_user, slot, rnd.choice((0, 1)))
    played = Slot.objects.filter(flight__event=event, match__isnull=False)
    assert played.count() == 63 + 31  # the main and its linked consolation, every match played
    assert not played.exclude(result=SlotResult.PLAYED).exists()
    assert Call.objects.filter(board__event=event).count() == played.count()  # each called exactly once
    assert sorted(m for m, _ in called) == sorted(played.values_list("match_id", flat=True))
    assert most_at_once == 16
    assert not Call.objects.filter(freed_at__isnull=True).exists()  # every board freed at the end
    for name in ("main", "cons"):
        flights[name].refresh_from_db()
        assert flights[name].status == "finished"


def test_a_player_in_two_flights_is_called_to_one_board_at_a_time(club, director_user):
    event = make_event(club, director_user)
    players = members(club, 2)
    for name in ("Main", "Doubles cube"):
        flight = services.add_flight(actor=director_user, event=event, name=name)
        for player in players:
            services.register(actor=director_user, flight=flight, player=player)
        services.draw_flight(actor=director_user, flight=flight, seed=1)
        services.confirm_draw(actor=director_user, flight=flight)
        services.release_draw(actor=director_user, flight=flight)
    boards.set_boards(actor=director_user, event=event, count=4)
    first = boards.call_next(actor=director_user, event=event)
    with pytest.raises(Conflict) as refused:
        boards.call_next(actor=director_user, event=event)
    assert refused.value.get_codes() == "nothing_to_call"
    win(director_user, Slot.objects.select_related("match").get(pk=first.slot_id))
    second = boards.call_next(actor=director_user, event=event)
    assert second.slot.flight_id != first.slot.flight_id
    assert second.board.number == 1  # the first board was freed by the result


def test_the_director_calls_moves_and_frees(club, director_user, called, django_capture_on_commit_callbacks):
    event, flights = drawn_event(club, director_user, 8)
    boards.set_boards(actor=director_user, event=event, count=2)
    with django_capture_on_commit_callbacks(execute=True):
        one = boards.call_next(actor=director_user, event=event)
        two = boards.call_next(actor=director_user, event=event)
    assert (one.board.number, two.board.number) == (1, 2)
    with pytest.raises(Conflict) as refused:
        boards.call_next(actor=director_user, event=event)
    assert refused.value.get_codes() == "no_free_board"
    with pytest.raises(Conflict):
        boards.move_call(actor=director_user, call=one, board=two.board)
    boards.free_board(actor=director_user, board=two.board)
    with django_capture_on_commit_callbacks(execute=True):
        moved = boards.move_call(actor=director_user, call=one, board=two.board)
    assert moved.board.number == 2
    assert called[-1] == (one.slot.match_id, 2)  # the players are told the new board
    three = boards.call_next(actor=director_user, event=event)
    assert three.board.number == 1
    with pytest.raises(IntegrityError), transaction.atomic():  # the database keeps one match per board
        Call.objects.create(slot=ready_slots(flights["main"])[-1], board=three.board, called_at=three.called_at)


def test_the_called_match_waits_longest(club, director_user):
    event, flights = drawn_event(club, director_user, 8)
    boards.set_boards(actor=director_user, event=event, count=1)
    oldest = min(ready_slots(flights["main"]), key=lambda s: (s.match.created_at, s.pk))
    assert boards.call_next(actor=director_user, event=event).slot_id == oldest.pk


def test_lateness_is_shown_after_the_grace_period_and_applied_with_one_action(club, director_user):
    event, _flights = drawn_event(club, director_user, 4)
    boards.set_boards(actor=director_user, event=event, count=1)
    call = boards.call_next(actor=director_user, event=event)
    assert selectors.lateness_due(call) == 0
    with pytest.raises(Conflict) as refused:
        boards.apply_lateness(actor=director_user, call=call, late_side=1)
    assert refused.value.get_codes() == "within_grace"
    Call.objects.filter(pk=call.pk).update(called_at=call.called_at - datetime.timedelta(minutes=11))
    call.refresh_from_db()
    assert selectors.lateness_due(call) == 2  # one point after 5 minutes, one more after 10
    match = boards.apply_lateness(actor=director_user, call=call, late_side=1)
    assert (match.penalty_a, match.penalty_b) == (0, 2)
    with pytest.raises(Conflict) as again:
        boards.apply_lateness(actor=director_user, call=call, late_side=1)
    assert again.value.get_codes() == "lateness_applied"


def test_only_a_director_calls(club, director_user, member_user):
    event, _flights = drawn_event(club, director_user, 4)
    boards.set_boards(actor=director_user, event=event, count=1)
    with pytest.raises(Exception, match="director"):
        boards.call_next(actor=member_user, event=event)
    assert not Call.objects.exists()
    assert Board.objects.filter(event=event).count() == 1


def test_auto_call_calls_the_first_round_when_the_draw_is_released(club, director_user):
    event = make_event(club, director_user)
    flight = services.add_flight(actor=director_user, event=event, name="Main")
    for player in members(club, 6):
        services.register(actor=director_user, flight=flight, player=player)
    boards.set_boards(actor=director_user, event=event, count=4)
    boards.set_auto_call(actor=director_user, event=event, on=True)
    services.draw_flight(actor=director_user, flight=flight, seed=3)
    services.confirm_draw(actor=director_user, flight=flight)
    services.release_draw(actor=director_user, flight=flight)
    assert Call.objects.filter(board__event=event).count() == 2  # 6 players in a bracket of 8: two byes


def test_an_override_that_replays_a_called_match_sends_the_new_match_to_the_queue(club, director_user):
    from tests.tournaments.builders import started_second_round

    event, flights = drawn_event(club, director_user, 8)
    boards.set_boards(actor=director_user, event=event, count=8)
    boards.set_auto_call(actor=director_user, event=event, on=True)
    first, later = started_second_round(director_user, flights["main"])
    old_match = later.match_id
    assert Call.objects.get(slot=later).match_id == old_match
    services.override_result(actor=director_user, slot=first, winner_side=1, outcome="forfeit", comment="Wrong")
    later.refresh_from_db()
    assert later.match_id != old_match and later.result == "ready"
    assert Call.objects.get(slot=later).match_id == later.match_id  # called again: auto-call is on


def test_lateness_past_half_the_length_forfeits_and_frees_the_board(club, director_user):
    event, _flights = drawn_event(club, director_user, 4)
    boards.set_boards(actor=director_user, event=event, count=1)
    boards.set_auto_call(actor=director_user, event=event, on=True)
    call = Call.objects.get(board__event=event)
    Call.objects.filter(pk=call.pk).update(called_at=call.called_at - datetime.timedelta(minutes=21))
    call.refresh_from_db()
    assert selectors.lateness_due(call) == 4  # more than half of 7 points
    match = boards.apply_lateness(actor=director_user, call=call, late_side=0)
    assert match.outcome == "forfeit"
    call.refresh_from_db()
    assert call.freed_at is not None
    assert Call.objects.filter(board__event=event, freed_at__isnull=True).count() == 1  # the next match is on
