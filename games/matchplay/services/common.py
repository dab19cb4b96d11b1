"""What every match-play write shares: the match row lock, the rights checks, the status transitions and the
core's scoring refusals in the words of the form field."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from base.compiled import CompiledRead
from base.errors import Conflict, DomainError, Invalid
from base.locks import lock
from clubs import access
from games.matchplay import hooks, messages
from games.matchplay import state as core
from games.models.matches import (
    Match,
    MatchStatus,
)

NOT_ALLOWED_TO_REPORT = gettext_lazy("Only the players of this match and its directors can do this.")


_LOCKED_MATCH = CompiledRead(
    lambda pk: lock(Match.objects, of=("self",)).select_related("player_a", "player_b", "club").filter(pk=pk)[:1]
)


def lock_match(match: Match) -> Match:
    """Reload the match under a row lock. Every write below decides on state it reads after this line. The
    statement is compiled once per process (base.compiled): every report and confirmation sends it.

    An invitation not yet accepted is refused here, so no write on a match (start, games, reports, lateness,
    annulment) can reach it; only the invitation's own answers lock it, through `lock_invitation`."""
    locked = lock_invitation(match)
    if locked.status == MatchStatus.INVITED:
        raise Conflict(
            _("This match is an invitation: nothing can be played or reported before the invited player accepts it."),
            code="invitation_pending",
        )
    return locked


def lock_invitation(match: Match) -> Match:
    """The match under its row lock, whatever its status (accepting, declining or withdrawing an invitation)."""
    locked = _LOCKED_MATCH.first(match.pk)
    if locked is None:
        raise Match.DoesNotExist(f"Match {match.pk} does not exist.")
    return locked


def form_of(match: Match) -> core.Form:
    """How the match's games are scored (its variant and stakes), for the pure match-play core."""
    return core.Form(variant=match.variant, stakes=match.stakes, progression=match.dave_progression)


def scoring_error(field: str, exc: DomainError, match: Match) -> Invalid:
    """The core's refusal on the input it is about here (the same rule answers for the games, the final score or a
    record), translated and keeping the core's code, which the API answers with."""
    return Invalid(messages.readable(exc, match), code=exc.code, field=field)


def require_participant_or_director(actor, match: Match) -> None:
    access.require(actor, "match.play", match)


def require_director(actor, match: Match) -> None:
    access.require(actor, "match.direct", match)


def transition(match: Match, new_status: str) -> None:
    if not core.can_transition(match.status, new_status):
        raise Conflict(
            _("A match that is %(current)s cannot become %(new)s.")
            % {"current": match.get_status_display(), "new": MatchStatus(new_status).label},
            code="bad_transition",
        )
    match.status = new_status
    hooks.status_changed(match)
