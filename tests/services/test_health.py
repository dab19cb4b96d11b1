"""/health/ on the real services: 200 once a real worker, driven by a real beat, runs heartbeats; 503 naming the
service when the broker is stopped, when the worker's heartbeat is stale, and when the database does not answer
(a connection pointed at a closed port: the shared PostgreSQL stays up)."""

from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from base.models import WorkerHeartbeat
from tests.services.worker import wait_for

pytestmark = [pytest.mark.services, pytest.mark.real_worker, pytest.mark.django_db(transaction=True)]


def health(client) -> tuple[int, dict]:
    response = client.get("/health/")
    return response.status_code, response.json()


def failing(data: dict) -> set[str]:
    return {name for name in ("database", "broker", "worker") if data[name]["status"] != "ok"}


def test_healthy_once_a_worker_runs_the_beats_heartbeat_and_503_when_the_broker_stops(
    client, private_broker, celery
):
    status, data = health(client)
    assert status == 503 and failing(data) == {"worker"}
    assert "no worker has run a heartbeat" in data["worker"]["reason"]

    worker, _beat = celery("worker"), celery("beat")
    wait_for(lambda: health(client)[0] == 200, worker, seconds=120, what="healthy /health/")
    status, data = health(client)
    assert data["status"] == "ok" and data["tasks"] == "broker" and failing(data) == set()

    private_broker.stop()
    status, data = health(client)
    assert status == 503 and failing(data) == {"broker"}
    assert "the broker does not answer" in data["broker"]["reason"]


def test_a_stale_heartbeat_is_a_503_naming_the_worker(client, private_broker, settings):
    WorkerHeartbeat.objects.create(worker="gone", beats=7, last_seen=timezone.now() - timedelta(minutes=10))
    status, data = health(client)
    assert status == 503 and failing(data) == {"worker"}
    assert f"more than {settings.HEALTH_HEARTBEAT_MAX_AGE_SECONDS} s" in data["worker"]["reason"]

    WorkerHeartbeat.objects.filter(worker="gone").update(last_seen=timezone.now())
    assert health(client)[0] == 200


def test_a_database_that_does_not_answer_is_a_503_naming_the_database(client, private_broker, monkeypatch):
    WorkerHeartbeat.objects.create(worker="fresh", beats=1, last_seen=timezone.now())
    connection.close()
    monkeypatch.setitem(connection.settings_dict, "PORT", "1")  # nothing listens there
    try:
        status, data = health(client)
    finally:
        connection.close()
        monkeypatch.undo()
    assert status == 503 and failing(data) == {"database", "worker"}
    assert "the database does not answer" in data["database"]["reason"]
    assert data["worker"]["reason"].startswith("unknown")
    assert health(client)[0] == 200  # back on the real port
