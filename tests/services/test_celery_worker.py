"""A real Celery worker process takes a task from Redis and writes its result to PostgreSQL."""

import pytest

from base.models import WorkerHeartbeat
from base.tasks import heartbeat
from tests.services.worker import wait_for, worker  # noqa: F401 - the real-worker fixture

pytestmark = [pytest.mark.services, pytest.mark.real_worker, pytest.mark.django_db(transaction=True)]


def test_worker_runs_task_from_redis_and_writes_to_postgres(worker):  # noqa: F811
    queue, process = worker
    heartbeat.apply_async(kwargs={"worker": "ci-probe"}, queue=queue)
    beat = wait_for(
        lambda: WorkerHeartbeat.objects.filter(worker="ci-probe").first(), process, seconds=60, what="heartbeat row"
    )
    assert beat.beats == 1
