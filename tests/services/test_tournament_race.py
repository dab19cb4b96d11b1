"""Simultaneous confirmations in a bracket on PostgreSQL: the winner moves on once, and two matches feeding
one later slot both land in it with exactly one match created for it.

Each thread sends a real API request through its own connection; every request is slowed down right after it
took a slot row lock so they overlap. The last test takes the lock away and shows the race then loses a player.
"""


import pytest

from games.matchplay import services as match_services
from games.models.matches import Match
from tests.clubs.factories import ClubFactory, MembershipFactory
from tests.services.concurrency import post_at_once, then_wait
from tests.tournaments.builders import drawn_event, ready_slots
from tournaments import services
from tournaments.models import Slot

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]



@pytest.fixture
def bracket():
    club = ClubFactory()
    director = MembershipFactory(club=club, role="director").player.user
    event, flights = drawn_event(club, director, 8)
    return flights["main"], director


@pytest.fixture
def slow_slot_lock(monkeypatch):
    monkeypatch.setattr(services.BracketStore, "_slot", then_wait(services.BracketStore._slot))


@pytest.fixture
def no_slot_lock(monkeypatch):
    def read(self, flight, key):
        return Slot.objects.select_related("entry_a", "entry_b").get(
            flight=flight, section=key.section, round=key.round, position=key.position
        )

    monkeypatch.setattr(services.BracketStore, "_slot", then_wait(read))


def simultaneously(*calls):
    return [status for status, _body in post_at_once(*calls)]


def reported(slot):
    """Player A reports a win; returns the match and its version for the confirmations."""
    match = slot.match
    report, _ = match_services.submit_report(
        actor=slot.entry_a.player.user, match=match, method="final_score", scores=(match.length, 0)
    )
    return match, report.version


def test_two_confirmations_of_one_match_move_the_winner_once(bracket, slow_slot_lock):
    flight, director = bracket
    slot = ready_slots(flight)[0]
    match, version = reported(slot)
    confirm = f"/api/v1/matches/{match.pk}/confirm/"
    statuses = simultaneously(
        (slot.entry_b.player.user, confirm, {"version": version}), (director, confirm, {"version": version})
    )
    assert statuses == [200, 200]
    nxt = Slot.objects.get(flight=flight, round=2, position=0)
    assert nxt.entry_a_id == slot.entry_a_id
    assert flight.event.flights.get(pk=flight.pk).entries.filter(place__isnull=False).count() == 1


def test_two_matches_feeding_one_slot_both_arrive_and_it_gets_one_match(bracket, slow_slot_lock):
    flight, director = bracket
    first, second = ready_slots(flight)[:2]
    (m1, v1), (m2, v2) = reported(first), reported(second)
    statuses = simultaneously(
        (first.entry_b.player.user, f"/api/v1/matches/{m1.pk}/confirm/", {"version": v1}),
        (second.entry_b.player.user, f"/api/v1/matches/{m2.pk}/confirm/", {"version": v2}),
    )
    assert statuses == [200, 200]
    nxt = Slot.objects.get(flight=flight, round=2, position=0)
    assert (nxt.entry_a_id, nxt.entry_b_id) == (first.entry_a_id, second.entry_a_id)
    assert nxt.result == "ready" and nxt.match_id is not None
    players = {first.entry_a.player_id, second.entry_a.player_id}
    assert Match.objects.filter(player_a_id__in=players, player_b_id__in=players).count() == 1


def test_without_the_slot_lock_one_of_the_two_winners_is_lost(bracket, no_slot_lock):
    flight, director = bracket
    first, second = ready_slots(flight)[:2]
    (m1, v1), (m2, v2) = reported(first), reported(second)
    simultaneously(
        (first.entry_b.player.user, f"/api/v1/matches/{m1.pk}/confirm/", {"version": v1}),
        (second.entry_b.player.user, f"/api/v1/matches/{m2.pk}/confirm/", {"version": v2}),
    )
    nxt = Slot.objects.get(flight=flight, round=2, position=0)
    # each request wrote its side over a row read before the other's write: one winner is gone
    assert nxt.entry_a_id is None or nxt.entry_b_id is None
