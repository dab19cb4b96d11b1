"""Writes for game records: upload (files, pasted text, zips) and the verification a worker runs."""

from __future__ import annotations

import hashlib
import io
import logging
import zipfile
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.core.files.base import ContentFile
from django.db import IntegrityError, transaction
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from backgammon.matchfiles.notation import RecordFormatError
from backgammon.record_routing import check_any_record, record_game, record_settings
from backgammon.verification import record_format, unreadable
from base.errors import Invalid, NotAllowed
from base.live import group_name, notify_group
from base.locks import lock
from base.queue import enqueue_many_on_commit
from base.text import clean_text
from clubs import access
from games.analysis import services as analysis
from games.models import GameRecord, Match, RecordStatus, UploadBatch
from games.models.records import RECORD_TRANSITIONS
from games.models.variants import GameVariant, StakeForm

logger = logging.getLogger(__name__)
VERIFY_TASK = "games.records.tasks.verify_game_record"  # sent by name: games.records.tasks imports this module

MAX_RECORD_BYTES = 2 * 1024 * 1024
MAX_ZIP_RECORDS = 200
RECORD_SUFFIXES = (".mat", ".txt", ".sgf")
_READ_CHUNK = 64 * 1024


def max_upload_bytes() -> int:
    """How much of one uploaded file is read: a zip expands to at most this, so it is never larger."""
    return settings.RECORDS_ZIP_MAX_UNCOMPRESSED


@dataclass(frozen=True)
class UploadedFile:
    name: str
    data: bytes


def _check_size(name: str, size: int) -> None:
    if size > MAX_RECORD_BYTES:
        raise Invalid(_("%(name)s is larger than 2 MiB; a match record is far smaller.") % {"name": name}, field="file")
    if size == 0:
        raise Invalid(_("%(name)s is empty.") % {"name": name}, field="file")


def _too_much_uncompressed(name: str) -> Invalid:
    return Invalid(
        _("A zip may hold at most %(size)s uncompressed; %(name)s holds more.")
        % {"size": _mebibytes(max_upload_bytes()), "name": name},
        field="file",
    )


def _mebibytes(size: int) -> str:
    return f"{size / (1024 * 1024):g} MiB"


def _read_entry(archive: zipfile.ZipFile, info: zipfile.ZipInfo, budget: int) -> bytes:
    """One entry's bytes, read in chunks and never more than MAX_RECORD_BYTES + 1 or `budget` + 1: the sizes
    in a zip's headers are the sender's word, so a 2 MiB entry that claims 1 KiB is still stopped in time."""
    cap = min(MAX_RECORD_BYTES, budget) + 1
    chunks, size = [], 0
    with archive.open(info) as handle:
        while size < cap and (chunk := handle.read(min(_READ_CHUNK, cap - size))):
            chunks.append(chunk)
            size += len(chunk)
    return b"".join(chunks)


def expand_zip(name: str, data: bytes) -> list[UploadedFile]:
    """The records inside a zip (.mat, .txt, .sgf), entry by entry: at most 200, none above 2 MiB, and at most
    RECORDS_ZIP_MAX_UNCOMPRESSED in all, counted from the bytes actually read (a zip bomb stops at the cap)."""
    budget = max_upload_bytes()
    if len(data) > budget:
        raise Invalid(_("%(name)s is larger than %(size)s.") % {"name": name, "size": _mebibytes(budget)}, field="file")
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
            raise Invalid(_("%(name)s holds no .mat or .sgf record.") % {"name": name}, field="file")
        if len(entries) > MAX_ZIP_RECORDS:
            raise Invalid(
                _("%(name)s holds %(count)d records; upload at most 200 per zip.")
                % {"name": name, "count": len(entries)},
                field="file",
            )
        if sum(info.file_size for info in entries) > budget:
            raise _too_much_uncompressed(name)  # refused on the headers' word before reading anything
        files = []
        for info in entries:
            entry_name = clean_text(info.filename).rsplit("/", 1)[-1].strip() or "record.mat"
            _check_size(entry_name, info.file_size)
            content = _read_entry(archive, info, budget)
            _check_size(entry_name, len(content))
            budget -= len(content)
            if budget < 0:
                raise _too_much_uncompressed(name)
            files.append(UploadedFile(entry_name, content))
        return files
    except (zipfile.BadZipFile, zipfile.LargeZipFile, NotImplementedError, EOFError, OSError, ValueError) as error:
        if isinstance(error, Invalid):
            raise
        raise Invalid(_("%(name)s is not a readable zip archive.") % {"name": name}, field="file") from error


@transaction.atomic
def upload_records(*, uploader, files: list[UploadedFile], match: Match | None = None) -> UploadBatch:
    """Store each new file once (by SHA-256), group them in a batch and verify each after commit.

    A zip is expanded into its records. A file the uploader stored before is not stored again: the batch links
    their existing record. Nothing is written when any file is refused.
    """
    if not uploader.is_authenticated:
        raise NotAllowed(_("Sign in to upload game records."))
    if match is not None:
        access.require(uploader, "record.attach", match)
    records: list[UploadedFile] = []
    files = [UploadedFile(clean_text(upload.name).strip() or "record.mat", upload.data) for upload in files]
    for upload in files:
        if upload.name.lower().endswith(".zip") or upload.data[:4] == b"PK\x03\x04":
            records.extend(expand_zip(upload.name, upload.data))
        else:
            _check_size(upload.name, len(upload.data))
            records.append(upload)
    if not records:
        raise Invalid(_("Choose a record file, a zip of records, or paste a record's text."), field="file")
    if len(records) > MAX_ZIP_RECORDS:
        raise Invalid(_("Upload at most 200 records at once."), field="file")
    if match is not None:
        for upload in records:
            _check_variant(upload, match)
    with _files_undone_on_failure() as written:
        batch = UploadBatch.objects.create(uploader=uploader)
        to_verify: list[int] = []
        for upload in records:
            record, created = _own_record(uploader, upload, match, written)
            if created or _is_due(record):
                to_verify.append(record.pk)  # new, or stored before but never verified: its task was lost, again
            batch.records.add(record)
        _queue_verification(to_verify)
    return batch


@contextmanager
def _files_undone_on_failure():
    """The names of the files an upload writes; deleted again if the upload fails before its transaction ends.

    Why: the rows roll back, but a file does not. A disk that fills up at the third record of a zip (507,
    base.faults), or a database that goes away, left the first two files behind with no record pointing at them.
    A failed commit itself is not undone: whether it committed is not known, and a record without its file would
    be worse than a file without its record."""
    written: list[str] = []
    try:
        yield written
    except BaseException:
        for name in written:
            try:
                GameRecord.file.field.storage.delete(name)
            except OSError as error:
                logger.warning("could not delete %s after a failed upload (%s)", name, error)
        raise


def _store_file(record: GameRecord, name: str, data: bytes, written: list[str]) -> str:
    """Write the record's bytes under the field's folder and return the stored name. A write that fails midway
    (ENOSPC at the second chunk) leaves a partial file; it is deleted here, unless the name now holds the whole
    file (the same bytes stored by a concurrent upload: the names start with the digest)."""
    storage = record.file.storage
    target = storage.get_available_name(
        record.file.field.generate_filename(record, name), max_length=record.file.field.max_length
    )
    try:
        stored = storage.save(target, ContentFile(data), max_length=record.file.field.max_length)
    except OSError:
        try:
            if storage.exists(target) and storage.size(target) < len(data):
                storage.delete(target)
        except OSError as error:
            logger.warning("could not delete the partial file %s (%s)", target, error)
        raise
    written.append(stored)
    return stored


def _check_variant(upload: UploadedFile, match: Match) -> None:
    """A record uploaded to a match must be of the match's game (its header names it): a long nardy record
    is never verified against a backgammon match, nor a Dave session against a cube match."""
    game = record_game(upload.data, name=upload.name)
    if game != match.record_game:
        raise Invalid(
            _("%(name)s is a record of %(record)s; this match is played as %(match)s.")
            % {"name": upload.name, "record": game_label(game), "match": game_label(match.record_game)},
            code="variant_mismatch",
            field="file",
        )
    refusal = match.settings_refusal(record_settings(upload.data, name=upload.name))
    if refusal:
        message = _("%(name)s is played with other settings than this match: %(settings)s.") % {
            "name": upload.name,
            "settings": refusal,
        }
        raise Invalid(message, code="settings_mismatch", field="file")


def game_label(game: str) -> str:
    """A record's or a match's game in words (the variant's label; Dave stakes as the Dave)."""
    return str(StakeForm.DAVE.label) if game == "dave" else str(GameVariant(game).label)


def _own_record(uploader, upload: UploadedFile, match: Match | None, written: list[str]) -> tuple[GameRecord, bool]:
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
                record.file.name = _store_file(record, f"{digest[:16]}_{_safe_name(upload.name)}", upload.data, written)
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


def stale_claim() -> timedelta:
    """How long a claim or a sent task may go without a verdict before the work counts as lost (settings
    TASK_STALE_SECONDS; longer than any verification may take, which the task's time limit ensures)."""
    return timedelta(seconds=settings.TASK_STALE_SECONDS)


def _due() -> Q:
    """Unfinished records whose work is not known to be under way: not sent lately, and not claimed lately."""
    stale = timezone.now() - stale_claim()
    not_sent_lately = Q(queued_at__isnull=True) | Q(queued_at__lt=stale)
    not_claimed_lately = Q(status=RecordStatus.PENDING) | Q(
        Q(claimed_at__isnull=True) | Q(claimed_at__lt=stale), status=RecordStatus.VERIFYING
    )
    return not_sent_lately & not_claimed_lately


def _is_due(record: GameRecord) -> bool:
    return GameRecord.objects.filter(_due(), pk=record.pk).exists()


def _queue_verification(record_ids: list[int]) -> None:
    """Mark the records as sent and send each one's verification after commit (base.queue: a broker that is
    down is logged, and the record is marked unsent so the next sweep sends it)."""
    GameRecord.objects.filter(pk__in=record_ids).update(queued_at=timezone.now())
    enqueue_many_on_commit(VERIFY_TASK, [(pk,) for pk in record_ids], on_failure=_mark_unsent)


def _mark_unsent(calls: list[tuple]) -> None:
    GameRecord.objects.filter(pk__in=[record_id for (record_id,) in calls]).update(queued_at=None)


@transaction.atomic
def sweep_due_records(*, limit: int = 500) -> int:
    """core.sweep: send again the verification of records whose task was lost (the broker was down when they
    were uploaded, or the worker died while verifying). The rows are locked with SKIP LOCKED and marked sent in
    this transaction, so two sweeps at once never send the same record; the task's own claim makes a record
    that is sent twice be verified once."""
    due = list(
        lock(GameRecord.objects, skip_locked=True)
        .filter(_due())
        .order_by("created_at", "pk")
        .values_list("pk", "status", "attempts")[:limit]
    )
    # A worker died on it (it is still verifying) for the third time: a verdict, not a fourth try.
    given_up = [pk for pk, status, tries in due if status == RecordStatus.VERIFYING and tries >= MAX_VERIFY_ATTEMPTS]
    for record in GameRecord.objects.filter(pk__in=given_up):
        _give_up(record)
    ids = [pk for pk, _status, _attempts in due if pk not in given_up]
    _queue_verification(ids)
    if due:
        logger.warning("sweep: sent %d game records to verification again, gave up on %d", len(ids), len(given_up))
    return len(ids)


# A record whose worker died this many times while verifying it (out of memory, killed) gets a final verdict
# instead of a fourth try: every record reaches a verdict, and one record cannot take workers down for ever.
MAX_VERIFY_ATTEMPTS = 3


def _give_up(record: GameRecord) -> None:
    message = (
        f"Verification was started {record.attempts} times and never finished (the worker stopped each time); "
        "the record is probably too large or too complex. Split it into smaller files and upload them again."
    )
    record.status = RecordStatus.UNREADABLE
    error = RecordFormatError("never_finished", message, attempts=record.attempts)
    record.verdict = unreadable(error).as_dict(file=record.name)
    record.verified_at = timezone.now()
    record.save(update_fields=["status", "verdict", "verified_at"])


def upload_text(*, uploader, text: str, name: str = "", match: Match | None = None) -> UploadBatch:
    data = text.encode("utf-8", errors="replace")  # a lone surrogate from JSON cannot be encoded as it is
    if not text.strip():
        raise Invalid(_("Paste the text of a .mat record."), field="text")
    if len(data) > MAX_RECORD_BYTES:
        raise Invalid(_("The pasted text is larger than 2 MiB; a match record is far smaller."), field="text")
    return upload_records(uploader=uploader, files=[UploadedFile(name or "pasted.mat", data)], match=match)


def _claim(record_id: int) -> bool:
    """Claim-once: only one run moves a record to verifying (an UPDATE … WHERE, checked by its row count).

    A retried task finds 0 rows and does nothing, unless the earlier claim is stale (its worker died; the sweep
    then sends the record again).
    """
    now = timezone.now()
    claimable = Q(status=RecordStatus.PENDING) | Q(status=RecordStatus.VERIFYING, claimed_at__lt=now - stale_claim())
    claimed = GameRecord.objects.filter(claimable, pk=record_id).update(
        status=RecordStatus.VERIFYING, claimed_at=now, attempts=F("attempts") + 1
    )
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
        status, verdict = check_any_record(data, name=record.name)
    except Exception as error:  # a bug in the verifier must not leave the record pending for ever
        logger.exception("verifier failed on game record %s", record_id)
        status, verdict = (
            "unreadable",
            unreadable(
                RecordFormatError(
                    "verifier_failed",
                    f"The verifier failed on this record ({type(error).__name__}); please report it.",
                )
            ),
        )
    with transaction.atomic():
        record = lock(GameRecord.objects).get(pk=record_id)
        if status not in RECORD_TRANSITIONS[RecordStatus(record.status)]:
            return record
        record.status = status
        # The game the record is of travels with its verdict, so a report by record can be refused for a
        # match of another game (games.matchplay.services.reports).
        record.verdict = bounded_verdict(
            verdict.as_dict(file=record.name)
            | {"variant": record_game(data, name=record.name), "settings": record_settings(data, name=record.name)}
        )
        record.verified_at = timezone.now()
        record.save(update_fields=["status", "verdict", "verified_at"])
        batches = (group_name("batch", pk) for pk in record.batches.values_list("pk", flat=True))
        notify_group(group_name("record", record.pk), *batches)  # its page and its upload's progress refetch
        if record.status == RecordStatus.VALID:
            analysis.analyse_if_allowed(record=record)  # only with everyone's consent (games.analysis)
    return record


# A verdict is stored as JSON and shown on the record page (paged): the readers' limits keep it small, and
# this keeps it so whatever the verifier finds. PostgreSQL cannot store NUL in jsonb, so none may reach it.
MAX_VERDICT_ERRORS = 1000
MAX_VERDICT_GAMES = 1000


def bounded_verdict(verdict: dict) -> dict:
    """The verdict with at most MAX_VERDICT_ERRORS errors and MAX_VERDICT_GAMES games (a note says how many
    more there were) and no control character in any text."""
    errors, games = verdict.get("errors", []), verdict.get("games", [])
    if len(errors) > MAX_VERDICT_ERRORS:
        verdict["errors_not_shown"] = len(errors) - MAX_VERDICT_ERRORS
        verdict["errors"] = errors[:MAX_VERDICT_ERRORS]
    if len(games) > MAX_VERDICT_GAMES:
        verdict["games_not_shown"] = len(games) - MAX_VERDICT_GAMES
        verdict["games"] = games[:MAX_VERDICT_GAMES]
    return _clean(verdict)


def _clean(value):
    if isinstance(value, str):
        return clean_text(value, multiline=True)
    if isinstance(value, dict):
        return {key: _clean(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_clean(item) for item in value]
    return value
