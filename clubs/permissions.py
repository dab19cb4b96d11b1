"""Who may do what with clubs, players, memberships and walk-in claims (see clubs.access)."""

from django.utils.translation import gettext_lazy as _

from clubs.access import is_admin, is_director, is_member, is_signed_in, rule


@rule("club.create", _("Sign in to create a club."))
def create_club(user, obj) -> bool:
    return True


@rule("club.view", _("This club is private: only its members see it."), anonymous=True)
def view_club(user, club) -> bool:
    return club.is_public or is_member(user, club)


@rule("club.edit", _("Only an admin of this club can change it."))
def edit_club(user, club) -> bool:
    return is_admin(user, club)


@rule("club.direct", _("Only a director or admin of this club can do this."))
def direct_club(user, club) -> bool:
    return is_director(user, club)


@rule("club.approve", _("Only site staff approve clubs for the overall rating list."))
def approve_club(user, club) -> bool:
    return False  # site staff pass every rule before it is asked


@rule("player.create", _("Only a director or admin of this club can add walk-in players to it."))
def create_walk_in(user, club) -> bool:
    return is_director(user, club)


@rule(
    "player.edit",
    _("A player with an account is changed only by that person; a walk-in only by the club that registered it."),
)
def edit_player(user, player) -> bool:
    if player.user_id is not None:
        return player.user_id == user.pk
    return player.created_by_club_id is not None and is_director(user, player.created_by_club)


@rule("membership.invite", _("Only a director or admin of this club can invite players."))
def invite(user, club) -> bool:
    return is_director(user, club)


@rule("membership.edit", _("Only an admin of this club can change memberships."))
def edit_membership(user, membership) -> bool:
    return is_admin(user, membership.club)


@rule("membership.respond", _("Only the invited player answers an invitation."))
def respond(user, membership) -> bool:
    return membership.player.user_id is not None and membership.player.user_id == user.pk


@rule("membership.leave", _("Only the player leaves a club, or an admin of the club ends the membership."))
def leave(user, membership) -> bool:
    return membership.player.user_id == user.pk or is_admin(user, membership.club)


@rule("walk_in.claim", _("Only a walk-in player (no account yet) registered by a club can be claimed."))
def claim_walk_in(user, player) -> bool:
    return is_signed_in(user) and player.user_id is None and player.created_by_club_id is not None


@rule("walk_in.decide", _("Only a director or admin of the club that registered this walk-in decides the claim."))
def decide_claim(user, claim) -> bool:
    return is_director(user, claim.club)
