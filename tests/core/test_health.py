"""/health/ without real services: in-process mode is healthy and says so; a broker nobody listens for is a 503
naming the broker. (Each service down with PostgreSQL and Redis: tests/services/test_health.py.)"""

import pytest

from config.celery import app as celery_app

pytestmark = pytest.mark.django_db


def test_in_process_mode_is_healthy_and_says_so(client):
    response = client.get("/health/")
    assert response.status_code == 200
    data = response.json()
    assert data["status"] == "ok" and data["tasks"] == "in-process"
    assert data["database"]["status"] == "ok"
    in_process = {"status": "ok", "reason": "no broker is configured: tasks run in-process, inside the request"}
    assert data["broker"] == in_process and data["worker"] == in_process


def test_a_broker_that_does_not_answer_is_a_503_naming_the_broker(client, monkeypatch):
    celery_app.conf.task_always_eager = False  # as with a broker configured (the eager fixture restores it)
    monkeypatch.setenv("CELERY_BROKER_URL", "redis://127.0.0.1:1/0")  # nothing listens on port 1
    response = client.get("/health/")
    assert response.status_code == 503
    data = response.json()
    assert data["status"] == "failing" and data["database"]["status"] == "ok"
    assert data["broker"]["status"] == "failing"
    assert "the broker does not answer" in data["broker"]["reason"]
    assert data["worker"]["status"] == "failing"  # and no worker ever ran a heartbeat
    assert "127.0.0.1:1" not in response.content.decode()  # the raw error goes to the log, not to the public


def test_liveness_answers_ok_without_asking_the_database_or_the_broker(client, django_assert_num_queries, monkeypatch):
    celery_app.conf.task_always_eager = False  # a broker configured, and down: /health/ fails, liveness does not
    monkeypatch.setenv("CELERY_BROKER_URL", "redis://127.0.0.1:1/0")
    with django_assert_num_queries(0):
        response = client.get("/health/live/")
    assert response.status_code == 200 and response.json() == {"status": "ok"}
    assert client.get("/health/").status_code == 503
