"""Who may do what at a chouette table, in one place: services refuse with `require_*`, views and serializers
ask the `may_*` predicates.

Why these rules: a table's money is private to the people who played for it and to the club's directors (a
stranger learns neither what a player owes nor that they played); seating needs the player's consent (they sit
down themselves, or a director of a club they belong to seats them); and a player who left the table (and was
cashed out) no longer writes its games.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.utils.translation import gettext as _

from chouette.models import ChouetteSession, SeatStatus
from clubs import selectors as club_selectors
from clubs.models import Club, Player


def _signed_in(user) -> bool:
    return bool(getattr(user, "is_authenticated", False))


def directs(user, club: Club) -> bool:
    """A director or admin of the club (site superusers too); remembered on the user object for the request."""
    if not _signed_in(user):
        return False
    memo = user.__dict__.setdefault("_chouette_directs", {})
    if club.pk not in memo:
        memo[club.pk] = club_selectors.is_club_director(user=user, club=club)
    return memo[club.pk]


def may_play(user, session: ChouetteSession) -> bool:
    """Enter, correct and undo games, set the order, seat changes, settle: the players at the table (seated or
    sitting out, not those who left) and the club's directors."""
    if not _signed_in(user):
        return False
    if directs(user, session.club):
        return True
    return session.seats.filter(player__user=user).exclude(status=SeatStatus.LEFT).exists()


def may_see_money(user, session: ChouetteSession) -> bool:
    """Stakes, money totals, cash-outs and the settlement: everyone who sat at this table (also after leaving)
    and the club's directors."""
    if not _signed_in(user):
        return False
    known = getattr(session, "money_visible", None)  # answered already by selectors.visible_sessions
    if known is not None:
        return bool(known)
    return directs(user, session.club) or session.seats.filter(player__user=user).exists()


def may_seat(user, club: Club, player: Player) -> bool:
    """A player sits down themselves; a director seats a member of their club (membership is checked apart)."""
    if not _signed_in(user):
        return False
    return player.user_id == user.pk or directs(user, club)


def may_see_balance(user, player: Player, club: Club) -> bool:
    """A player's lifetime balance at a club: the player and the club's directors."""
    if not _signed_in(user):
        return False
    return player.user_id == user.pk or directs(user, club)


def require_play(user, session: ChouetteSession) -> None:
    if not may_play(user, session):
        raise PermissionDenied(
            _("Only the players at this table (not those who left) and the club's directors can do this.")
        )


def require_seat(user, club: Club, players) -> None:
    refused = [p.name for p in players if not may_seat(user, club, p)]
    if refused:
        raise PermissionDenied(
            _("%(names)s: each player sits down themselves; only a club director seats someone else.")
            % {"names": ", ".join(refused)}
        )
