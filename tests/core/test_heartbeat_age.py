"""A worker killed mid-task shows on /health/ within 60 s: beat sends a heartbeat every
HEALTH_HEARTBEAT_EVERY_SECONDS (15), and /health/ fails the worker once the newest is older than
HEALTH_HEARTBEAT_MAX_AGE_SECONDS (45). The worker's last heartbeat came at most one interval before it died, so
/health/ says so at most 45 s after the kill; here the clock is moved, the rows are real."""

from datetime import timedelta

import pytest
from django.conf import settings
from django.utils import timezone

from base.health import check_worker
from base.models import WorkerHeartbeat
from config.celery import app as celery_app

pytestmark = pytest.mark.django_db


@pytest.fixture
def with_broker():
    celery_app.conf.task_always_eager = False  # the eager fixture restores it


def test_the_defaults_put_a_killed_worker_on_health_within_a_minute():
    every = settings.HEALTH_HEARTBEAT_EVERY_SECONDS
    assert settings.CELERY_BEAT_SCHEDULE["heartbeat"]["schedule"] == every
    # the worst case: the worker dies just after a heartbeat; the next check after the max age fails it
    assert settings.HEALTH_HEARTBEAT_MAX_AGE_SECONDS + every <= 60


def test_a_worker_killed_after_its_last_heartbeat_fails_the_check_within_60_seconds(with_broker, monkeypatch):
    killed_at = timezone.now()
    WorkerHeartbeat.objects.create(worker="killed", beats=40, last_seen=killed_at)

    def status_at(seconds_after_kill: float) -> str:
        monkeypatch.setattr(timezone, "now", lambda: killed_at + timedelta(seconds=seconds_after_kill))
        return check_worker(database_ok=True)["status"]

    assert status_at(settings.HEALTH_HEARTBEAT_EVERY_SECONDS) == "ok"  # one heartbeat late is not a failure yet
    assert status_at(settings.HEALTH_HEARTBEAT_MAX_AGE_SECONDS - 1) == "ok"
    assert status_at(settings.HEALTH_HEARTBEAT_MAX_AGE_SECONDS + 1) == "failing"
    assert status_at(60) == "failing"


def test_another_worker_still_beating_keeps_the_site_healthy(with_broker):
    WorkerHeartbeat.objects.create(worker="killed", beats=40, last_seen=timezone.now() - timedelta(seconds=59))
    WorkerHeartbeat.objects.create(worker="alive", beats=80, last_seen=timezone.now() - timedelta(seconds=5))
    assert check_worker(database_ok=True)["status"] == "ok"
