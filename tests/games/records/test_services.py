"""Upload and verification of game records: dedup by SHA-256, zips and limits, claim-once verification."""

import io
import zipfile
from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import GameRecord, RecordStatus
from games.records import services
from games.records.services import UploadedFile
from tests.clubs.factories import UserFactory
from tests.refusals import PermissionDenied, ValidationError

pytestmark = pytest.mark.django_db


def zipped(files: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def test_uploaded_record_is_verified_after_commit(django_capture_on_commit_callbacks, valid_bytes):
    user = UserFactory()
    with django_capture_on_commit_callbacks(execute=True):
        batch = services.upload_records(uploader=user, files=[UploadedFile("a.mat", valid_bytes)])
    record = batch.records.get()
    assert record.status == RecordStatus.VALID
    assert record.verdict["valid"] is True and record.verdict["winner"] == "root"
    assert record.verdict["file"] == "a.mat" and record.verified_at is not None


def test_flawed_record_is_invalid_with_the_wrong_points_error(django_capture_on_commit_callbacks, flawed_bytes):
    with django_capture_on_commit_callbacks(execute=True):
        batch = services.upload_records(uploader=UserFactory(), files=[UploadedFile("f.mat", flawed_bytes)])
    record = batch.records.get()
    assert record.status == RecordStatus.INVALID
    first = record.verdict["errors"][0]
    assert (first["code"], first["game"], first["move"]) == ("wrong_points", 3, 30)


def test_garbage_is_unreadable_with_a_format_error(django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        batch = services.upload_text(uploader=UserFactory(), text="hello, this is no match")
    record = batch.records.get()
    assert record.status == RecordStatus.UNREADABLE
    assert [e["code"] for e in record.verdict["errors"]] == ["format"]


def test_same_file_is_stored_once_and_each_uploader_gets_their_own_record(
    django_capture_on_commit_callbacks, valid_bytes
):
    first, second = UserFactory(), UserFactory()
    with django_capture_on_commit_callbacks(execute=True):
        one = services.upload_records(uploader=first, files=[UploadedFile("a.mat", valid_bytes)])
        again = services.upload_records(uploader=first, files=[UploadedFile("a again.mat", valid_bytes)])
        two = services.upload_records(uploader=second, files=[UploadedFile("copy.mat", valid_bytes)])
    assert one.records.get() == again.records.get()  # the same person: the record they already have
    mine, theirs = one.records.get(), two.records.get()
    assert mine != theirs and (mine.uploader, theirs.uploader) == (first, second)
    assert mine.file.name == theirs.file.name  # the bytes are on disk once
    assert theirs.status == "valid" and theirs.name == "copy.mat"


def test_zip_of_records_becomes_one_batch(django_capture_on_commit_callbacks, valid_bytes, flawed_bytes):
    data = zipped({"m/a.mat": valid_bytes, "m/b.mat": flawed_bytes, "readme.md": b"ignored"})
    with django_capture_on_commit_callbacks(execute=True):
        batch = services.upload_records(uploader=UserFactory(), files=[UploadedFile("all.zip", data)])
    assert sorted(batch.records.values_list("name", "status")) == [("a.mat", "valid"), ("b.mat", "invalid")]


def test_zip_with_more_than_200_records_is_refused_and_nothing_is_stored():
    data = zipped({f"{n}.mat": f"{n} point match\n".encode() for n in range(201)})
    with pytest.raises(ValidationError) as caught:
        services.upload_records(uploader=UserFactory(), files=[UploadedFile("big.zip", data)])
    assert "at most 200" in str(caught.value)
    assert GameRecord.objects.count() == 0


def test_record_above_2_mib_is_refused_with_its_name(valid_bytes):
    big = valid_bytes + b" " * (2 * 1024 * 1024)
    with pytest.raises(ValidationError) as caught:
        services.upload_records(uploader=UserFactory(), files=[UploadedFile("big.mat", big)])
    assert "big.mat is larger than 2 MiB" in str(caught.value)


def test_oversized_record_inside_a_zip_is_refused(valid_bytes):
    data = zipped({"ok.mat": valid_bytes, "huge.mat": b" " * (2 * 1024 * 1024 + 1)})
    with pytest.raises(ValidationError, match="huge.mat is larger than 2 MiB"):
        services.upload_records(uploader=UserFactory(), files=[UploadedFile("x.zip", data)])
    assert GameRecord.objects.count() == 0


def test_broken_zip_is_refused():
    with pytest.raises(ValidationError, match="not a readable zip"):
        services.upload_records(uploader=UserFactory(), files=[UploadedFile("x.zip", b"PK\x03\x04broken")])


def test_verification_claims_a_record_once(valid_bytes):
    batch = services.upload_records(uploader=UserFactory(), files=[UploadedFile("a.mat", valid_bytes)])
    record = batch.records.get()  # the on-commit task never ran: still pending
    assert record.status == RecordStatus.PENDING
    assert services.verify_record(record_id=record.pk).status == RecordStatus.VALID
    # A retried task finds nothing to claim and leaves the verdict alone.
    assert services.verify_record(record_id=record.pk) is None
    record.refresh_from_db()
    assert record.status == RecordStatus.VALID


def test_record_in_verification_is_not_claimed_again(valid_bytes):
    batch = services.upload_records(uploader=UserFactory(), files=[UploadedFile("a.mat", valid_bytes)])
    record = batch.records.get()
    GameRecord.objects.filter(pk=record.pk).update(status=RecordStatus.VERIFYING, claimed_at=timezone.now())
    assert services.verify_record(record_id=record.pk) is None


def test_record_whose_worker_died_is_claimed_again_after_a_while(valid_bytes):
    batch = services.upload_records(uploader=UserFactory(), files=[UploadedFile("a.mat", valid_bytes)])
    record = batch.records.get()
    long_ago = timezone.now() - services.stale_claim() - timedelta(seconds=1)
    GameRecord.objects.filter(pk=record.pk).update(status=RecordStatus.VERIFYING, claimed_at=long_ago)
    assert services.verify_record(record_id=record.pk).status == RecordStatus.VALID


def test_finished_record_needs_a_verdict_in_the_database(valid_bytes):
    from django.db import IntegrityError, transaction

    batch = services.upload_records(uploader=UserFactory(), files=[UploadedFile("a.mat", valid_bytes)])
    with pytest.raises(IntegrityError), transaction.atomic():
        GameRecord.objects.filter(pk=batch.records.get().pk).update(status=RecordStatus.VALID)


def test_anonymous_upload_is_refused(valid_bytes):
    from django.contrib.auth.models import AnonymousUser

    with pytest.raises(PermissionDenied):
        services.upload_records(uploader=AnonymousUser(), files=[UploadedFile("a.mat", valid_bytes)])


def test_sgf_upload_is_recognised_and_verified(django_capture_on_commit_callbacks, valid_bytes):
    from backgammon.matchfiles.mat import parse_mat
    from backgammon.matchfiles.sgf import write_sgf

    sgf = write_sgf(parse_mat(valid_bytes)).encode()
    with django_capture_on_commit_callbacks(execute=True):
        batch = services.upload_records(uploader=UserFactory(), files=[UploadedFile("match.sgf", sgf)])
    record = batch.records.get()
    assert (record.format, record.status) == ("sgf", RecordStatus.VALID)
    assert record.verdict["final_score"] == [1, 4]


def test_a_verifier_crash_leaves_an_unreadable_verdict_not_a_pending_record(monkeypatch, valid_bytes):
    def crash(data, *, name=""):
        raise KeyError("bug")

    monkeypatch.setattr(services, "check_any_record", crash)
    batch = services.upload_records(uploader=UserFactory(), files=[UploadedFile("a.mat", valid_bytes)])
    record = services.verify_record(record_id=batch.records.get().pk)
    assert record.status == RecordStatus.UNREADABLE
    assert "verifier failed" in record.verdict["errors"][0]["message"]
