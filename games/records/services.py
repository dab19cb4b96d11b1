"""Writes for game records: upload (files, pasted text, zips) and the verification a worker runs."""

from __future__ import annotations

import hashlib
import io
import logging
import zipfile
from dataclasses import dataclass
from datetime import timedelta

from django.core.exceptions import PermissionDenied, ValidationError
from django.core.files.base import ContentFile
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs import access
from games.formats.notation import RecordFormatError
from games.models import GameRecord, Match, RecordStatus, UploadBatch
from games.models.records import RECORD_TRANSITIONS
from games.records import rules as _rules  # noqa: F401  registers record.attach (games/rules/ is a package)
from games.verification import check_record, record_format, unreadable

logger = logging.getLogger(__name__)

MAX_RECORD_BYTES = 2 * 1024 * 1024
MAX_ZIP_RECORDS = 200
MAX_ZIP_BYTES = 64 * 1024 * 1024
RECORD_SUFFIXES = (".mat", ".txt", ".sgf")


@dataclass(frozen=True)
class UploadedFile:
    name: str
    data: bytes


def _check_size(name: str, size: int) -> None:
    if size > MAX_RECORD_BYTES:
        raise ValidationError(
            {"file": [_("%(name)s is larger than 2 MiB; a match record is far smaller.") % {"name": name}]}
        )
    if size == 0:
        raise ValidationError({"file": [_("%(name)s is empty.") % {"name": name}]})


def expand_zip(name: str, data: bytes) -> list[UploadedFile]:
    """The records inside a zip (.mat, .txt, .sgf), refusing more than 200 or any above 2 MiB before reading."""
    if len(data) > MAX_ZIP_BYTES:
        raise ValidationError({"file": [_("%(name)s is larger than 64 MiB.") % {"name": name}]})
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        entries = [
            info
            for info in archive.infolist()
            if not info.is_dir()
            and info.filename.lower().endswith(RECORD_SUFFIXES)
            and not info.filename.startswith("__MACOSX/")
        ]
        if not entries:
            raise ValidationError({"file": [_("%(name)s holds no .mat or .sgf record.") % {"name": name}]})
        if len(entries) > MAX_ZIP_RECORDS:
            raise ValidationError(
                {
                    "file": [
                        _("%(name)s holds %(count)d records; upload at most 200 per zip.")
                        % {"name": name, "count": len(entries)}
                    ]
                }
            )
        files = []
        for info in entries:
            _check_size(info.filename, info.file_size)
            with archive.open(info) as handle:
                content = handle.read(MAX_RECORD_BYTES + 1)  # the header's size may lie
            _check_size(info.filename, len(content))
            files.append(UploadedFile(info.filename.rsplit("/", 1)[-1], content))
        return files
    except (zipfile.BadZipFile, zipfile.LargeZipFile, NotImplementedError, EOFError, OSError, ValueError) as error:
        if isinstance(error, ValidationError):
            raise
        raise ValidationError({"file": [_("%(name)s is not a readable zip archive.") % {"name": name}]}) from error


@transaction.atomic
def upload_records(*, uploader, files: list[UploadedFile], match: Match | None = None) -> UploadBatch:
    """Store each new file once (by SHA-256), group them in a batch and verify each after commit.

    A zip is expanded into its records. A file the uploader stored before is not stored again: the batch links
    their existing record. Nothing is written when any file is refused.
    """
    if not uploader.is_authenticated:
        raise PermissionDenied(_("Sign in to upload game records."))
    if match is not None:
        access.require(uploader, "record.attach", match)
    records: list[UploadedFile] = []
    for upload in files:
        if upload.name.lower().endswith(".zip") or upload.data[:4] == b"PK\x03\x04":
            records.extend(expand_zip(upload.name, upload.data))
        else:
            _check_size(upload.name, len(upload.data))
            records.append(upload)
    if not records:
        raise ValidationError({"file": [_("Choose a record file, a zip of records, or paste a record's text.")]})
    if len(records) > MAX_ZIP_RECORDS:
        raise ValidationError({"file": [_("Upload at most 200 records at once.")]})
    batch = UploadBatch.objects.create(uploader=uploader)
    to_verify = []
    for upload in records:
        record, created = _own_record(uploader, upload, match)
        if created:
            to_verify.append(record.pk)
        batch.records.add(record)
    transaction.on_commit(lambda: _enqueue(to_verify))
    return batch


def _own_record(uploader, upload: UploadedFile, match: Match | None) -> tuple[GameRecord, bool]:
    """The uploader's record of these bytes: the one they uploaded before, or a new one. Dedupe is per uploader
    (it must never hand anyone another person's record, its uploader or its match); the bytes are stored once,
    a second uploader's record points at the file already stored."""
    digest = hashlib.sha256(upload.data).hexdigest()
    mine = GameRecord.objects.filter(sha256=digest, uploader=uploader)
    record = mine.first()
    if record is not None:
        return record, False
    stored = GameRecord.objects.filter(sha256=digest).values_list("file", flat=True).first()
    # A concurrent upload of the same bytes by the same person trips the unique (uploader, sha256): the
    # savepoint lets us pick its row.
    try:
        with transaction.atomic():
            record = GameRecord(
                name=upload.name[:255],
                sha256=digest,
                size=len(upload.data),
                format=record_format(upload.data, name=upload.name),
                uploader=uploader,
                match=match,
            )
            if stored:
                record.file.name = stored
            else:
                record.file.save(f"{digest[:16]}_{_safe_name(upload.name)}", ContentFile(upload.data), save=False)
            record.save()
    except IntegrityError:
        record = mine.first()
        if record is None:
            raise
        return record, False
    return record, True


def _safe_name(name: str) -> str:
    kept = "".join(c if c.isalnum() or c in "._-" else "_" for c in name.rsplit("/", 1)[-1])
    return kept[-80:] or "record.mat"


def _enqueue(record_ids: list[int]) -> None:
    from games.records.tasks import verify_game_record

    for record_id in record_ids:
        verify_game_record.delay(record_id)


def upload_text(*, uploader, text: str, name: str = "", match: Match | None = None) -> UploadBatch:
    data = text.encode("utf-8")
    if not text.strip():
        raise ValidationError({"text": [_("Paste the text of a .mat record.")]})
    if len(data) > MAX_RECORD_BYTES:
        raise ValidationError({"text": [_("The pasted text is larger than 2 MiB; a match record is far smaller.")]})
    return upload_records(uploader=uploader, files=[UploadedFile(name or "pasted.mat", data)], match=match)


# A worker that died while verifying leaves its record in `verifying`; after this long another run may take it.
STALE_CLAIM = timedelta(minutes=5)


def _claim(record_id: int) -> bool:
    """Claim-once: only one run moves a record to verifying (an UPDATE … WHERE, checked by its row count).

    A retried task finds 0 rows and does nothing, unless the earlier claim is stale (its worker died).
    """
    now = timezone.now()
    claimable = Q(status=RecordStatus.PENDING) | Q(status=RecordStatus.VERIFYING, claimed_at__lt=now - STALE_CLAIM)
    claimed = GameRecord.objects.filter(claimable, pk=record_id).update(status=RecordStatus.VERIFYING, claimed_at=now)
    return claimed == 1


def verify_record(*, record_id: int) -> GameRecord | None:
    """Verify one record if nobody has claimed it yet; returns it, or None when another run has it."""
    if not _claim(record_id):
        return None
    record = GameRecord.objects.get(pk=record_id)
    try:
        with record.file.open("rb") as handle:
            data = handle.read()
    except OSError:
        # Give the record back so a retry can claim it again, then let the task retry.
        GameRecord.objects.filter(pk=record_id, status=RecordStatus.VERIFYING).update(status=RecordStatus.PENDING)
        raise
    try:
        status, verdict = check_record(data, name=record.name)
    except Exception as error:  # a bug in the verifier must not leave the record pending for ever
        logger.exception("verifier failed on game record %s", record_id)
        status, verdict = (
            "unreadable",
            unreadable(
                RecordFormatError(0, f"The verifier failed on this record ({type(error).__name__}); please report it.")
            ),
        )
    with transaction.atomic():
        record = GameRecord.objects.select_for_update().get(pk=record_id)
        if status not in RECORD_TRANSITIONS[RecordStatus(record.status)]:
            return record
        record.status = status
        record.verdict = verdict.as_dict(file=record.name)
        record.verified_at = timezone.now()
        record.save(update_fields=["status", "verdict", "verified_at"])
    return record
