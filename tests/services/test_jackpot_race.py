"""Two sign-ups to a jackpot at once on PostgreSQL: the pod they complete is filled once and never holds more
than its size. The sign-ups run under the event's and the jackpot flight's row locks; the control takes the locks
away and shows two requests then both count the same waiting list and start a pod each (one of them is refused)."""

import pytest

from tests.clubs.factories import ClubFactory, MembershipFactory
from tests.services.concurrency import post_at_once, then_meet, then_wait
from tests.tournaments.builders import make_event
from tournaments import services
from tournaments.models import Entry, Flight
from tournaments.services import entries as entry_services

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def jackpot():
    """A jackpot with pods of 4 and three players waiting; two more members about to sign up themselves."""
    club = ClubFactory()
    director = MembershipFactory(club=club, role="director").player.user
    event = make_event(club, director)
    flight = services.add_flight(actor=director, event=event, name="Jackpot", kind="jackpot", pod_size=4)
    for _ in range(3):
        services.register(actor=director, flight=flight, player=MembershipFactory(club=club).player)
    late = [MembershipFactory(club=club).player.user for _ in range(2)]
    url = f"/api/v1/events/{club.slug}/{event.slug}/flights/{flight.slug}/entries/"
    return flight, late, url


def test_two_sign_ups_at_once_fill_one_pod_of_four_and_one_waits(jackpot, monkeypatch):
    flight, (first, second), url = jackpot
    monkeypatch.setattr(entry_services, "lock_places", then_wait(entry_services.lock_places))
    statuses = [status for status, _body in post_at_once((first, url, {}), (second, url, {}))]
    assert statuses == [201, 201]
    pods = Flight.objects.filter(source=flight)
    assert pods.count() == 1
    assert pods.get().entries.count() == 4
    assert Entry.objects.filter(flight=flight).count() == 1  # the fifth waits for the next pod


def test_without_the_lock_both_sign_ups_start_a_pod_and_one_fails(jackpot, monkeypatch):
    flight, (first, second), url = jackpot

    def unlocked(f):
        return Flight.objects.select_related("event__club").get(pk=f.pk)

    monkeypatch.setattr(entry_services, "lock_places", then_meet(unlocked))
    statuses = [status for status, _body in post_at_once((first, url, {}), (second, url, {}))]
    # both counted the same waiting list and started "pod 1": the second collides with the first (a sign-up
    # refused through no fault of the player's) or, named apart, the list would fill two pods
    assert statuses != [201, 201] or Flight.objects.filter(source=flight).count() == 2
