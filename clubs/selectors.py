"""Reads for clubs, players and memberships, scoped to what the asking user may see."""

from django.contrib.auth import get_user_model
from django.db.models import Exists, OuterRef, Q, QuerySet
from django.db.models.functions import Lower

from clubs import access
from clubs.models import BankAccount, Club, Membership, Player, Role, WalkInClaim


def player_for_user(user) -> Player | None:
    if not getattr(user, "is_authenticated", False):
        return None
    return Player.objects.filter(user=user).first()


def role_at_club(*, user, club: Club) -> str | None:
    """The user's role at the club through an accepted, active membership, or None (memoised: clubs.access)."""
    return access.role_at(user, club)


def has_club_role(*, user, club: Club, at_least: str) -> bool:
    return access.has_role(user, club, at_least)


def is_club_admin(*, user, club: Club) -> bool:
    return access.has_role(user, club, Role.ADMIN)


def is_club_director(*, user, club: Club) -> bool:
    return access.has_role(user, club, Role.DIRECTOR)


def directed_clubs(*, user) -> QuerySet[Club]:
    """The clubs the user directs (an active director or admin; every club for a superuser): where they create
    matches, events and Calcuttas."""
    clubs = Club.objects.all()
    if access.is_site_staff(user):
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
    if access.is_site_staff(user):
        return clubs
    if not getattr(user, "is_authenticated", False):
        return clubs.filter(is_public=True)
    member = Membership.objects.filter(club=OuterRef("pk"), player__user=user, is_active=True)
    return clubs.filter(Q(is_public=True) | Exists(member))


def can_see_club(*, user, club: Club) -> bool:
    """Whether the club is among those the user can see (a private club is hidden from outsiders)."""
    return visible_clubs(user=user).filter(pk=club.pk).exists()


def visible_club(*, user, slug: str) -> Club | None:
    """The club with that slug if the user can see it, else None."""
    return visible_clubs(user=user).filter(slug=slug).first()


def visible_player(*, user, pk: int) -> Player | None:
    """The player with that id if the user can see them, else None."""
    return visible_players(user=user).filter(pk=pk).first()


def visible_players(*, user) -> QuerySet[Player]:
    """Players who are active members of a club the user can see, plus the user's own player. An invitation (or
    a membership the player left) shows nobody: adding a stranger's player to one's own club must not reveal a
    private club's players."""
    players = Player.objects.all()
    if access.is_site_staff(user):
        return players
    in_visible_club = Membership.objects.filter(
        player=OuterRef("pk"), club__in=visible_clubs(user=user), is_active=True
    )
    condition = Exists(in_visible_club)
    if getattr(user, "is_authenticated", False):
        condition |= Q(user=user)
    return players.filter(condition)


def visible_memberships(*, user) -> QuerySet[Membership]:
    """Active memberships of the clubs the user can see; invitations and past memberships only to the player
    concerned and the club's directors."""
    memberships = Membership.objects.select_related("club", "player")
    if access.is_site_staff(user):
        return memberships
    shown = Q(is_active=True, club__in=visible_clubs(user=user))
    if access.is_signed_in(user):
        shown |= Q(player__user=user) | Q(club__in=directed_clubs(user=user))
    return memberships.filter(shown)


def invitations_for(*, user) -> QuerySet[Membership]:
    """The invitations waiting for the user's answer."""
    if not access.is_signed_in(user):
        return Membership.objects.none()
    return (
        Membership.objects.filter(player__user=user, status=Membership.Status.INVITED)
        .select_related("club", "invited_by")
        .order_by("-invited_at", "-id")
    )


def pending_claims(*, club: Club) -> QuerySet[WalkInClaim]:
    """Walk-in claims of the club's walk-ins waiting for a director."""
    return (
        WalkInClaim.objects.filter(player__created_by_club=club, status=WalkInClaim.Status.PENDING)
        .select_related("player", "user")
        .order_by("created_at", "id")
    )


def belongs_to(*, player: Player, club: Club) -> bool:
    """An active member by the player's own acceptance, or the club's own walk-in: the players a director of
    the club may act for (club-night matches, event entries)."""
    if player.created_by_club_id == club.pk:
        return True
    return Membership.objects.filter(club=club, player=player, is_active=True).exists()


def club_members(*, club: Club) -> QuerySet[Membership]:
    """The club's active members (accepted, by the database constraint), for member lists and pickers."""
    return club.memberships.filter(is_active=True).select_related("player").order_by("player__name")


def visible_claims(*, user) -> QuerySet[WalkInClaim]:
    """The user's own walk-in claims and those waiting at the clubs they direct."""
    claims = WalkInClaim.objects.select_related("player__created_by_club", "user").order_by("-created_at", "-id")
    if access.is_site_staff(user):
        return claims
    if not access.is_signed_in(user):
        return claims.none()
    return claims.filter(Q(user=user) | Q(player__created_by_club__in=directed_clubs(user=user)))


def club_with_member_count(*, pk: int) -> Club:
    """The club as the API answers it after a write: with its member count annotated."""
    return Club.objects.with_member_counts().get(pk=pk)


def members_of_visible_club(players: QuerySet[Player], *, user, slug: str) -> QuerySet[Player]:
    """The active members among `players` of the club `slug`, if the user can see that club: a private club's
    slug lists nobody to outsiders, even players they can see through another club."""
    members = Membership.objects.filter(
        player=OuterRef("pk"), club__slug=slug, club__in=visible_clubs(user=user), is_active=True
    )
    return players.filter(Exists(members))


def roles_by_club(*, player: Player) -> dict[str, str]:
    """The player's role per club slug, in the clubs they are an active member of."""
    return dict(player.memberships.filter(is_active=True).values_list("club__slug", "role"))


def player_memberships(*, player: Player, user) -> QuerySet[Membership]:
    """The player's accepted memberships in the clubs the user can see (a player page lists no private club)."""
    accepted = player.memberships.filter(club__in=visible_clubs(user=user), status=Membership.Status.ACCEPTED)
    return accepted.select_related("club")


def bank_accounts(*, player_ids) -> dict[int, BankAccount]:
    """The bank accounts of these players, by player id (private: for their own transfer codes only)."""
    return {a.player_id: a for a in BankAccount.objects.filter(player_id__in=list(player_ids))}


def bank_account(*, player) -> BankAccount | None:
    return BankAccount.objects.filter(player=player).first()


def club_bank_account(*, club) -> BankAccount | None:
    """The club's own account (private: its admins' page and the codes of what is owed to the club)."""
    return BankAccount.objects.filter(club=club).first()


def club_memberships_with_details(*, club: Club) -> list[Membership]:
    """Every membership of the club in any status (invited, declined, ended too), with its player and the player's
    account: what a member import matches its rows against. One query."""
    return list(club.memberships.select_related("player__user").order_by("pk"))


def players_with_account_emails(emails) -> dict[str, list[Player]]:
    """Lower-cased e-mail -> the players whose account has that address (case ignored). One query."""
    wanted = {e.lower() for e in emails if e}
    if not wanted:
        return {}
    email_field = get_user_model().get_email_field_name()
    found: dict[str, list[Player]] = {}
    rows = Player.objects.annotate(address=Lower(f"user__{email_field}")).filter(address__in=wanted)
    for player in rows.select_related("user").order_by("pk"):
        found.setdefault(player.address, []).append(player)
    return found


def player_by_pk(pk: int) -> Player:
    """A player by id (a member import's matched player, found by its plan in the same request)."""
    return Player.objects.get(pk=pk)


def own_memberships(*, user) -> list[Membership]:
    """The user's active memberships with their clubs, by club name (the calendar links page)."""
    if not access.is_signed_in(user):
        return []
    rows = Membership.objects.filter(player__user=user, is_active=True).select_related("club")
    return list(rows.order_by("club__name"))


def clubs_allowing_display_names(*, player: Player):
    """The clubs the player is an active member of whose pages show display names (the display name page lists
    them: elsewhere the player's name shows)."""
    return Club.objects.filter(
        memberships__player=player, memberships__is_active=True, allow_display_names=True
    ).order_by("name")
