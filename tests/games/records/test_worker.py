"""A real Celery worker takes an uploaded record's task from Redis and stores the verdict in PostgreSQL."""

import time

import pytest

from games.models import GameRecord, RecordStatus
from games.records import services
from games.records.tasks import verify_game_record
from tests.clubs.factories import UserFactory
from tests.services.test_celery_worker import worker  # noqa: F401  (the fixture: a worker on its own queue)

pytestmark = [pytest.mark.services, pytest.mark.real_worker, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def shared_media(monkeypatch, settings, tmp_path):
    """The worker process reads the stored file: it must see the same MEDIA_ROOT (set before it starts)."""
    monkeypatch.setenv("MEDIA_ROOT", str(tmp_path / "media"))
    settings.MEDIA_ROOT = tmp_path / "media"


def test_worker_verifies_an_uploaded_record(shared_media, worker, monkeypatch, flawed_bytes):  # noqa: F811
    queue, process = worker
    monkeypatch.setattr(
        services, "_enqueue", lambda ids: [verify_game_record.apply_async(args=[i], queue=queue) for i in ids]
    )
    batch = services.upload_records(uploader=UserFactory(), files=[services.UploadedFile("f.mat", flawed_bytes)])
    record = batch.records.get()
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        record.refresh_from_db()
        if record.status in RecordStatus.finished():
            break
        assert process.poll() is None, f"the worker died: {process.stdout.read()}"
        time.sleep(0.2)
    assert record.status == RecordStatus.INVALID, "the worker did not verify the record within 60 s"
    assert record.verdict["errors"][0]["code"] == "wrong_points"
    assert GameRecord.objects.count() == 1
