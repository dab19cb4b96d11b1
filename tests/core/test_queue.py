"""base.queue and the sweep, in-process: a send the broker refuses is logged and leaves the row due instead of
raising; the sweep sends due rows once (a second sweep right after finds nothing) and leaves work under way alone.
(The same with a real broker stopped and restarted, a real worker and beat: tests/services/test_lost_work.py.)"""

import logging
from datetime import timedelta

import pytest
from django.utils import timezone

from base.queue import enqueue
from base.tasks import heartbeat, sweep
from config.celery import app as celery_app
from games.models import GameRecord, RecordStatus
from games.records import services
from games.records.services import UploadedFile
from ratings.models import RatingPool
from tests.clubs.factories import UserFactory
from tests.paths import CORPUS

pytestmark = pytest.mark.django_db

VALID_RECORD = (CORPUS / "gnubg" / "standard_0001_3p.mat").read_bytes()


@pytest.fixture
def broker_down(monkeypatch):
    """A broker URL nobody listens on: every send really fails (connection refused)."""
    celery_app.conf.task_always_eager = False  # the eager fixture restores it
    monkeypatch.setenv("CELERY_BROKER_URL", "redis://127.0.0.1:1/0")
    monkeypatch.setattr(celery_app, "_pool", None)
    monkeypatch.setattr(celery_app.amqp, "_producer_pool", None)


def test_a_send_the_broker_refuses_is_logged_not_raised(broker_down, caplog):
    failed = []
    with caplog.at_level(logging.ERROR, logger="base.queue"):
        sent = enqueue(heartbeat, "probe", on_failure=lambda: failed.append(True))
    assert sent is False and failed == [True]
    assert "could not queue core.heartbeat for [('probe',)]" in caplog.text
    assert "the sweep sends it again" in caplog.text


def test_an_upload_with_the_broker_down_is_stored_and_stays_due(broker_down, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        batch = services.upload_records(uploader=UserFactory(), files=[UploadedFile("a.mat", VALID_RECORD)])
    record = batch.records.get()
    assert record.status == RecordStatus.PENDING and record.queued_at is None  # the next sweep sends it


def test_a_zip_upload_with_the_broker_down_asks_the_broker_once_and_leaves_every_record_due(
    broker_down, caplog, django_capture_on_commit_callbacks
):
    files = [UploadedFile(f"{n}.mat", VALID_RECORD + b"\n" * n) for n in range(3)]
    with caplog.at_level(logging.ERROR, logger="base.queue"), django_capture_on_commit_callbacks(execute=True):
        batch = services.upload_records(uploader=UserFactory(), files=files)
    assert [r.levelname for r in caplog.records] == ["ERROR"]  # one failed send, not one per record
    ids = sorted(batch.records.values_list("pk", flat=True))
    assert f"verify_game_record for {[(pk,) for pk in ids]!r}" in caplog.text
    assert list(GameRecord.objects.filter(queued_at__isnull=True).order_by("pk").values_list("pk", flat=True)) == ids


def upload(uploader=None) -> GameRecord:
    """A record as stored by an upload whose task never reached a worker (no commit runs in this test)."""
    files = [UploadedFile("a.mat", VALID_RECORD)]
    return services.upload_records(uploader=uploader or UserFactory(), files=files).records.get()


def test_the_sweep_verifies_records_whose_task_was_lost_and_sends_each_once(django_capture_on_commit_callbacks):
    lost = upload()
    GameRecord.objects.filter(pk=lost.pk).update(queued_at=None)
    with django_capture_on_commit_callbacks(execute=True):
        assert sweep.apply().get() == 1
    lost.refresh_from_db()
    assert lost.status == RecordStatus.VALID
    with django_capture_on_commit_callbacks(execute=True):
        assert sweep.apply().get() == 0


def test_the_sweep_leaves_work_under_way_alone_until_it_is_stale(django_capture_on_commit_callbacks):
    record = upload()  # just sent: its task may still be in the queue
    now = timezone.now()
    stale = now - services.stale_claim() - timedelta(seconds=1)
    with django_capture_on_commit_callbacks(execute=False) as sent:
        assert sweep.apply().get() == 0
        GameRecord.objects.filter(pk=record.pk).update(status=RecordStatus.VERIFYING, claimed_at=now, queued_at=stale)
        assert sweep.apply().get() == 0  # claimed a moment ago: a worker is verifying it
        GameRecord.objects.filter(pk=record.pk).update(claimed_at=stale)
        assert sweep.apply().get() == 1  # its worker died
    assert len(sent) == 1
    with django_capture_on_commit_callbacks(execute=True):
        sent[0]()
    record.refresh_from_db()
    assert record.status == RecordStatus.VALID


def test_uploading_a_stuck_record_again_sends_it_again(django_capture_on_commit_callbacks):
    stuck = upload()
    GameRecord.objects.filter(pk=stuck.pk).update(queued_at=None)
    with django_capture_on_commit_callbacks(execute=True):
        again = upload(stuck.uploader)  # the same person's same bytes: their own record, sent again
    assert again.pk == stuck.pk
    again.refresh_from_db()
    assert again.status == RecordStatus.VALID


def test_the_sweep_recomputes_a_pool_left_pending_and_not_one_asked_a_moment_ago(
    club, django_capture_on_commit_callbacks
):
    pool = RatingPool.objects.create(club=club, recompute_pending=True, recompute_requested_at=timezone.now())
    with django_capture_on_commit_callbacks(execute=True):
        assert sweep.apply().get() == 0  # its task was sent a moment ago
    RatingPool.objects.filter(pk=pool.pk).update(recompute_requested_at=None)  # its send failed
    with django_capture_on_commit_callbacks(execute=True):
        assert sweep.apply().get() == 1
    pool.refresh_from_db()
    assert not pool.recompute_pending and pool.recompute_count == 1


def test_a_record_whose_worker_died_three_times_gets_a_verdict_instead_of_a_fourth_try(
    django_capture_on_commit_callbacks,
):
    record = upload()
    stale = timezone.now() - services.stale_claim() - timedelta(seconds=1)
    GameRecord.objects.filter(pk=record.pk).update(
        status=RecordStatus.VERIFYING, claimed_at=stale, queued_at=stale, attempts=services.MAX_VERIFY_ATTEMPTS
    )
    with django_capture_on_commit_callbacks(execute=True) as sent:
        assert sweep.apply().get() == 0
    assert sent == []
    record.refresh_from_db()
    assert record.status == RecordStatus.UNREADABLE
    assert "started 3 times and never finished" in record.verdict["errors"][0]["message"]
