"""Two sweeps at the same moment (two beats by mistake, or a slow sweep overlapping the next) send each lost
record once: the rows one sweep locked are skipped by the other (SELECT … FOR UPDATE SKIP LOCKED). The control
takes the lock away and shows both then send every record."""

import threading

import pytest

from games.models import GameRecord
from games.records import services
from games.records.services import UploadedFile
from tests.clubs.factories import UserFactory
from tests.paths import CORPUS
from tests.services.concurrency import run_at_once, then_wait

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

VALID_RECORD = (CORPUS / "gnubg" / "standard_0001_3p.mat").read_bytes()


@pytest.fixture
def sent(monkeypatch):
    """The record ids each send asked for (the broker is the edge: what reaches it is what counts)."""
    calls: list[int] = []
    lock = threading.Lock()

    def record_send(_task, args_list, **_kwargs):
        with lock:
            calls.extend(record_id for record_id, in args_list)

    monkeypatch.setattr(services, "enqueue_many_on_commit", record_send)
    return calls


@pytest.fixture
def lost_records(sent):
    files = [UploadedFile(f"{n}.mat", VALID_RECORD + b"\n" * n) for n in range(10)]
    services.upload_records(uploader=UserFactory(), files=files)
    GameRecord.objects.update(queued_at=None)  # as after a send the broker refused
    sent.clear()
    return sorted(GameRecord.objects.values_list("pk", flat=True))


def test_two_sweeps_at_once_send_each_lost_record_once(monkeypatch, sent, lost_records):
    monkeypatch.setattr(services, "_queue_verification", then_wait(services._queue_verification))
    counts = run_at_once(services.sweep_due_records, services.sweep_due_records)
    assert sum(counts) == 10  # the rows are split between them (all to one, in practice), none sent twice
    assert sorted(sent) == lost_records


def test_control_without_the_lock_both_sweeps_send_every_record(monkeypatch, sent, lost_records):
    monkeypatch.setattr(services, "_queue_verification", then_wait(services._queue_verification))
    unlocked = GameRecord.objects.all
    monkeypatch.setattr(GameRecord.objects, "select_for_update", lambda **_kwargs: unlocked())
    counts = run_at_once(services.sweep_due_records, services.sweep_due_records)
    assert counts == [10, 10]
    assert sorted(sent) == sorted(lost_records * 2)
