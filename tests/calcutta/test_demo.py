"""The demo: a settled Calcutta on the finished event's main flight, and nothing new on a second run."""

from types import SimpleNamespace

import pytest

from calcutta import demo
from calcutta.models import Bid, Calcutta, CalcuttaStatus, Holding, Settlement
from tests.calcutta.rows import make_flight, place
from tournaments.models import Entry, Flight

pytestmark = pytest.mark.django_db

SIXTEEN = [f"Player {chr(65 + n)}" for n in range(16)]


@pytest.fixture
def finished_event(club):
    main = make_flight(club, names=SIXTEEN)
    consolation = Flight.objects.create(event=main.event, kind="consolation", name="Consolation", slug="consolation")
    losers = [entry.player for entry in main.entries.order_by("pk")][8:]
    for player in losers:
        Entry.objects.create(flight=consolation, player=player, place=None if player == losers[0] else 2)
    return main.event


def finish(event):
    main, consolation = event.flights.get(kind="main"), event.flights.get(kind="consolation")
    place(main, dict(zip(SIXTEEN, [1, 2, 3, 3, 5, 5, 5, 5] + [9] * 8, strict=True)))
    consolation.entries.filter(place=None).update(place=1)


def test_the_demo_sells_the_calcutta_before_play_and_settles_it_once_the_event_is_finished(
    finished_event, director_user
):
    players = [entry.player for entry in finished_event.flights.get(kind="main").entries.order_by("pk")]
    context = SimpleNamespace(finished_event=finished_event, director=director_user, players=players[:6], lines=[])
    demo.auction(context, finished_event, finished_event.flights.get(kind="main"))  # after the draw, before play
    finish(finished_event)
    demo.load(context)
    calcutta = Calcutta.objects.get(flight__event=finished_event)
    assert calcutta.status == CalcuttaStatus.SETTLED
    settlement = Settlement.objects.get(calcutta=calcutta, is_current=True)
    assert sum(p.amount for p in settlement.payouts.all()) + settlement.unclaimed == settlement.net_pool
    assert sorted(calcutta.ownership_changes.values_list("kind", flat=True)) == ["buy_back", "syndicate"]
    counts = (Bid.objects.count(), Holding.objects.count(), Settlement.objects.count())
    demo.load(context)
    assert (Bid.objects.count(), Holding.objects.count(), Settlement.objects.count()) == counts
    assert Calcutta.objects.count() == 1
    assert "settlement /calcuttas/" in context.lines[-1]


def test_the_demo_sells_no_calcutta_on_an_event_already_played(finished_event, director_user):
    finish(finished_event)
    context = SimpleNamespace(finished_event=finished_event, director=director_user, players=[], lines=[])
    demo.load(context)
    assert "played before a Calcutta was sold" in context.lines[0] and not Calcutta.objects.exists()


def test_the_demo_skips_without_a_finished_event(db):
    context = SimpleNamespace(director=None, players=[], lines=[])
    demo.load(context)
    assert "skipped" in context.lines[0] and not Calcutta.objects.exists()
