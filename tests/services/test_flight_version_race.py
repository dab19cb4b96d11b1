"""Two results of one flight confirmed at once on PostgreSQL: neither waits for the other. Each counts a new
version of the flight (the bracket cache's key) by appending a FlightChange row; a counter on the flight row was
raised in the middle of every confirmation and held to its commit, so a flight's results queued on it.

The first result is held open inside its transaction after everything it wrote, until the second is done."""

import threading
import time

import pytest
from django.db import connection, transaction

from ratings.services import pools
from tests.clubs.factories import ClubFactory, MembershipFactory
from tests.tournaments.builders import drawn_event, ready_slots, win
from tournaments.models import FlightChange, Slot

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

HOLD_SECONDS = 4  # below LOCK_TIMEOUT_MS (5 s): a second result that waited would not finish in time


def test_two_results_of_one_flight_do_not_wait_for_each_other_and_both_count_a_version():
    club = ClubFactory()
    director = MembershipFactory(club=club, role="director").player.user
    flight = drawn_event(club, director, 8)[1]["main"]
    pools.overall_pool(), pools.club_pool(club.pk)  # a site's pools exist before its results
    first, _second, third, _fourth = ready_slots(flight)  # 0 and 2 feed different round-2 slots
    before = FlightChange.objects.filter(flight=flight).count()
    held, done = threading.Event(), threading.Event()
    took: dict[str, float] = {}
    errors: list[BaseException] = []

    def hold_first():
        try:
            with transaction.atomic():
                win(director, first)
                held.set()
                done.wait(timeout=HOLD_SECONDS)
        except BaseException as error:  # noqa: BLE001 - asserted below
            errors.append(error)
            held.set()
        finally:
            connection.close()

    def confirm_other():
        held.wait(timeout=30)
        start = time.perf_counter()
        try:
            win(director, third)
        except BaseException as error:  # noqa: BLE001 - asserted below
            errors.append(error)
        finally:
            took["other"] = time.perf_counter() - start
            done.set()
            connection.close()

    threads = [threading.Thread(target=hold_first), threading.Thread(target=confirm_other)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not errors, errors
    assert took["other"] < HOLD_SECONDS - 1  # done while the first still held everything it had written
    assert FlightChange.objects.filter(flight=flight).count() == before + 2  # both counted, none lost
    round_two = Slot.objects.filter(flight=flight, round=2).order_by("position")
    assert [(s.entry_a_id, s.entry_b_id) for s in round_two] == [
        (first.entry_a_id, None),
        (third.entry_a_id, None),
    ]
