"""A real Celery worker process takes a task from Redis and writes its result to PostgreSQL."""

import os
import subprocess
import sys
import time
import uuid

import pytest
from django.conf import settings
from django.db import connection

from core.models import WorkerHeartbeat
from core.tasks import heartbeat

pytestmark = [pytest.mark.services, pytest.mark.real_worker, pytest.mark.django_db(transaction=True)]


def database_url_for_test_db() -> str:
    db = connection.settings_dict
    auth = db["USER"] or ""
    if db["PASSWORD"]:
        auth += f":{db['PASSWORD']}"
    host = db["HOST"] or "127.0.0.1"
    port = db["PORT"] or 5432
    return f"postgres://{auth}@{host}:{port}/{db['NAME']}"


@pytest.fixture
def worker():
    """A worker on its own queue, so stale workers or messages from other runs cannot answer for it."""
    queue = f"test-{uuid.uuid4().hex[:8]}"
    env = {**os.environ, "DATABASE_URL": database_url_for_test_db(), "CELERY_BROKER_URL": settings.CELERY_BROKER_URL}
    process = subprocess.Popen(
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
            f"{queue}@%h",
        ],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    yield queue, process
    process.terminate()
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()


def test_worker_runs_task_from_redis_and_writes_to_postgres(worker):
    queue, process = worker
    heartbeat.apply_async(kwargs={"worker": "ci-probe"}, queue=queue)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if WorkerHeartbeat.objects.filter(worker="ci-probe").exists():
            break
        assert process.poll() is None, f"the worker died: {process.stdout.read()}"
        time.sleep(0.2)
    beat = WorkerHeartbeat.objects.filter(worker="ci-probe").first()
    assert beat is not None, "no heartbeat row within 60 s: the worker did not process the task"
    assert beat.beats == 1
