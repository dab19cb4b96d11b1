"""Two results of one flight confirmed at once on PostgreSQL: neither waits for the other. Each counts a new
version of the flight (the bracket cache's key) by appending a FlightChange row; a counter on the flight row was
raised in the middle of every confirmation and held to its commit, so a flight's results queued on it.

The first result is held open inside its transaction after everything it wrote, until the second is done."""

import pytest

from ratings.services import pools
from tests.clubs.factories import ClubFactory, MembershipFactory
from tests.services.concurrency import second_while_first_is_held
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
    took = second_while_first_is_held(
        lambda: win(director, first), lambda: win(director, third), hold_seconds=HOLD_SECONDS
    )
    assert took < HOLD_SECONDS - 1  # done while the first still held everything it had written
    assert FlightChange.objects.filter(flight=flight).count() == before + 2  # both counted, none lost
    round_two = Slot.objects.filter(flight=flight, round=2).order_by("position")
    assert [(s.entry_a_id, s.entry_b_id) for s in round_two] == [
        (first.entry_a_id, None),
        (third.entry_a_id, None),
    ]
