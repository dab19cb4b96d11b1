"""A real Celery worker takes a pool's recompute tasks from Redis: asked twice, the pool is rebuilt once (the
second task finds nothing left to claim) and the numbers equal the step-by-step ratings. (Truly simultaneous
claims are proved with threads in test_ratings_recompute.py.)"""

import time

import pytest

from ratings.models import PlayerRating, RatedMatch, RatingPool
from ratings.tasks import recompute_rating_pool
from tests.clubs.factories import ClubFactory, MembershipFactory
from tests.ratings.builders import played
from tests.services.test_celery_worker import worker  # noqa: F401 - the shared real-worker fixture

pytestmark = [pytest.mark.services, pytest.mark.real_worker, pytest.mark.django_db(transaction=True)]


def test_a_worker_recomputes_a_pool_once_when_asked_twice(worker):  # noqa: F811
    queue, process = worker
    club = ClubFactory()
    director = MembershipFactory(club=club, role="director").player.user
    players = [MembershipFactory(club=club).player for _ in range(8)]
    for day in range(40):
        played(director, club, players[day % 8], players[(day * 3 + 1) % 8 or 2], day=day)
    pool = RatingPool.objects.get(club=club)
    step_by_step = sorted(PlayerRating.objects.filter(pool=pool).values_list("player_id", "rating"))
    RatingPool.objects.filter(pk=pool.pk).update(recompute_pending=True, recompute_from=None)
    for _ in range(2):
        recompute_rating_pool.apply_async(args=[pool.pk], queue=queue)
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline and RatingPool.objects.get(pk=pool.pk).recompute_count == 0:
        assert process.poll() is None, f"the worker died: {process.stdout.read()}"
        time.sleep(0.2)
    time.sleep(3)  # the solo worker takes the second task right after the first; it must find nothing to claim
    pool.refresh_from_db()
    assert pool.recompute_count == 1 and not pool.recompute_pending
    assert RatedMatch.objects.filter(pool=pool).count() == 40
    rebuilt = sorted(PlayerRating.objects.filter(pool=pool).values_list("player_id", "rating"))
    assert [p for p, _ in rebuilt] == [p for p, _ in step_by_step]
    assert [r for _, r in rebuilt] == pytest.approx([r for _, r in step_by_step])
