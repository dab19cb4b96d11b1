"""Reads for game records: who may see which record, and the progress of an upload."""

from __future__ import annotations

from django.core.paginator import Page, Paginator
from django.db.models import Count, Prefetch, Q, QuerySet
from django.db.models.fields.json import KeyTransform

from backgammon.matchfiles.mat import decode_text, split_lines
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


# The record page shows long verdicts and long files in pages: a 40,000-game file made a 32 MB page.
VERDICT_PAGE = 100
LINES_PAGE = 500


def _page(items: list, number) -> Page:
    return Paginator(items, VERDICT_PAGE).get_page(number)


def record_page(*, record: GameRecord, errors_page=None, games_page=None, lines_page=None) -> dict:
    """One page each of the verdict's errors, its games and the record's text (each line with its errors and
    whether a warning points at it, for highlighting).

    Each error knows the page of the text its line is on, so its link finds the line whatever page is shown.
    """
    verdict = record.verdict or {}
    errors = _page(verdict.get("errors", []), errors_page)
    games = _page(verdict.get("games", []), games_page)
    lines = Paginator(_record_text_lines(record), LINES_PAGE).get_page(lines_page)
    first = lines.start_index() if lines.paginator.count else 1
    errors_by_line: dict[int, list[dict]] = {}
    for error in verdict.get("errors", []):
        errors_by_line.setdefault(error.get("line") or 0, []).append(error)
    warned = {warning.get("line") for warning in verdict.get("warnings", [])}
    return {
        "errors": [{**error, "lines_page": line_page(error.get("line"))} for error in errors],
        "warnings": [{**w, "lines_page": line_page(w.get("line"))} for w in verdict.get("warnings", [])],
        "errors_page": errors,
        "errors_not_shown": verdict.get("errors_not_shown", 0),
        "games": list(games),
        "games_page": games,
        "lines": [
            {"number": number, "text": line, "errors": errors_by_line.get(number, []), "warned": number in warned}
            for number, line in enumerate(lines, start=first)
        ],
        "lines_page": lines,
        # Each pager keeps the other two where they are.
        "errors_keep": f"&games={games.number}&lines={lines.number}",
        "games_keep": f"&errors={errors.number}&lines={lines.number}",
        "lines_keep": f"&errors={errors.number}&games={games.number}",
    }


def line_page(line) -> int:
    """The page of the record's text (LINES_PAGE lines each) that holds `line`."""
    return (int(line) - 1) // LINES_PAGE + 1 if isinstance(line, int) and line > 0 else 1


def _record_text_lines(record: GameRecord) -> list[str]:
    try:
        with record.file.open("rb") as handle:
            return split_lines(decode_text(handle.read()))
    except OSError:
        return []


def records_for_report(*, user, match) -> list[GameRecord]:
    """The verified records a user may report `match` with, newest first: the match page offers them in a
    picker instead of asking for a record number. Mirrors services.reports._record_verdict: the user's own uploads and
    records already linked to the match (a director also sees the players' uploads)."""
    if not getattr(user, "is_authenticated", False):
        return []
    usable = Q(uploader=user) | Q(match=match)
    if match.user_is_director(user):
        usable |= Q(uploader__player__in=[match.player_a_id, match.player_b_id])
    return list(
        GameRecord.objects.filter(usable, status=RecordStatus.VALID)
        .only("pk", "name", "created_at", "verdict")
        .order_by("-created_at", "-pk")[:50]
    )


def records_for_list(*, user) -> QuerySet[GameRecord]:
    """Visible records with what the list shows of each verdict (players, length, final score), read inside
    the database: a verdict can hold thousands of games, and the list needs three of its keys."""
    return (
        visible_records(user=user)
        .defer("verdict")
        .annotate(
            verdict_players=KeyTransform("players", "verdict"),
            verdict_length=KeyTransform("match_length", "verdict"),
            verdict_score=KeyTransform("final_score", "verdict"),
        )
        .order_by("-created_at", "-pk")
    )
