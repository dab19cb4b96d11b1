"""Two directors at the counter record the same entry's payment at the same instant, on PostgreSQL: it is
recorded once. Both saw the entry with no payment (`seen` 0); the flight's row lock serialises them, the second
then finds a line it did not see and is refused 409 `payment_changed`. The control sends no `seen`: both are
recorded, which is what the check prevents."""

import pytest

from tests.clubs.factories import ClubFactory, MembershipFactory
from tests.services.concurrency import post_at_once, then_wait
from tests.tournaments.builders import make_event, members
from tournaments import services
from tournaments.models import EntryPayment
from tournaments.services import fees as fee_services

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def counter(monkeypatch):
    club = ClubFactory()
    directors = [MembershipFactory(club=club, role="director").player.user for _ in range(2)]
    event = make_event(club, directors[0])
    flight = services.add_flight(actor=directors[0], event=event, name="Main", entry_fee=20)
    entry = services.register(actor=directors[0], flight=flight, player=members(club, 1)[0])
    monkeypatch.setattr(fee_services, "lock_flight", then_wait(fee_services.lock_flight))
    path = f"/api/v1/events/{club.slug}/{event.slug}/flights/{flight.slug}/entries/{entry.pk}/payments/"
    return directors, path, entry


def test_the_same_payment_recorded_by_two_directors_at_once_is_recorded_once(counter):
    directors, path, entry = counter
    body = {"method": "cash", "amount": "20.00", "seen": 0}
    answers = post_at_once(*((director, path, body) for director in directors))
    assert sorted(status for status, _ in answers) == [201, 409]
    assert next(body for status, body in answers if status == 409)["code"] == "payment_changed"
    assert EntryPayment.objects.filter(entry=entry).count() == 1


def test_control_without_what_the_director_saw_both_are_recorded(counter):
    directors, path, entry = counter
    body = {"method": "cash", "amount": "20.00"}
    answers = post_at_once(*((director, path, body) for director in directors))
    assert [status for status, _ in answers] == [201, 201]
    assert list(EntryPayment.objects.filter(entry=entry).values_list("seq", flat=True).order_by("seq")) == [1, 2]
