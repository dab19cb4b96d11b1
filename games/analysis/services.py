"""Writes for engine analyses (docs/games.md, "Analysis of records"): asking for one, the worker's run with its
claim and progress, the consent switches, and the sweep that sends lost analyses again."""

from __future__ import annotations

import logging
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from backgammon.analysis import nn, nn_review, runner
from backgammon.analysis import review as engine
from backgammon.analysis.runner import PLIES, AnalysisFailed
from backgammon.matchfiles.mat import RecordFormatError, parse_mat
from base.errors import Conflict, NotAllowed
from base.live import group_name, notify_group
from base.locks import lock
from base.queue import enqueue_many_on_commit
from clubs import access
from clubs.models import AnalysisConsent, Club, Player
from games.analysis.selectors import refusal, sides_of
from games.models import AnalysisStatus, GameRecord, PlayerAnalysis, RecordAnalysis

logger = logging.getLogger(__name__)
ANALYSE_TASK = "games.analysis.tasks.analyse_game_record"  # sent by name: the tasks module imports this one
ENGINE = "gnubg"
BIGGEST_ERRORS = 10  # kept per analysis; the record page shows the first five
# A worker that died on an analysis this often: a verdict, not another try (one record cannot take workers down).
MAX_ATTEMPTS = 3


def default_plies() -> int:
    return int(settings.RECORD_ANALYSIS_PLIES)


def stale_claim() -> timedelta:
    """How long a running analysis may go without progress before its worker counts as dead: the engine's time
    limit and a minute (the engine is killed at its limit, so a claim older than that is a dead worker's)."""
    return timedelta(seconds=float(settings.RECORD_ANALYSIS_TIME_LIMIT) + 60)


def stale_queue() -> timedelta:
    return timedelta(seconds=settings.TASK_STALE_SECONDS)


def engine_name() -> str:
    """The engine new analyses are asked of (RECORD_ANALYSIS_ENGINE): on "auto" the program where it is
    installed, else the gnubg-nn package. An analysis keeps the engine it was asked of."""
    chosen = settings.RECORD_ANALYSIS_ENGINE
    if chosen == "auto":
        return ENGINE if runner.available() else nn.ENGINE
    return chosen


def _review_with_gnubg(data: bytes, plies: int, progress) -> engine.Review:
    time_limit = float(settings.RECORD_ANALYSIS_TIME_LIMIT)
    return engine.review_with_gnubg(data, plies=plies, on_progress=progress, time_limit=time_limit)


def _review_with_nn(data: bytes, plies: int, progress) -> engine.Review:
    return nn_review.review_with_nn(data, plies=plies, on_progress=progress)


# engine -> how it reviews a record's bytes at a ply, reporting each game done
REVIEWERS = {ENGINE: _review_with_gnubg, nn.ENGINE: _review_with_nn}


def request_analysis(*, record: GameRecord, plies: int | None = None) -> RecordAnalysis:
    """Queue the record's analysis at `plies` (the site's default), once: an analysis already queued, running or
    done is returned as it is; a failed one is queued again. Conflict with the reason when the record may not
    be analysed (not verified valid, no match, a player or the club has not allowed it)."""
    reason = refusal(record)
    if reason:
        raise Conflict(reason, code="analysis_not_allowed")
    chosen = engine_name()
    plies = default_plies() if plies is None else plies
    if chosen == nn.ENGINE:
        plies = min(plies, max(nn.PLIES))  # the package's deepest; deeper asks for the program
    with transaction.atomic():
        analysis, created = RecordAnalysis.objects.get_or_create(record=record, engine=chosen, plies=plies)
        if not created and analysis.status != AnalysisStatus.FAILED:
            return analysis
        if not created:  # failed before (the engine was missing, it timed out): try again from the start
            RecordAnalysis.objects.filter(pk=analysis.pk, status=AnalysisStatus.FAILED).update(
                status=AnalysisStatus.QUEUED, reason="", attempts=0, games_done=0, claimed_at=None
            )
        _queue([analysis.pk])
        notify_group(group_name("record", record.pk))
    analysis.refresh_from_db()
    return analysis


def request_deeper_analysis(*, actor, record: GameRecord, plies: int) -> RecordAnalysis:
    """A deeper analysis than the site's default, asked for on the record page by its uploader or a director of
    its match (record.analyse_deeper): queued once; an analysis already at that ply is kept as it is (its
    figures are another analysis's, never mixed with the default ply's)."""
    if plies not in PLIES or plies <= default_plies():
        raise Conflict(
            _("Ask for a ply deeper than %(plies)d, up to %(most)d.") % {"plies": default_plies(), "most": max(PLIES)},
            code="analysis_plies_unknown",
        )
    access.require(actor, "record.analyse_deeper", record)
    if engine_name() == nn.ENGINE:
        raise Conflict(
            _("Deeper plies need the GNU Backgammon program, which this site does not have."),
            code="analysis_plies_unknown",
        )
    return request_analysis(record=record, plies=plies)


def analyse_if_allowed(*, record: GameRecord) -> RecordAnalysis | None:
    """After verification: queue the analysis when everyone concerned allowed it; nothing otherwise."""
    if refusal(record):
        return None
    return request_analysis(record=record)


def _queue(ids: list[int]) -> None:
    RecordAnalysis.objects.filter(pk__in=ids).update(queued_at=timezone.now())
    enqueue_many_on_commit(ANALYSE_TASK, [(pk,) for pk in ids], on_failure=_mark_unsent)


def _mark_unsent(calls: list[tuple]) -> None:
    RecordAnalysis.objects.filter(pk__in=[pk for (pk,) in calls]).update(queued_at=None)


def _claim(analysis_id: int):
    """Claim-once (an UPDATE … WHERE): a queued analysis, or a running one whose worker went silent. Returns the
    claim's time, or None when another run has it or it is finished."""
    now = timezone.now()
    claimable = Q(status=AnalysisStatus.QUEUED) | Q(status=AnalysisStatus.RUNNING, claimed_at__lt=now - stale_claim())
    claimed = RecordAnalysis.objects.filter(claimable, pk=analysis_id).update(
        status=AnalysisStatus.RUNNING, claimed_at=now, attempts=F("attempts") + 1, games_done=0
    )
    return now if claimed == 1 else None


def _mine(analysis_id: int, claimed_at):
    """The analysis while this run still holds it (a run that outlived its claim writes nothing)."""
    return RecordAnalysis.objects.filter(pk=analysis_id, status=AnalysisStatus.RUNNING, claimed_at=claimed_at)


def _fail(analysis: RecordAnalysis, claimed_at, reason: str) -> None:
    with transaction.atomic():
        _mine(analysis.pk, claimed_at).update(
            status=AnalysisStatus.FAILED, reason=reason[:400], finished_at=timezone.now()
        )
        notify_group(group_name("record", analysis.record_id))


def run_analysis(*, analysis_id: int) -> RecordAnalysis | None:
    """The worker's run: claim, check consent again, run the engine with progress per game, store the figures.
    Returns the analysis, or None when another run holds it."""
    claimed_at = _claim(analysis_id)
    if claimed_at is None:
        return None
    analysis = RecordAnalysis.objects.select_related(
        "record__match__player_a", "record__match__player_b", "record__match__club"
    ).get(pk=analysis_id)
    record = analysis.record
    if analysis.attempts > MAX_ATTEMPTS:
        _fail(analysis, claimed_at, f"analysis failed: started {MAX_ATTEMPTS} times and never finished")
        return _reloaded(analysis)
    reason = refusal(record)
    if reason:  # consent withdrawn since it was queued: nothing runs
        _fail(analysis, claimed_at, reason)
        return _reloaded(analysis)
    try:
        with record.file.open("rb") as handle:
            data = handle.read()
    except OSError as error:
        _fail(analysis, claimed_at, f"analysis failed: the record's file could not be read ({error})")
        return _reloaded(analysis)

    def progress(done: int, total: int) -> None:
        with transaction.atomic():
            _mine(analysis_id, claimed_at).update(games_done=done, games_total=total)
            notify_group(group_name("record", record.pk))

    try:
        result = REVIEWERS[analysis.engine](data, analysis.plies, progress)
    except AnalysisFailed as failure:
        _fail(analysis, claimed_at, f"analysis failed: {failure}")
        return _reloaded(analysis)
    except Exception as error:  # a bug here must not leave the analysis running for ever
        logger.exception("analysis %s failed", analysis_id)
        _fail(analysis, claimed_at, f"analysis failed: {type(error).__name__}")
        return _reloaded(analysis)
    _store(analysis, claimed_at, result, lines=_decision_lines(data))
    return _reloaded(analysis)


def _decision_lines(data: bytes) -> dict[tuple[int, str, str], int]:
    """Where each decision stands in the record (nn_review.decision_lines), so the page links each biggest error to
    its line; nothing for a record that does not parse again (it was verified, so it does)."""
    try:
        return nn_review.decision_lines(parse_mat(data))
    except RecordFormatError:
        return {}


def _reloaded(analysis: RecordAnalysis) -> RecordAnalysis:
    analysis.refresh_from_db()
    return analysis


def _store(analysis: RecordAnalysis, claimed_at, result: engine.Review, *, lines: dict) -> None:
    players = sides_of(analysis.record)
    names = list((analysis.record.verdict or {}).get("players") or [])
    games = [
        {"number": number, "sides": [vars(side) for side in sides]} for number, sides in enumerate(result.games, 1)
    ]
    errors = [
        {
            "game": d.game,
            "index": d.index,
            "side": d.side,
            "kind": d.kind,
            "position": d.position,
            "score": list(d.score),
            "dice": list(d.dice),
            "played": d.played,
            "best": d.best,
            "loss": round(d.loss, 4),
            # a cube decision not taken (a missed double) stands on the line of the roll that followed
            "line": lines.get((d.game, d.kind, d.position)) or lines.get((d.game, "move", d.position)),
        }
        for d in result.decisions[:BIGGEST_ERRORS]
    ]
    with transaction.atomic():
        written = _mine(analysis.pk, claimed_at).update(
            status=AnalysisStatus.DONE,
            version=result.analysis.version[:32],
            met=result.analysis.met[:80],
            games=games,
            biggest_errors=errors,
            games_done=len(games),
            games_total=len(games),
            seconds=round(result.analysis.seconds, 2),
            finished_at=timezone.now(),
            reason="",
        )
        if not written:  # another run took it over meanwhile; it writes its own
            return
        PlayerAnalysis.objects.filter(analysis=analysis).delete()
        PlayerAnalysis.objects.bulk_create(
            PlayerAnalysis(
                analysis=analysis,
                side=side,
                name=str(names[side])[:120] if side < len(names) else figures.name,
                player=players[side],
                error_rate=figures.error_rate,
                checker_error_rate=figures.checker_error_rate,
                cube_error_rate=figures.cube_error_rate,
                error_total=figures.error_total,
                unforced_decisions=figures.unforced_decisions,
                errors=figures.errors,
                blunders=figures.very_bad,
                luck_total=figures.luck_total,
                luck_rate=figures.luck_rate,
                pr_like=figures.pr_like,
            )
            for side, figures in enumerate(result.analysis.players)
        )
        notify_group(group_name("record", analysis.record_id))


def _due() -> Q:
    now = timezone.now()
    lost_in_queue = Q(status=AnalysisStatus.QUEUED) & (Q(queued_at__isnull=True) | Q(queued_at__lt=now - stale_queue()))
    dead_worker = Q(status=AnalysisStatus.RUNNING, claimed_at__lt=now - stale_claim())
    return lost_in_queue | dead_worker


@transaction.atomic
def sweep_due_analyses(*, limit: int = 100) -> int:
    """core.sweep: send again the analyses whose task was lost (the broker was down) or whose worker died (its
    claim went silent). SKIP LOCKED and marked sent in this transaction: two sweeps never send one twice, and
    the task's claim runs an analysis sent twice once."""
    due = lock(RecordAnalysis.objects, skip_locked=True).filter(_due()).order_by("requested_at", "pk")
    ids = list(due.values_list("pk", flat=True)[:limit])
    _queue(ids)
    if ids:
        logger.warning("sweep: sent %d record analyses again", len(ids))
    return len(ids)


def set_player_consent(*, actor, player: Player, consent: str) -> Player:
    """A player's own "analyse my records" answer (yes / only for me / no): only the player, signed in as
    themself."""
    own = getattr(actor, "player", None) if getattr(actor, "is_authenticated", False) else None
    if own is None or own.pk != player.pk:
        raise NotAllowed(_("Only the player can change this."))
    if consent not in AnalysisConsent.values:
        raise Conflict(_("Choose yes, only for me or no."), code="analysis_consent_unknown")
    Player.objects.filter(pk=player.pk).update(analysis_consent=consent)
    player.analysis_consent = consent
    return player


def set_club_consent(*, actor, club: Club, allowed: bool, rank: bool | None = None) -> Club:
    """The club's switches: analyse the records of its matches, and rank its members by error rate (its admins:
    club.edit). `rank` None leaves the ranking switch as it is."""
    access.require(actor, "club.edit", club)
    changes: dict = {"analyse_records": allowed}
    if rank is not None:
        changes["rank_error_rates"] = rank
    Club.objects.filter(pk=club.pk).update(**changes)
    for name, value in changes.items():
        setattr(club, name, value)
    return club
