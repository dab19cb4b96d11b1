"""Reads for game records: who may see which record, and the progress of an upload."""

from __future__ import annotations

from django.db.models import Count, Prefetch, Q, QuerySet

from games.models import GameRecord, RecordStatus, UploadBatch


def visible_records(*, user) -> QuerySet[GameRecord]:
    """Staff see every record; others the ones they uploaded and those of their matches. (Uploading the same
    bytes again gives the uploader their own record: a batch never opens someone else's.)"""
    records = GameRecord.objects.select_related("uploader", "match")
    if not user.is_authenticated:
        return records.none()
    if user.is_staff or user.is_superuser:
        return records
    mine = Q(uploader=user)
    player = getattr(user, "player", None)
    if player is not None:
        mine |= Q(match__player_a=player) | Q(match__player_b=player)
    return records.filter(pk__in=GameRecord.objects.filter(mine).values("pk"))


def visible_batches(*, user) -> QuerySet[UploadBatch]:
    if not user.is_authenticated:
        return UploadBatch.objects.none()
    batches = (
        UploadBatch.objects.all() if user.is_staff or user.is_superuser else UploadBatch.objects.filter(uploader=user)
    )
    return batches.prefetch_related(Prefetch("records", queryset=GameRecord.objects.order_by("name", "id"))).annotate(
        total=Count("records"),
        done=Count("records", filter=Q(records__status__in=RecordStatus.finished())),
        valid=Count("records", filter=Q(records__status=RecordStatus.VALID)),
        invalid=Count("records", filter=Q(records__status=RecordStatus.INVALID)),
        unreadable=Count("records", filter=Q(records__status=RecordStatus.UNREADABLE)),
    )


def batch_records(*, batch: UploadBatch) -> list[GameRecord]:
    """The batch's records, from the prefetch of visible_batches when there is one."""
    return list(batch.records.all())


def record_lines(*, record: GameRecord) -> list[dict]:
    """The record's text line by line, each with the errors found on it (for highlighting on the page)."""
    from games.formats.mat import decode_text, split_lines

    try:
        with record.file.open("rb") as handle:
            text = decode_text(handle.read())
    except OSError:
        return []
    errors_by_line: dict[int, list[dict]] = {}
    for error in (record.verdict or {}).get("errors", []):
        errors_by_line.setdefault(error.get("line") or 0, []).append(error)
    return [
        {"number": number, "text": line, "errors": errors_by_line.get(number, [])}
        for number, line in enumerate(split_lines(text), start=1)
    ]
