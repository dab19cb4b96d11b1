"""Two real Celery workers take the two recompute tasks of one pool from Redis at the same time: the pool is
rebuilt once (the other worker finds nothing left to claim) and the numbers equal the step-by-step ratings."""

import os
import subprocess
import sys
import time
import uuid

import pytest
from django.conf import settings

from ratings.models import PlayerRating, RatedMatch, RatingPool
from ratings.tasks import recompute_rating_pool
from tests.clubs.factories import ClubFactory, MembershipFactory
from tests.ratings.builders import played
from tests.services.test_celery_worker import database_url_for_test_db

pytestmark = [pytest.mark.services, pytest.mark.real_worker, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def two_workers():
    queue = f"test-ratings-{uuid.uuid4().hex[:8]}"
    env = {**os.environ, "DATABASE_URL": database_url_for_test_db(), "CELERY_BROKER_URL": settings.CELERY_BROKER_URL}
    processes = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "config",
                "worker",
                "--pool=solo",
                "-Q",
                queue,
                "--without-gossip",
                "--without-mingle",
                "--loglevel=warning",
                "-n",
                f"{queue}-{n}@%h",
            ],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )  # fmt: skip
        for n in range(2)
    ]
    yield queue, processes
    for process in processes:
        process.terminate()
    for process in processes:
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()


def test_two_workers_recompute_a_pool_once(two_workers):
    queue, processes = two_workers
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
        assert all(p.poll() is None for p in processes), "a worker died"
        time.sleep(0.2)
    time.sleep(3)  # time for the second task to be taken and find nothing to claim
    pool.refresh_from_db()
    assert pool.recompute_count == 1 and not pool.recompute_pending
    assert RatedMatch.objects.filter(pool=pool).count() == 40
    rebuilt = sorted(PlayerRating.objects.filter(pool=pool).values_list("player_id", "rating"))
    assert [p for p, _ in rebuilt] == [p for p, _ in step_by_step]
    assert [r for _, r in rebuilt] == pytest.approx([r for _, r in step_by_step])
