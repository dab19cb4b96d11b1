"""A director's override: change a result after later matches started, voiding what followed."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from base.api import Conflict
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
        raise ValidationError({"comment": [_("Say why the result is overridden.")]})

    method = "final_score" if outcome in (MatchOutcome.PLAYED, MatchOutcome.LATENESS) else "no_play"
    if method == "final_score" and not scores:
        raise ValidationError({"scores": [_("Give the final score, or choose a forfeit or walkover.")]})
    match_services.submit_report(
        actor=actor,
        match=slot.match,
        method=method,
        outcome=outcome,
        scores=scores,
        winner_side=winner_side,
        comment=comment,
        as_director=True,
        origin=ReportOrigin.OVERRIDE,  # tells the result hook the director saw what this voids
    )
    BracketChange.objects.create(flight=slot.flight, slot=slot, actor=actor, kind="override", comment=comment)
    slot.refresh_from_db()
    return slot
