"""Recomputes and incremental ratings on PostgreSQL with truly simultaneous workers.

Two recomputes requested at once run once: the claim is an UPDATE … WHERE recompute_pending that holds the pool
row until the recompute commits, so the second worker waits and then finds nothing to claim. Two results
confirmed at once in one pool are rated one after the other (pool row lock), so the numbers equal a replay.
"""


import pytest

from ratings.models import PlayerRating, RatedMatch, RatingPool
from ratings.services import pools as services
from tests.clubs.factories import ClubFactory, MembershipFactory
from tests.ratings.builders import played
from tests.services.concurrency import run_at_once, then_wait

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]



@pytest.fixture
def rated_club():
    club = ClubFactory()
    director = MembershipFactory(club=club, role="director").player.user
    players = [MembershipFactory(club=club).player for _ in range(6)]
    for day in range(12):
        played(director, club, players[day % 6], players[(day + 1 + day // 6) % 6], day=day, length=5)
    return club, director, players


@pytest.fixture
def slow_rebuild(monkeypatch):
    monkeypatch.setattr(services, "rebuild", then_wait(services.rebuild))


def snapshot(pool):
    return sorted(PlayerRating.objects.filter(pool=pool).values_list("player_id", "rating", "experience"))


def test_two_recomputes_requested_at_once_run_once(rated_club, slow_rebuild):
    club, _director, _players = rated_club
    pool = RatingPool.objects.get(club=club)
    before = snapshot(pool)
    RatingPool.objects.filter(pk=pool.pk).update(recompute_pending=True, recompute_from=None)
    results = run_at_once(
        lambda: services.recompute_pool(pool_id=pool.pk), lambda: services.recompute_pool(pool_id=pool.pk)
    )
    assert sorted(results) == [False, True]
    pool.refresh_from_db()
    assert pool.recompute_count == 1 and not pool.recompute_pending
    assert RatedMatch.objects.filter(pool=pool).count() == 12
    after = snapshot(pool)
    assert [row[0] for row in after] == [row[0] for row in before]
    assert [row[1] for row in after] == pytest.approx([row[1] for row in before])


def test_without_the_claim_both_workers_would_run(rated_club, slow_rebuild, monkeypatch):
    """Control: a claim that does not check recompute_pending lets both run the same work."""
    club, _director, _players = rated_club
    pool = RatingPool.objects.get(club=club)
    RatingPool.objects.filter(pk=pool.pk).update(recompute_pending=True)
    original = RatingPool.objects.filter

    def claim_without_condition(*args, **kwargs):
        kwargs.pop("recompute_pending", None)
        return original(*args, **kwargs)

    monkeypatch.setattr(RatingPool.objects, "filter", claim_without_condition)
    results = run_at_once(
        lambda: services.recompute_pool(pool_id=pool.pk), lambda: services.recompute_pool(pool_id=pool.pk)
    )
    monkeypatch.undo()
    assert results == [True, True]
    assert RatingPool.objects.get(pk=pool.pk).recompute_count == 2


def test_two_results_confirmed_at_once_are_rated_one_after_the_other(monkeypatch):
    club = ClubFactory()
    director = MembershipFactory(club=club, role="director").player.user
    shared, left, right = (MembershipFactory(club=club).player for _ in range(3))
    monkeypatch.setattr(services, "_rate_one", then_wait(services._rate_one))
    results = run_at_once(
        lambda: played(director, club, shared, left, day=1), lambda: played(director, club, shared, right, day=2)
    )
    assert not any(isinstance(r, Exception) for r in results), results
    pool = RatingPool.objects.get(club=club)
    incremental = snapshot(pool)
    assert {p: e for p, _r, e in incremental}[shared.pk] == 10  # both matches counted for the shared player
    # If the later-dated match was confirmed first, the earlier one already asked for a recompute (count 1).
    ran_before = RatingPool.objects.get(pk=pool.pk).recompute_count
    services.request_recompute(pool=pool, since=None)  # commits, so the (eager) task runs at once
    assert RatingPool.objects.get(pk=pool.pk).recompute_count == ran_before + 1
    replayed = snapshot(pool)
    assert [r[1] for r in replayed] == pytest.approx([r[1] for r in incremental])
