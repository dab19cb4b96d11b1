"""Reads for clubs, players and memberships, scoped to what the asking user may see."""

from django.db.models import Exists, OuterRef, Q, QuerySet

from clubs.models import ROLE_RANK, Club, Membership, Player, Role


def player_for_user(user) -> Player | None:
    if not getattr(user, "is_authenticated", False):
        return None
    return Player.objects.filter(user=user).first()


def role_at_club(*, user, club: Club) -> str | None:
    """The user's active role at the club, or None."""
    if not getattr(user, "is_authenticated", False):
        return None
    return (
        Membership.objects.filter(club=club, player__user=user, is_active=True).values_list("role", flat=True).first()
    )


def has_club_role(*, user, club: Club, at_least: str) -> bool:
    if getattr(user, "is_superuser", False):
        return True
    role = role_at_club(user=user, club=club)
    return role is not None and ROLE_RANK[Role(role)] >= ROLE_RANK[Role(at_least)]


def is_club_admin(*, user, club: Club) -> bool:
    return has_club_role(user=user, club=club, at_least=Role.ADMIN)


def is_club_director(*, user, club: Club) -> bool:
    return has_club_role(user=user, club=club, at_least=Role.DIRECTOR)


def directed_clubs(*, user) -> QuerySet[Club]:
    """The clubs the user directs (an active director or admin; every club for a superuser): where they create
    matches, events and Calcuttas."""
    clubs = Club.objects.all()
    if getattr(user, "is_superuser", False):
        return clubs
    if not getattr(user, "is_authenticated", False):
        return clubs.none()
    directs = Membership.objects.filter(
        club=OuterRef("pk"), player__user=user, is_active=True, role__in=[Role.DIRECTOR, Role.ADMIN]
    )
    return clubs.filter(Exists(directs))


def visible_clubs(*, user) -> QuerySet[Club]:
    """Public clubs for everyone; private ones only to their members (and superusers)."""
    clubs = Club.objects.all()
    if getattr(user, "is_superuser", False):
        return clubs
    if not getattr(user, "is_authenticated", False):
        return clubs.filter(is_public=True)
    member = Membership.objects.filter(club=OuterRef("pk"), player__user=user, is_active=True)
    return clubs.filter(Q(is_public=True) | Exists(member))


def visible_players(*, user) -> QuerySet[Player]:
    """Players who belong to a club the user can see, plus the user's own player."""
    players = Player.objects.all()
    if getattr(user, "is_superuser", False):
        return players
    in_visible_club = Membership.objects.filter(player=OuterRef("pk"), club__in=visible_clubs(user=user))
    condition = Exists(in_visible_club)
    if getattr(user, "is_authenticated", False):
        condition |= Q(user=user)
    return players.filter(condition)


def visible_memberships(*, user) -> QuerySet[Membership]:
    return Membership.objects.filter(club__in=visible_clubs(user=user)).select_related("club", "player")


def club_members(*, club: Club) -> QuerySet[Membership]:
    return club.memberships.filter(is_active=True).select_related("player").order_by("player__name")
