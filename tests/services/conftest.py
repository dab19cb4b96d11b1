"""Fixtures of the real-service tests: a Redis of their own to stop and start, worker and beat processes on it."""

import pytest

from tests.services.broker import private_broker  # noqa: F401 - the fixture
from tests.services.worker import start_celery, start_worker, stop

# The beat sends the sweep every second and a claim counts as stale after 5 s (120 s in production), so the
# tests wait seconds, not minutes; the figures for the production settings follow from these (see README).
FAST = {"BEAT_EVERY_SECONDS": "1", "TASK_STALE_SECONDS": "5"}


@pytest.fixture
def shared_media(monkeypatch, settings, tmp_path):
    """The worker process reads the stored file: it must see the same MEDIA_ROOT (set before it starts)."""
    monkeypatch.setenv("MEDIA_ROOT", str(tmp_path / "media"))
    settings.MEDIA_ROOT = tmp_path / "media"


@pytest.fixture
def celery(private_broker, tmp_path):  # noqa: F811 - the fixture imported above
    """Start worker and beat processes on the private broker (stopped after the test)."""
    started = []

    def start(kind: str, **kwargs):
        env = {**FAST, **kwargs.pop("env", {})}
        if kind == "beat":
            process = start_celery("beat", "-s", str(tmp_path / "beat-schedule"), broker_url=private_broker.url, **env)
        else:
            process = start_worker(broker_url=private_broker.url, **kwargs, **env)
        started.append(process)
        return process

    yield start
    for process in started:
        stop(process)
