"""Who may do what with matches (see clubs.access)."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext_lazy as _

from clubs import selectors as club_selectors
from clubs.access import is_director, player_of, rule
from clubs.models import Club, Player
from games.models.matches import MatchContext


@dataclass(frozen=True)
class MatchDraft:
    """A match about to be created: what match.create decides on."""

    player_a: Player
    player_b: Player
    context: str
    club: Club | None


@rule(
    "match.create",
    _(
        "A director creates matches at their club, between players of the club (accepted members or its walk-ins); "
        "players create casual matches they play in, attached to a club only when both belong to it."
    ),
)
def create_match(user, draft: MatchDraft) -> bool:
    players = (draft.player_a, draft.player_b)
    if draft.club is not None:
        in_club = all(club_selectors.belongs_to(player=p, club=draft.club) for p in players)
        if not in_club:
            return False  # nobody attaches strangers' matches to a club (its pool, its standings)
        if is_director(user, draft.club):
            return True
    if draft.context != MatchContext.CASUAL:
        return False
    own = player_of(user)
    return own is not None and own.pk in (draft.player_a.pk, draft.player_b.pk)


@rule("match.play", _("Only the players of this match and its directors can do this."))
def play(user, match) -> bool:
    return match.user_is_participant(user) or match.user_is_director(user)


@rule("match.dispute", _("Only the players of this match can dispute its result."))
def dispute(user, match) -> bool:
    return match.user_is_participant(user)


@rule("match.override", _("Only a director or admin of this match's club can override a result."))
def override(user, match) -> bool:
    return match.user_is_director(user)


@rule("match.direct", _("Only a director or admin of this match's club can do this."))
def direct(user, match) -> bool:
    return match.user_is_director(user)


@rule("match.accept", _("Only the invited player can accept this invitation."))
def accept(user, match) -> bool:
    return match.user_is_invitee(user)


@rule("match.decline", _("Only the invited player can decline this invitation."))
def decline(user, match) -> bool:
    return match.user_is_invitee(user)


@rule("match.withdraw", _("Only the player who sent this invitation can withdraw it."))
def withdraw(user, match) -> bool:
    return match.user_is_inviter(user)
