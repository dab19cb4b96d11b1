"""Directors' overrides at once on PostgreSQL: overrides on two different events of one club never wait for each
other (each event's rows are its own; the club's and the overall rating pools are asked for a recompute without
a row lock held to the end of the override), while two overrides on one event still line up.

The first override is held open at a barrier after everything it wrote (its row locks all taken) until the
second has finished: on two events the second completes meanwhile; were it to wait on a lock of the first, it
would still be waiting when the barrier gives up."""

import threading
import time

import pytest
from django.db import connection

from games.matchplay import services as match_services
from games.models.matches import Match
from ratings.models import RatingPool, RecomputeRequest
from tests.clubs.factories import ClubFactory, MembershipFactory
from tests.tournaments.builders import drawn_event, started_second_round
from tournaments import services
from tournaments.models import Slot

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

HOLD_SECONDS = 4  # well below LOCK_TIMEOUT_MS (5 s): a second override that waited would not finish in time


@pytest.fixture
def two_events():
    club = ClubFactory()
    director = MembershipFactory(club=club, role="director").player.user
    firsts = []
    for _ in range(2):
        _event, flights = drawn_event(club, director, 8)
        first, _later = started_second_round(director, flights["main"])
        firsts.append(first)
    return director, firsts


def override(director, slot):
    return services.override_result(
        actor=director, slot=slot, winner_side=1, scores=(1, slot.match.length), comment="Wrong score"
    )


def run_both(director, first, second, monkeypatch):
    """The first override held open (after its report and every hook it ran) until the second is done; returns
    the second's seconds and both outcomes (the slot, or the exception raised)."""
    holder_done, other_done = threading.Event(), threading.Event()
    holder: dict[str, int] = {}
    real = match_services.submit_report

    def submit(*args, **kwargs):
        result = real(*args, **kwargs)
        if threading.get_ident() == holder.get("thread"):
            holder_done.set()
            other_done.wait(timeout=HOLD_SECONDS)
        return result

    monkeypatch.setattr(match_services, "submit_report", submit)
    outcomes: dict[str, object] = {}
    took: dict[str, float] = {}

    def first_override():
        holder["thread"] = threading.get_ident()
        try:
            outcomes["first"] = override(director, first)
        except Exception as error:  # noqa: BLE001 - asserted by the tests
            outcomes["first"] = error
            holder_done.set()
        finally:
            connection.close()

    def second_override():
        holder_done.wait(timeout=30)
        start = time.perf_counter()
        try:
            outcomes["second"] = override(director, second)
        except Exception as error:  # noqa: BLE001 - asserted by the tests
            outcomes["second"] = error
        finally:
            took["second"] = time.perf_counter() - start
            other_done.set()
            connection.close()

    threads = [threading.Thread(target=first_override), threading.Thread(target=second_override)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return took["second"], outcomes


def test_overrides_on_two_events_do_not_wait_for_each_other(two_events, monkeypatch):
    director, (first, second) = two_events
    took, outcomes = run_both(director, first, second, monkeypatch)
    assert isinstance(outcomes["second"], Slot), outcomes["second"]
    assert took < HOLD_SECONDS - 1  # done while the first still held everything it had taken
    assert isinstance(outcomes["first"], Slot), outcomes["first"]
    for slot in (first, second):
        slot.refresh_from_db()
        assert slot.winner_id == slot.entry_b_id  # both overrides stand
        later = Slot.objects.get(flight=slot.flight, round=2, position=0)
        assert later.entry_a_id == slot.entry_b_id and later.result == "ready"
    assert Match.objects.filter(outcome="annulled").count() == 2  # each voided its own round-2 match
    # each override's recompute requests were folded into the pools after its commit and recomputed
    assert not RecomputeRequest.objects.exists()
    assert not RatingPool.objects.filter(recompute_pending=True).exists()


def test_two_overrides_on_one_event_line_up_and_both_stand(two_events, monkeypatch):
    director, (first, _other) = two_events
    second = Slot.objects.select_related("match").get(flight=first.flight, round=1, position=1)
    took, outcomes = run_both(director, first, second, monkeypatch)
    # the second waited for the first's slot rows (the round-2 slot both feed) and went on once it committed
    assert took >= HOLD_SECONDS - 1
    assert all(isinstance(outcome, Slot) for outcome in outcomes.values()), outcomes
    later = Slot.objects.get(flight=first.flight, round=2, position=0)
    assert (later.entry_a_id, later.entry_b_id) == (first.entry_b_id, second.entry_b_id)
