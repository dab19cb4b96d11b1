"""Two phones entering the same game at once on PostgreSQL: the session row lock lets exactly one apply.

Each thread sends a real API request through its own database connection; each request is slowed down right
after it took the session row, so the two always overlap. Without the lock (last test) both read "next is
game 1" and only the database constraints stop the second insert (409 instead of a clean answer).
"""

import pytest
from django.core.exceptions import PermissionDenied

from chouette import services
from chouette.models import ChouetteSession, LedgerEntry, SessionEvent
from chouette.services import common
from tests.chouette.factories import table
from tests.clubs.factories import ClubFactory
from tests.services.concurrency import HoldUntilWaitedOn, post_at_once, run_at_once, then_wait

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def setting():
    session, players, director = table(ClubFactory())
    return session, players["A"].user, players["B"].user


@pytest.fixture
def slow_lock(monkeypatch):
    monkeypatch.setattr(common, "lock_session", then_wait(common.lock_session))


@pytest.fixture
def no_lock(monkeypatch):
    def read(session):
        return ChouetteSession.objects.select_related("club").get(pk=session.pk)

    monkeypatch.setattr(common, "lock_session", then_wait(read))


def simultaneously(*calls):
    """Send (user, path, body) POSTs at the same instant from separate threads; return the status codes."""
    return [status for status, _ in simultaneously_with_detail(*calls)]


def simultaneously_with_detail(*calls):
    return [(status, (body or {}).get("detail", "")) for status, body in post_at_once(*calls)]


def games_url(session):
    return f"/api/v1/chouette/sessions/{session.pk}/games/"


def test_two_phones_entering_game_one_at_once_apply_it_once(setting, slow_lock):
    session, user_a, user_b = setting
    answers = simultaneously_with_detail(
        (user_a, games_url(session), {"winner": "team", "expected_number": 1}),
        (user_b, games_url(session), {"winner": "box", "expected_number": 1}),
    )
    assert sorted(status for status, _ in answers) == [201, 409]
    assert any("Game 1 was already entered" in detail for _, detail in answers)  # the lock's refusal, not the DB's
    assert SessionEvent.objects.filter(session=session, kind="game").count() == 1
    assert LedgerEntry.objects.filter(session=session).count() == 4
    session.refresh_from_db()
    assert session.games_played == 1


def test_a_retried_entry_with_the_same_key_is_stored_once(setting, slow_lock):
    session, user_a, _ = setting
    body = {"winner": "team", "idempotency_key": "phone-7"}
    statuses = simultaneously((user_a, games_url(session), body), (user_a, games_url(session), body))
    assert sorted(statuses) == [200, 201]
    assert SessionEvent.objects.filter(session=session, kind="game").count() == 1


def test_undo_racing_a_new_game_never_leaves_the_ledger_out_of_step(setting, slow_lock):
    session, user_a, user_b = setting
    services.record_game(actor=user_a, session=session, game={"winner": "team"})
    statuses = simultaneously(
        (user_a, games_url(session) + "undo/", {"expected_number": 1}),
        (user_b, games_url(session), {"winner": "box", "expected_number": 2}),
    )
    # Serialised: either the undo went first (the new game is then game 1, not 2: 409) or the game went first
    # (the last game is then 2, not 1: 409). Exactly one of them applies.
    assert sorted(statuses) in ([200, 409], [201, 409])
    session.refresh_from_db()
    current = SessionEvent.objects.filter(session=session, kind="game", is_current=True).count()
    assert session.games_played == current
    assert LedgerEntry.objects.filter(session=session).count() == 4 * current


def test_two_games_sent_at_once_without_a_number_become_games_one_and_two(setting, slow_lock):
    session, user_a, user_b = setting
    statuses = simultaneously(
        (user_a, games_url(session), {"winner": "team"}), (user_b, games_url(session), {"winner": "box"})
    )
    assert statuses == [201, 201]
    numbers = SessionEvent.objects.filter(session=session, kind="game").values_list("game_number", flat=True)
    assert sorted(numbers) == [1, 2]
    session.refresh_from_db()
    assert session.games_played == 2 and LedgerEntry.objects.filter(session=session).count() == 8


def test_a_player_who_leaves_while_their_entry_waits_for_the_table_cannot_enter_it(monkeypatch):
    """The entry's checks before the lock pass (B still sits); the leave holds the table; the entry's seat check
    under the lock must then read the seats after the leave, not as they were when it began to wait."""
    session, players, _director = table(ClubFactory())
    leaver = players["B"]
    holding = HoldUntilWaitedOn(common.lock_to_play)
    monkeypatch.setattr(common, "lock_to_play", holding)  # the leave holds the table until the entry waits on it

    def leave():
        services.leave(actor=leaver.user, session=ChouetteSession.objects.get(pk=session.pk), player=leaver)

    def enter():
        assert holding.held.wait(20)  # the leave has the row and keeps it until this entry waits for it
        table_now = ChouetteSession.objects.get(pk=session.pk)
        return services.record_game(actor=leaver.user, session=table_now, game={"winner": "team"})

    left, entered = run_at_once(leave, enter)
    assert left is None and isinstance(entered, PermissionDenied), (left, entered)
    assert not SessionEvent.objects.filter(session=session, kind="game").exists()


def test_without_the_row_lock_the_race_reaches_the_database(setting, no_lock):
    session, user_a, user_b = setting
    answers = simultaneously_with_detail(
        (user_a, games_url(session), {"winner": "team"}), (user_b, games_url(session), {"winner": "box"})
    )
    # Both read "next is game 1"; only the unique constraints stop the second insert, and the caller gets the
    # database's 409 instead of the game being numbered 2 as the lock arranges.
    assert sorted(status for status, _ in answers) == [201, 409]
    assert any("stored at the same time" in detail for _, detail in answers)
    assert SessionEvent.objects.filter(session=session, kind="game").count() == 1
