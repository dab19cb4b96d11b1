"""base.locks: a row lock outside a transaction is refused at once, one taken out of the documented order within a
transaction is refused (in the tests, as in DEBUG), and every row lock of the apps goes through it. The lock
timeout itself needs PostgreSQL: tests/services/test_lock_timeout.py."""

from contextlib import nullcontext
from pathlib import Path

import pytest
from django.apps import apps
from django.db import transaction

from base import locks
from base.locks import LockError, lock
from chouette.models import ChouetteSession
from chouette.services import common as chouette_services
from clubs.models import Club
from games.models import Match
from ratings.models import EventPoints, PointsAward, RatingPool
from tests.chouette.factories import table
from tournaments.models import Flight, Slot

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.django_db(transaction=True)
def test_a_lock_outside_a_transaction_is_refused_at_once(club):
    session, _players, _director = table(club)
    with pytest.raises(LockError, match="outside a transaction"):
        chouette_services.lock_session(session)
    with transaction.atomic():
        assert chouette_services.lock_session(session) == session


@pytest.mark.django_db(transaction=True)
def test_locks_out_of_order_in_one_transaction_are_refused_and_the_next_transaction_starts_afresh():
    with transaction.atomic():
        list(lock(RatingPool.objects))
        with pytest.raises(LockError, match="tournaments.Flight locked after ratings.RatingPool"):
            lock(Flight.objects, of=("self",))
    with transaction.atomic():  # a new transaction: nothing is held any more
        list(lock(Flight.objects, of=("self",)))
        list(lock(RatingPool.objects))


@pytest.mark.django_db
def test_in_a_test_case_each_service_transaction_is_checked_on_its_own():
    """The test's own atomic block stays open around every call; the order is per call, as in production."""
    with transaction.atomic():
        list(lock(RatingPool.objects))
    with transaction.atomic():
        list(lock(Flight.objects))
        list(lock(Match.objects))
        nested = transaction.atomic()  # a nested block is part of the same transaction
        with nested, pytest.raises(LockError, match="clubs.Club locked after games.Match, tournaments.Flight"):
            lock(Club.objects)


@pytest.mark.django_db
def test_more_rows_of_a_model_already_locked_and_the_known_inversions_are_allowed():
    with transaction.atomic():
        list(lock(ChouetteSession.objects))
        list(lock(Match.objects))
        list(lock(RatingPool.objects))
        list(lock(Match.objects))  # more matches: the model is held already
    with transaction.atomic():
        list(lock(Slot.objects))
        list(lock(Match.objects))  # clearing a slot annuls its match
    with transaction.atomic():
        list(lock(RatingPool.objects))
        list(lock(EventPoints.objects))  # an override unrates the voided results before the points


@pytest.mark.django_db
def test_a_model_without_a_place_in_the_order_is_refused():
    with transaction.atomic(), pytest.raises(LockError, match="not in base.locks.LOCK_ORDER"):
        lock(PointsAward.objects)


@pytest.mark.django_db
def test_without_the_check_the_order_is_not_enforced(settings):
    settings.LOCK_ORDER_CHECK = False
    with transaction.atomic():
        list(lock(RatingPool.objects))
        list(lock(Flight.objects))


@pytest.mark.parametrize("inside", [nullcontext, transaction.atomic], ids=["alone", "inside-a-transaction"])
@pytest.mark.django_db(transaction=True)
def test_a_batch_checks_each_service_call_on_its_own_but_not_a_reversal_within_one(inside):
    """The demo loader's batch, on its own or inside a transaction a fixture opened around it."""
    with inside(), locks.batch():
        with transaction.atomic():
            list(lock(RatingPool.objects))
        with transaction.atomic():
            list(lock(Flight.objects))
            with pytest.raises(LockError):
                lock(Club.objects)
    with pytest.raises(LockError, match="outside a transaction"):
        lock(Club.objects)  # the batch was a transaction, and it is over


def test_the_order_names_real_models_and_the_inversions_name_models_in_it():
    for label in locks.LOCK_ORDER:
        apps.get_model(label)
    for held, then in locks.KNOWN_INVERSIONS:
        assert locks.LOCK_ORDER.index(held) > locks.LOCK_ORDER.index(then)


def test_every_row_lock_in_the_apps_goes_through_base_locks():
    """One way to lock: a select_for_update of its own would skip the transaction check, the timeout and the
    order (the tests keep theirs, to hold rows or take a lock away)."""
    skipped = {".venv", "tests", "node_modules", "migrations"}
    own = [
        path.relative_to(ROOT).as_posix()
        for path in ROOT.rglob("*.py")
        if not skipped & set(path.relative_to(ROOT).parts)
        and path != ROOT / "base" / "locks.py"
        and "select_for_update" in path.read_text(encoding="utf-8")
    ]
    assert own == []
