"""Real Celery processes for the tests that send tasks through Redis: a worker (on a queue of its own, so stale
workers or messages from other runs cannot answer for it) and a beat, both against the test database."""

import os
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable

import pytest
from django.conf import settings
from django.db import connection

from config.celery import app as celery_app


def database_url_for_test_db() -> str:
    db = connection.settings_dict
    auth = db["USER"] or ""
    if db["PASSWORD"]:
        auth += f":{db['PASSWORD']}"
    host = db["HOST"] or "127.0.0.1"
    port = db["PORT"] or 5432
    return f"postgres://{auth}@{host}:{port}/{db['NAME']}"


def start_celery(*args: str, app: str = "config", broker_url: str | None = None, **env: str) -> subprocess.Popen:
    """`celery -A app *args` against the test database (and `broker_url`, by default the configured one), with
    `env` added to its environment."""
    environment = {
        **os.environ,
        "DATABASE_URL": database_url_for_test_db(),
        "CELERY_BROKER_URL": broker_url or settings.CELERY_BROKER_URL,
        **env,
    }
    # Output goes to a file, not a pipe nobody reads: a full pipe would block the process mid-test.
    log = tempfile.NamedTemporaryFile(mode="w+", prefix=f"celery-{args[0]}-", suffix=".log", delete=False)  # noqa: SIM115
    process = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", app, *args, "--loglevel=warning"],
        env=environment,
        stdout=log,
        stderr=subprocess.STDOUT,
        text=True,
    )
    process.log_path = log.name  # type: ignore[attr-defined]
    log.close()
    return process


def output(process: subprocess.Popen) -> str:
    """What the process printed (its last 4,000 characters), for a failure message."""
    with open(process.log_path) as log:  # type: ignore[attr-defined]
        return log.read()[-4000:]


def start_worker(queue: str = "celery", **kwargs) -> subprocess.Popen:
    """A solo worker taking tasks from `queue` (the default queue unless told)."""
    name = f"{queue}-{uuid.uuid4().hex[:6]}@%h"
    options = ("--pool=solo", "-Q", queue, "--without-gossip", "--without-mingle", "-n", name)
    return start_celery("worker", *options, **kwargs)


def stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=5)  # a warm shutdown waits for the broker's next poll; nothing here needs it
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    os.unlink(process.log_path)  # type: ignore[attr-defined]


@pytest.fixture
def worker():
    """A worker on its own queue, so stale workers or messages from other runs cannot answer for it; tasks sent
    by this test process go to that queue while the test runs."""
    queue = f"test-{uuid.uuid4().hex[:8]}"
    process = start_worker(queue)
    previous = celery_app.conf.task_default_queue
    celery_app.conf.task_default_queue = queue
    yield queue, process
    celery_app.conf.task_default_queue = previous
    stop(process)


def wait_for(condition: Callable[[], object], process, *, seconds: float, what: str):
    """Poll `condition` until it returns something truthy (returned); fail if the worker dies or time runs out."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = condition()
        if found:
            return found
        assert process.poll() is None, f"the worker died: {output(process)}"
        time.sleep(0.2)
    pytest.fail(f"no {what} within {seconds:g} s: the worker did not process the task\n{output(process)}")
