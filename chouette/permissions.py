"""Who may do what at a chouette table (registered with clubs.access): services `require`, views and serializers
ask `can`; the helpers below name the questions the pages and the API ask most.

Why these rules: a table's money is private to the people who played for it and to the club's directors (a
stranger learns neither what a player owes nor that they played); seating needs the player's consent (they sit
down themselves, or a director of a club they belong to by their own acceptance seats them); and a player who
left the table (and was cashed out) no longer writes its games.
"""

from __future__ import annotations

from typing import NamedTuple

from django.core.exceptions import PermissionDenied
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from base.compiled import CompiledRead
from chouette.models import ChouetteSession, RequestKind, Seat, SeatStatus, TableRequest
from clubs import access
from clubs.access import is_director, is_member, player_of, rule
from clubs.models import Club, Player


class Seating(NamedTuple):
    """A player about to sit down at a table of `club` (what chouette.seat decides on)."""

    club: Club
    player: Player


class TakeBack(NamedTuple):
    """The last game of `session` about to be taken back (what chouette.take_back decides on): who entered it
    (`entered_by_id`, a user id) and the user of its box (`box_user_id`; None for a walk-in without an account)."""

    session: ChouetteSession
    entered_by_id: int | None
    box_user_id: int | None


class Balance(NamedTuple):
    """A player's lifetime balance at `club` (what chouette.see_balance decides on)."""

    club: Club
    player: Player


@rule("chouette.start", _("Only members of this club can start a chouette here."))
def start(user, club: Club) -> bool:
    return is_member(user, club)


@rule("chouette.seat", _("Each player sits down themselves; only a director of the club seats someone else."))
def seat(user, seating: Seating) -> bool:
    return seating.player.user_id == user.pk or is_director(user, seating.club)


# Asked before the table's lock on every game entered (base.compiled: compiled once per process).
_SEATED = CompiledRead(
    lambda session_id, user_id: Seat.objects.filter(session_id=session_id, player__user_id=user_id).exclude(
        status=SeatStatus.LEFT
    )
)


@rule(
    "chouette.play",
    _("Only the players at this table (not those who left) and the club's directors can do this."),
)
def play(user, session: ChouetteSession) -> bool:
    if is_director(user, session.club):
        return True
    seats = getattr(session, "locked_seats", None)  # read under the session lock by the services (read_seats)
    if seats is not None:
        return any(seat.player.user_id == user.pk and seat.status != SeatStatus.LEFT for seat in seats)
    return user.pk is not None and _SEATED.exists(session.pk, user.pk)


@rule(
    "chouette.take_back",
    _("Only the player who entered the game, the box of that game or a club director can take it back."),
)
def take_back(user, game: TakeBack) -> bool:
    """Two games were once taken back by a stray tap of someone else at the table: the ones who can tell the game
    was entered wrong are whoever entered it and the box who played everyone in it (and a director, who settles
    disputes). Anyone else at the table corrects the game instead, which shows what changes first and keeps the
    reason."""
    if user.pk is None:
        return False
    return user.pk in (game.entered_by_id, game.box_user_id) or is_director(user, game.session.club)


@rule("chouette.see_money", _("Only the players of this table and the club's directors see its money."))
def see_money(user, session: ChouetteSession) -> bool:
    known = getattr(session, "money_visible", None)  # answered already by selectors.visible_sessions
    if known is not None:
        return bool(known)
    return is_director(user, session.club) or session.seats.filter(player__user=user).exists()


@rule("chouette.see_balance", _("Only the player and the club's directors see a player's chouette balance."))
def see_balance(user, balance: Balance) -> bool:
    player = player_of(user)
    return (player is not None and player.pk == balance.player.pk) or is_director(user, balance.club)


@rule(
    "chouette.invite",
    _("Only the players at this table (not those who left) and the club's directors invite players to it."),
)
def invite(user, session: ChouetteSession) -> bool:
    return play(user, session)


@rule("chouette.approve", _("Only the player who opened this table and the club's directors approve join requests."))
def approve(user, session: ChouetteSession) -> bool:
    return (session.created_by_id is not None and session.created_by_id == user.pk) or is_director(user, session.club)


@rule("chouette.answer", _("Only the invited player answers an invitation to a table."))
def answer(user, request: TableRequest) -> bool:
    """An invitation is the invitee's to accept or decline: nobody answers it for them (a director seats a member
    directly if they must, but an invitation is a question to the player)."""
    return request.kind == RequestKind.INVITATION and request.player.user_id == user.pk


def directs(user, club: Club) -> bool:
    return access.is_director(user, club)


def may_play(user, session: ChouetteSession) -> bool:
    return access.can(user, "chouette.play", session)


def may_see_money(user, session: ChouetteSession) -> bool:
    return access.can(user, "chouette.see_money", session)


def may_take_back(user, game: TakeBack) -> bool:
    return access.can(user, "chouette.take_back", game)


def require_play(user, session: ChouetteSession) -> None:
    access.require(user, "chouette.play", session)


def may_approve(user, session: ChouetteSession) -> bool:
    return access.can(user, "chouette.approve", session)


def may_invite(user, session: ChouetteSession) -> bool:
    return access.can(user, "chouette.invite", session)


def require_invite(user, session: ChouetteSession) -> None:
    access.require(user, "chouette.invite", session)


def require_seat(user, club: Club, players) -> None:
    """Every player in `players` is one the user may seat (the refusal names those who must sit down
    themselves)."""
    refused = [p.name for p in players if not access.can(user, "chouette.seat", Seating(club, p))]
    if refused:
        raise PermissionDenied(
            gettext("%(names)s: each player sits down themselves; only a club director seats someone else.")
            % {"names": ", ".join(refused)}
        )
