"""Two directors tap "call next" at the same instant on PostgreSQL, with one free board and two waiting
matches: the event's board locks line them up, so one call is made and the other is told every board is taken.
The control takes the lock away: both then read the board as free, and only the database's one-open-call-per-
board constraint refuses the second."""

import pytest
from django.db import IntegrityError

from tests.clubs.factories import ClubFactory, MembershipFactory
from tests.services.concurrency import post_at_once, run_at_once, then_meet, then_wait
from tests.tournaments.builders import drawn_event
from tournaments.models import Board, Call
from tournaments.services import boards

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def one_board():
    club = ClubFactory()
    director = MembershipFactory(club=club, role="director").player.user
    event, _flights = drawn_event(club, director, 4)
    boards.set_boards(actor=director, event=event, count=1)
    return event, director


def test_two_taps_at_once_call_one_match_to_the_one_free_board(one_board, monkeypatch):
    event, director = one_board
    monkeypatch.setattr(boards, "_lock_boards", then_wait(boards._lock_boards))
    url = f"/api/v1/events/{event.club.slug}/{event.slug}/boards/call-next/"
    answers = post_at_once((director, url, {}), (director, url, {}))
    assert sorted(status for status, _ in answers) == [201, 409]
    assert next(body for status, body in answers if status == 409)["code"] == "no_free_board"
    assert Call.objects.filter(board__event=event).count() == 1


def test_without_the_lock_only_the_database_stops_a_second_match_on_the_board(one_board, monkeypatch):
    event, director = one_board
    monkeypatch.setattr(boards, "_lock_boards", then_meet(lambda event: list(Board.objects.filter(event=event))))
    results = run_at_once(
        lambda: boards.call_next(actor=director, event=event), lambda: boards.call_next(actor=director, event=event)
    )
    assert sum(isinstance(r, IntegrityError) for r in results) == 1
    assert Call.objects.filter(board__event=event).count() == 1
