"""A Redis of the test's own, to stop and start: the shared Redis on 6379 serves other test runs and must stay up.

While the fixture is active, this test process sends its tasks there too (the Celery app's broker URL and its
connection pools are switched, and switched back after)."""

import pytest

from config.celery import app as celery_app
from tests.private_redis import PrivateRedis, worker_port

# One port per pytest-xdist worker (gw0 on 6390, gw1 on 6391, ...): a test stops its Redis, and must not stop
# the one a test in another worker is using.
PORT = worker_port(6390)


class PrivateBroker(PrivateRedis):
    def __init__(self) -> None:
        super().__init__(PORT)


def _drop_broker_connections() -> None:
    """Celery keeps its connection pool per app: dropped, the next task takes one for the broker now configured
    (kombu keeps a pool per broker URL, so none is closed: the next test with that URL reuses it)."""
    celery_app._pool = None
    celery_app.amqp._producer_pool = None


@pytest.fixture
def private_broker(monkeypatch):
    """A running Redis on PORT (flushed), which the test may stop and start; stopped after the test."""
    broker = PrivateBroker()
    broker.ensure_started()
    broker.client.flushdb()
    # Celery reads the environment's CELERY_BROKER_URL before its own configuration.
    monkeypatch.setenv("CELERY_BROKER_URL", broker.url)
    _drop_broker_connections()
    yield broker
    monkeypatch.undo()
    _drop_broker_connections()
    if broker.up():
        broker.stop()
