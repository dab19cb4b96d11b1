"""A real Celery worker process for the tests that send tasks through Redis: it runs on a queue of its own (so
stale workers or messages from other runs cannot answer for it) against the test database."""

import os
import subprocess
import sys
import time
import uuid
from collections.abc import Callable

import pytest
from django.conf import settings
from django.db import connection


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



def wait_for(condition: Callable[[], object], process, *, seconds: float, what: str):
    """Poll `condition` until it returns something truthy (returned); fail if the worker dies or time runs out."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = condition()
        if found:
            return found
        assert process.poll() is None, f"the worker died: {process.stdout.read()}"
        time.sleep(0.2)
    pytest.fail(f"no {what} within {seconds:g} s: the worker did not process the task")
