"""A real Celery worker takes a pool's recompute tasks from Redis: asked twice, the pool is rebuilt once (the
second task finds nothing left to claim) and the numbers equal the step-by-step ratings. (Truly simultaneous
claims are proved with threads in test_ratings_recompute.py.)"""

import pytest

from base.models import WorkerHeartbeat
from base.tasks import heartbeat
from ratings.models import PlayerRating, RatedMatch, RatingPool
from ratings.tasks import recompute_rating_pool
from tests.clubs.factories import ClubFactory, MembershipFactory
from tests.ratings.builders import played
from tests.services.worker import wait_for, worker  # noqa: F401 - the real-worker fixture

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
    # The solo worker takes its queue in order: once this heartbeat is stored, both recompute tasks have run.
    heartbeat.apply_async(kwargs={"worker": "after-recomputes"}, queue=queue)
    wait_for(
        lambda: WorkerHeartbeat.objects.filter(worker="after-recomputes").exists(),
        process,
        seconds=90,
        what="heartbeat after the two recompute tasks",
    )
    pool.refresh_from_db()
    assert pool.recompute_count == 1 and not pool.recompute_pending
    assert RatedMatch.objects.filter(pool=pool).count() == 40
    rebuilt = sorted(PlayerRating.objects.filter(pool=pool).values_list("player_id", "rating"))
    assert [p for p, _ in rebuilt] == [p for p, _ in step_by_step]
    assert [r for _, r in rebuilt] == pytest.approx([r for _, r in step_by_step])
