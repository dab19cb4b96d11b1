"""A director's override: change a result after later matches started, voiding what followed.

Everything an override locks belongs to its event: the match, the bracket slots, the event's boards, its
Calcutta and its points. Two overrides on one event line up on those rows (and their cascades meet in the
same later slots); overrides on different events never wait for each other — the rating pools they share are
asked for a recompute without a row lock (ratings.services.pools.defer_recompute).
`tests/services/test_override_race.py` proves both on PostgreSQL."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from base.errors import Conflict, Invalid
from clubs import access
from games.matchplay import services as match_services
from games.models.matches import MatchOutcome, ReportOrigin
from tournaments.models import BracketChange, Slot
from tournaments.services.progression import BracketStore, Step


def override_preview(*, actor, slot: Slot) -> list[Step]:
    """Which later matches a changed result for `slot` would void (started ones included)."""
    access.require(actor, "event.direct", slot.flight.event)
    return BracketStore(slot.flight.event, actor=actor).cascade(slot, include_self=False)


@transaction.atomic
def override_result(
    *, actor, slot: Slot, winner_side: int | None, outcome: str = MatchOutcome.PLAYED, scores=None, comment: str = ""
) -> Slot:
    """A director sets the result of a bracket match even after later matches started; what followed is voided
    (shown first by override_preview) and the players are routed again."""
    access.require(actor, "event.direct", slot.flight.event)
    if slot.match_id is None:
        raise Conflict(_("This slot has no match to give a result to."), code="no_match")
    if not comment.strip():
        raise Invalid(_("Say why the result is overridden."), field="comment")
    director_result(
        actor=actor, match=slot.match, winner_side=winner_side, outcome=outcome, scores=scores, comment=comment
    )
    BracketChange.objects.create(flight=slot.flight, slot=slot, actor=actor, kind="override", comment=comment)
    slot.refresh_from_db()
    return slot


def director_result(*, actor, match, winner_side: int | None, outcome: str, scores, comment: str) -> None:
    """A director's result that the result hook takes as seen and meant (origin OVERRIDE): a bracket override,
    or a correction of a round's table after later rounds were paired."""
    method = "final_score" if outcome in (MatchOutcome.PLAYED, MatchOutcome.LATENESS) else "no_play"
    if method == "final_score" and not scores:
        raise Invalid(_("Give the final score, or choose a forfeit or walkover."), field="scores")
    # The score decides the winner; a side that contradicts it would store a result other than the one the
    # director meant (and saw in the preview).
    contradicted = method == "final_score" and winner_side is not None and scores[0] != scores[1]
    if contradicted and winner_side != (0 if scores[0] > scores[1] else 1):
        raise Invalid(
            _("The winner must be the player with more points: change the score or the winner."), field="winner_side"
        )
    match_services.submit_report(
        actor=actor,
        match=match,
        method=method,
        outcome=outcome,
        scores=scores,
        winner_side=winner_side,
        comment=comment,
        as_director=True,
        origin=ReportOrigin.OVERRIDE,  # tells the result hook the director saw what this voids
    )
