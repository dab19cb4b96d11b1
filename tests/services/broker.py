"""A Redis of the test's own, to stop and start: the shared Redis on 6379 serves other test runs and must stay up.

While the fixture is active, this test process sends its tasks there too (the Celery app's broker URL and its
connection pools are switched, and switched back after)."""

import contextlib
import shutil
import subprocess
import time

import pytest
from redis import Redis
from redis.exceptions import ConnectionError as RedisConnectionError

from config.celery import app as celery_app

PORT = 6390


class PrivateBroker:
    url = f"redis://127.0.0.1:{PORT}/0"

    def __init__(self) -> None:
        self.client = Redis(host="127.0.0.1", port=PORT, socket_connect_timeout=1)

    def up(self) -> bool:
        try:
            return bool(self.client.ping())
        except RedisConnectionError:
            return False

    def start(self) -> None:
        subprocess.run(
            ["redis-server", "--port", str(PORT), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
             "--daemonize", "yes"],
            check=True,
            stdout=subprocess.DEVNULL,
        )
        self._wait(up=True)

    def stop(self) -> None:
        with contextlib.suppress(RedisConnectionError):  # shutting down closes the connection before it answers
            self.client.shutdown(nosave=True)
        self._wait(up=False)

    def _wait(self, *, up: bool) -> None:
        deadline = time.monotonic() + 10
        while self.up() != up:
            if time.monotonic() > deadline:
                pytest.fail(f"the private Redis on port {PORT} did not {'start' if up else 'stop'}")
            time.sleep(0.05)


def _drop_broker_connections() -> None:
    """Celery keeps its connection pool per app: dropped, the next task takes one for the broker now configured
    (kombu keeps a pool per broker URL, so none is closed: the next test with that URL reuses it)."""
    celery_app._pool = None
    celery_app.amqp._producer_pool = None


@pytest.fixture
def private_broker(monkeypatch):
    """A running Redis on port 6390 (flushed), which the test may stop and start; stopped after the test."""
    if shutil.which("redis-server") is None:
        pytest.fail("redis-server is not installed; the fault tests start a Redis of their own")
    broker = PrivateBroker()
    if not broker.up():
        broker.start()
    broker.client.flushdb()
    # Celery reads the environment's CELERY_BROKER_URL before its own configuration.
    monkeypatch.setenv("CELERY_BROKER_URL", broker.url)
    _drop_broker_connections()
    yield broker
    monkeypatch.undo()
    _drop_broker_connections()
    if broker.up():
        broker.stop()
