"""Writes for a match's result: reports and their versions, confirmations, disputes, and the results written
without play (annulled, walkover, lateness penalties)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.db.models import Count, Max, Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from base.compiled import CompiledRead
from base.errors import Conflict, DomainError, Invalid, NotAllowed
from clubs import access
from games.matchplay import hooks
from games.matchplay import state as core
from games.matchplay.services import common
from games.matchplay.services.play import scoresheet_state
from games.models.matches import (
    Match,
    MatchContext,
    MatchDispute,
    MatchOutcome,
    MatchReport,
    MatchStatus,
    ReporterRole,
    ReportMethod,
    ReportOrigin,
    ReportSource,
)
from games.models.records import GameRecord

# --- reports ---------------------------------------------------------------------------------------------


def later_match_started(match: Match) -> bool:
    """Has either player started a match after this one finished? Then only a director may correct it.

    A match reported by final score gets its start from the report; one stored before reports set a start has
    none, and its finish stands in for it."""
    since = match.finished_at or match.started_at
    if since is None:
        return False
    players = [match.player_a_id, match.player_b_id]
    return (
        Match.objects.exclude(pk=match.pk)
        .filter(Q(player_a__in=players) | Q(player_b__in=players))
        .filter(Q(started_at__gt=since) | Q(started_at__isnull=True, finished_at__gt=since))
        .exists()
    )


LATE_CORRECTION = gettext_lazy(
    "A later match of one of the players has started, so players can no longer correct this result: "
    "ask a director to override it."
)


def _refuse_late_correction(match: Match) -> int:
    """A player's correction (a new version after a confirmed one) is refused once a later match has started:
    what followed may depend on this result, so a director decides (and what followed is recomputed). Returns
    the match's highest version so far (0 for none), read in the same query, for `_new_report`."""
    seen = match.reports.aggregate(top=Max("version"), confirmed=Count("pk", filter=Q(confirmed=True)))
    if seen["confirmed"] and later_match_started(match):
        raise Conflict(LATE_CORRECTION, code="late_correction")
    return seen["top"] or 0


def _result_from_input(
    match: Match,
    *,
    method: str,
    outcome: str,
    scores: tuple[int, int] | None,
    winner_side: int | None,
    verdict: Mapping[str, Any] | None,
) -> tuple[int | None, tuple[int, int] | None, list[dict]]:
    """(winner side, final score, games) for a report, refusing what the rules do not allow."""
    penalties = (match.penalty_a, match.penalty_b)
    if method == ReportMethod.NO_PLAY:
        if outcome not in core.NO_PLAY_OUTCOMES:
            raise Invalid(_("Choose forfeit, walkover, no-show or double forfeit."), field="outcome")
        if outcome == MatchOutcome.DOUBLE_FORFEIT:
            return None, None, []
        if winner_side not in (0, 1):
            raise Invalid(_("Say who wins by %(outcome)s.") % {"outcome": outcome}, field="winner_side")
        return winner_side, None, []
    if outcome != MatchOutcome.PLAYED:
        raise Invalid(_("A result reported with a score is a played match."), field="outcome")
    if method == ReportMethod.GAMES:
        games = list(match.games.order_by("number"))
        try:
            final = scoresheet_state(match, games)
        except DomainError as exc:
            raise common.scoring_error("games", exc, match) from exc
        if not final.is_over:
            raise Invalid(
                _("The scoresheet stands at %(a)s–%(b)s in a %(n)s-point match: nobody has won yet.")
                % {"a": final.scores[0], "b": final.scores[1], "n": match.length},
                field="games",
            )
        snapshot = [
            {"number": g.number, "winner_side": g.winner_side, "kind": g.kind, "cube": g.cube, "points": g.points}
            for g in games
        ]
        return final.winner, final.scores, snapshot
    if method == ReportMethod.FINAL_SCORE:
        if scores is None:
            raise Invalid(_("Give the final score of both players."), field="scores")
        try:
            side = core.check_reported_score(
                length=match.length,
                scores=scores,
                penalties=penalties,
                crawford_rule=match.crawford_rule,
                form=common.form_of(match),
            )
        except DomainError as exc:
            raise common.scoring_error("scores", exc, match) from exc
        return side, tuple(scores), []
    if method == ReportMethod.RECORD:
        if verdict is None:
            raise Invalid(_("Choose a verified game record."), field="game_record")
        if verdict.get("variant", "standard") != match.record_game:
            raise Invalid(
                _("This record is of another game than the one this match is played in (%(game)s).")
                % {"game": match.variant_label},
                code="variant_mismatch",
                field="game_record",
            )
        refusal = match.settings_refusal(verdict.get("settings") or {})  # a verdict stored before it: none
        if refusal:
            message = _("This record is played with other settings than this match: %(settings)s.")
            raise Invalid(message % {"settings": refusal}, code="settings_mismatch", field="game_record")
        try:
            ordered = core.compare_record(
                verdict,
                player_names=(match.player_a.name, match.player_b.name),
                length=match.length,
                scores=scores,
                form=common.form_of(match),
            )
        except DomainError as exc:
            raise common.scoring_error("game_record", exc, match) from exc
        return (0 if ordered[0] >= match.length else 1), ordered, list(verdict.get("games") or [])
    raise Invalid(_("Report game by game, a final score, a game record, or a result without play."), field="method")


def _record_verdict(*, actor, match: Match, game_record_id: int) -> Mapping[str, Any]:
    """The verdict of a game record the actor may use: one they uploaded or one already linked to this match, and
    for a director of the match also one its players uploaded. Never anyone else's record: its verdict would
    tell a stranger the names and games in a private upload."""
    usable = Q(uploader=actor) | Q(match=match)
    if match.user_is_director(actor):
        usable |= Q(uploader__player__in=[match.player_a_id, match.player_b_id])
    record = GameRecord.objects.filter(usable, pk=game_record_id).first()
    if record is None or not isinstance(record.verdict, dict):
        raise Invalid(_("No verified game record with this number."), field="game_record")
    return record.verdict


@transaction.atomic
def submit_report(
    *,
    actor,
    match: Match,
    method: str,
    outcome: str = MatchOutcome.PLAYED,
    scores: tuple[int, int] | None = None,
    winner_side: int | None = None,
    verdict: Mapping[str, Any] | None = None,
    game_record_id: int | None = None,
    comment: str = "",
    source: str = ReportSource.WEB,
    ip_address: str | None = None,
    idempotency_key: str = "",
    as_director: bool = False,
    origin: str = ReportOrigin.MANUAL,
) -> tuple[MatchReport, bool]:
    """A new version of the result; returns (report, created). A director's report is confirmed at once
    (an override); a player's waits for the opponent. The same idempotency key returns the first report.
    `origin` is stored for the result hooks: OVERRIDE says the director saw what the change voids first."""
    # Race: two reports (or one report retried by a phone) arriving together would both read the same highest
    # version and the same "no report with this key yet"; the match row lock makes the second wait and see the first.
    match = common.lock_match(match)
    if idempotency_key:
        existing = match.reports.filter(idempotency_key=idempotency_key).order_by("pk").first()
        if existing is not None:
            return existing, False
    if as_director:
        access.require(actor, "match.override", match)
    access.require(actor, "match.play", match)
    is_participant = match.user_is_participant(actor)
    role = ReporterRole.DIRECTOR if (as_director or not is_participant) else ReporterRole.PLAYER
    if role == ReporterRole.PLAYER:
        if match.status == MatchStatus.ABANDONED and match.outcome == MatchOutcome.ANNULLED:
            raise Conflict(
                _("A director annulled this match; only a director can give it a result now."), code="annulled"
            )
        top = _refuse_late_correction(match)
    else:
        top = None
    if game_record_id is not None and verdict is None:
        verdict = _record_verdict(actor=actor, match=match, game_record_id=game_record_id)
    side, final, games = _result_from_input(
        match, method=method, outcome=outcome, scores=scores, winner_side=winner_side, verdict=verdict
    )
    if final is not None and match.started_at is None:
        # A played result means the match started; without this, a match reported by final score has no start
        # and "a later match has started" is never seen for the match before it. It cannot have started after
        # it finished, nor after this report.
        match.started_at = match.finished_at or timezone.now()
        match.save(update_fields=["started_at"])
    if outcome == MatchOutcome.PLAYED and (match.penalty_a or match.penalty_b):
        outcome = MatchOutcome.LATENESS
    report = _new_report(
        match,
        top=top,
        submitted_by=actor,
        role=role,
        source=source,
        origin=origin,
        method=method,
        outcome=outcome,
        winner=None if side is None else match.players[side],
        score_a=None if final is None else final[0],
        score_b=None if final is None else final[1],
        rated=core.is_rated(outcome),
        games=games,
        game_record_id=game_record_id,
        comment=comment,
        ip_address=ip_address,
        idempotency_key=idempotency_key,
    )
    if role == ReporterRole.DIRECTOR:
        _confirm(match=match, report=report, actor=actor)
    else:
        hooks.report_submitted(match, report)
    return report, True


def _confirm(*, match: Match, report: MatchReport, actor) -> None:
    """Make `report` the result (the match row must be locked by the caller)."""
    now = timezone.now()
    # Retire the others first: the partial unique constraint allows only one confirmed report at any moment.
    match.reports.exclude(pk=report.pk).filter(Q(confirmed=True) | Q(retired=False)).update(
        confirmed=False, retired=True
    )
    report.confirmed, report.retired, report.confirmed_by, report.confirmed_at = True, False, actor, now
    report.save(update_fields=["confirmed", "retired", "confirmed_by", "confirmed_at"])
    common.transition(match, core.status_for_outcome(report.outcome))
    match.outcome = report.outcome
    match.winner_id = report.winner_id
    match.score_a, match.score_b = report.score_a, report.score_b
    match.rated = report.rated
    match.finished_at = match.finished_at or now
    match.save(update_fields=["status", "outcome", "winner", "score_a", "score_b", "rated", "finished_at"])
    match.disputes.filter(resolved_at__isnull=True).update(resolved_at=now)
    hooks.result_confirmed(match, report)  # the steps that follow, in order, with their locks: config/pipeline.py


# confirm_report's read of the version asked and any confirmed one, compiled once per process (base.compiled).
_VERSION_OR_CONFIRMED = CompiledRead(
    lambda match_id, version: (
        MatchReport.objects.filter(Q(version=version) | Q(confirmed=True), match_id=match_id)
        .select_related("submitted_by")
        .order_by("-version")
    )
)


@transaction.atomic
def confirm_report(*, actor, match: Match, version: int) -> MatchReport:
    """The opponent of the reporter, or a director, confirms a version; confirming it again changes nothing."""
    # Race: two confirmations at once (the opponent and a director, or a double tap) must leave one confirmed
    # version; the lock makes the second see what the first did.
    match = common.lock_match(match)
    # One query for the version asked and whether any version is confirmed (a correction's check); the
    # reporter's name comes with it for the answer. Ordered by version, not by the model's default, which
    # orders by the match's fields and so joins the match table for nothing.
    found = _VERSION_OR_CONFIRMED.all(match.pk, version)
    for row in found:
        row.match = match  # as match.reports would have set it
    report = next((r for r in found if r.version == version), None)
    if report is None:
        raise Invalid(_("This match has no report version %(v)s.") % {"v": version}, field="version")
    if report.confirmed:
        return report
    access.require(actor, "match.play", match)
    # Only the reporter, or a correction of a confirmed result, makes it matter whether the actor directs the
    # match (three queries): the opponent confirming a first result is let through without asking.
    own, correction = report.submitted_by_id == actor.pk, len(found) > 1
    if (own or correction) and not match.user_is_director(actor):
        if own:
            raise NotAllowed(_("Your opponent (or a director) confirms what you reported, not you."))
        if later_match_started(match):
            raise Conflict(LATE_CORRECTION, code="late_correction")
    if report.retired:
        raise Conflict(
            _("Version %(v)s was replaced by a later one; confirm the current version.") % {"v": version},
            code="report_replaced",
        )
    _confirm(match=match, report=report, actor=actor)
    return report


@transaction.atomic
def dispute_report(*, actor, match: Match, version: int, comment: str) -> MatchDispute:
    match = common.lock_match(match)
    access.require(actor, "match.dispute", match)
    report = match.reports.filter(version=version).order_by("pk").first()
    if report is None:
        raise Invalid(_("This match has no report version %(v)s.") % {"v": version}, field="version")
    if report.submitted_by_id == actor.pk:
        raise NotAllowed(_("You cannot dispute your own report; report a corrected version instead."))
    if not comment.strip():
        raise Invalid(_("Say what is wrong with this result, so the director can decide."), field="comment")
    if report.retired:
        raise Conflict(_("Version %(v)s was already replaced by a later one.") % {"v": version}, code="report_replaced")
    if report.confirmed and later_match_started(match):
        raise Conflict(
            _("A later match has started: ask a director to correct this result."), code="later_match_started"
        )
    dispute = MatchDispute.objects.create(match=match, report=report, raised_by=actor, comment=comment.strip())
    if not has_directors(match) and report.is_pending:
        # Nobody directs a casual match without a club, so nobody would ever decide it: the disputed version is
        # set aside and the match goes back to both players to report again. The dispute stays open (both
        # players' home pages list it) until a version is confirmed.
        report.retired = True
        report.save(update_fields=["retired"])
    hooks.report_disputed(match, dispute)
    return dispute


def has_directors(match: Match) -> bool:
    """Does somebody direct this match (its club's directors, or a tournament's)? A casual match without a
    club has no director: its disputes go back to the players."""
    return match.club_id is not None or match.context == MatchContext.TOURNAMENT


@transaction.atomic
def annul_match(*, actor, match: Match, comment: str, source: str = ReportSource.WEB, ip_address=None) -> MatchReport:
    """A director declares the match void: a confirmed 'annulled' version with no winner; not rated."""
    match = common.lock_match(match)
    common.require_director(actor, match)
    if not comment.strip():
        raise Invalid(_("Give the reason for annulling the match."), field="comment")
    return _write_confirmed(
        actor=actor,
        match=match,
        role=ReporterRole.DIRECTOR,
        origin=ReportOrigin.MANUAL,
        outcome=MatchOutcome.ANNULLED,
        comment=comment.strip(),
        source=source,
        ip_address=ip_address,
    )


# What another app's rule may decide about a match without anyone reporting it.
CONSEQUENCES = (MatchOutcome.WALKOVER, MatchOutcome.ANNULLED)


@transaction.atomic
def record_consequence(
    *, actor, match: Match, origin: str, outcome: str, winner_side: int | None = None, comment: str
) -> MatchReport:
    """A result decided by another app's rule, confirmed at once in the name of the person whose action caused it:
    the walkover for a player who withdrew (origin SYSTEM, `actor` the player or the director who withdrew them),
    a match voided because an earlier result changed (origin BRACKET, `actor` whoever changed that result).

    Why not submit_report: a player who withdraws may not override their own match, yet their withdrawal decides
    it; signing it with some director's name would put words in that director's mouth. The caller has checked its
    own rule for `actor` (the withdrawal rule, the override rule); no match rule is asked here, so only services
    call this, never a view."""
    if origin not in (ReportOrigin.SYSTEM, ReportOrigin.BRACKET) or outcome not in CONSEQUENCES:
        raise ValueError(f"Not a consequence: {origin} {outcome}")
    match = common.lock_match(match)
    return _write_confirmed(
        actor=actor,
        match=match,
        role=ReporterRole.DIRECTOR if match.user_is_director(actor) else ReporterRole.PLAYER,
        origin=origin,
        outcome=outcome,
        winner=None if winner_side is None else match.players[winner_side],
        comment=comment,
    )


def _new_report(match: Match, *, top: int | None = None, **fields) -> MatchReport:
    """The match's next report version. The match row must be locked: two reports at once would otherwise take
    the same number. `top`: the highest version so far, when the caller read it under that lock already."""
    if top is None:
        top = match.reports.aggregate(top=Max("version"))["top"] or 0
    version = top + 1
    return MatchReport.objects.create(match=match, version=version, **fields)


def _write_confirmed(
    *, actor, match: Match, role: str, origin: str, outcome: str, comment: str, winner=None, **extra
) -> MatchReport:
    """A result without play as the next version, confirmed at once (the match row must be locked)."""
    report = _new_report(
        match,
        submitted_by=actor,
        role=role,
        origin=origin,
        method=ReportMethod.NO_PLAY,
        outcome=outcome,
        winner=winner,
        rated=False,
        comment=comment,
        **extra,
    )
    _confirm(match=match, report=report, actor=actor)
    return report


@transaction.atomic
def record_lateness(
    *, actor, match: Match, late_side: int, minutes_late: float, source: str = ReportSource.WEB
) -> Match:
    """Penalty points for a late player (before the first game); when they exceed half the length the opponent
    wins by forfeit."""
    match = common.lock_match(match)
    common.require_director(actor, match)
    if late_side not in (0, 1):
        raise Invalid(_("Say which player was late."), field="late_side")
    if match.status not in (MatchStatus.SCHEDULED, MatchStatus.IN_PROGRESS) or match.games.exists():
        raise Conflict(_("Lateness is recorded before the first game."), code="games_started")
    try:
        penalty = core.lateness_penalty(minutes_late)
    except DomainError as exc:
        raise common.scoring_error("minutes_late", exc, match) from exc
    if core.lateness_forfeits(penalty=penalty, length=match.length):
        submit_report(
            actor=actor,
            match=match,
            method=ReportMethod.NO_PLAY,
            outcome=MatchOutcome.FORFEIT,
            winner_side=1 - late_side,
            comment=_("%(minutes)s minutes late: %(points)s penalty points exceed half the match length.")
            % {"minutes": minutes_late, "points": penalty},
            source=source,
            as_director=True,
            origin=ReportOrigin.SYSTEM,
        )
        match.refresh_from_db()
        return match
    field = "penalty_a" if late_side == 0 else "penalty_b"
    setattr(match, field, penalty)
    match.save(update_fields=[field])
    return match
