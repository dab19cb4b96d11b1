"""A real Celery worker takes an uploaded record's task from Redis and stores the verdict in PostgreSQL."""

import pytest

from games.models import GameRecord, RecordStatus
from games.records import services
from tests.clubs.factories import UserFactory
from tests.services.worker import wait_for, worker  # noqa: F401 - the real-worker fixture

pytestmark = [pytest.mark.services, pytest.mark.real_worker, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def shared_media(monkeypatch, settings, tmp_path):
    """The worker process reads the stored file: it must see the same MEDIA_ROOT (set before it starts)."""
    monkeypatch.setenv("MEDIA_ROOT", str(tmp_path / "media"))
    settings.MEDIA_ROOT = tmp_path / "media"


def test_worker_verifies_an_uploaded_record(shared_media, worker, flawed_bytes):  # noqa: F811
    _queue, process = worker  # the fixture sends this process's tasks to its worker's queue
    batch = services.upload_records(uploader=UserFactory(), files=[services.UploadedFile("f.mat", flawed_bytes)])
    record = batch.records.get()

    def verified():
        record.refresh_from_db()
        return record.status in RecordStatus.finished()

    wait_for(verified, process, seconds=60, what="verdict")
    assert record.status == RecordStatus.INVALID, "the worker did not verify the record within 60 s"
    assert record.verdict["errors"][0]["code"] == "wrong_points"
    assert GameRecord.objects.count() == 1
