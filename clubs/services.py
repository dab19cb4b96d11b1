"""Writes for clubs, players and memberships. Every function checks the actor's rights first, so the API,
the web pages and scripts share one set of rules."""

from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils.text import slugify
from django.utils.translation import gettext as _

from clubs import selectors
from clubs.models import Club, Membership, Player, Role

User = get_user_model()

CLUB_FIELDS = {"name", "slug", "city", "country", "description", "is_public"}
PLAYER_FIELDS = {"name", "country"}


def _unique_slug(base: str) -> str:
    base = slugify(base)[:50] or "club"
    slug, n = base, 2
    while Club.objects.filter(slug=slug).exists():
        slug, n = f"{base}-{n}", n + 1
    return slug


@transaction.atomic
def ensure_player_for_user(*, user) -> Player:
    """The user's player record, created on first need (a director is usually a player too)."""
    player = Player.objects.select_for_update().filter(user=user).first()
    if player is None:
        name = user.get_full_name() or user.get_username()
        player = Player.objects.create(user=user, name=name)
    return player


@transaction.atomic
def create_club(
    *,
    actor,
    name: str,
    slug: str = "",
    city: str = "",
    country: str = "",
    description: str = "",
    is_public: bool = True,
) -> Club:
    """Create a club; its creator becomes its first club admin."""
    if not name.strip():
        raise ValidationError({"name": [_("A club needs a name.")]})
    if slug and Club.objects.filter(slug=slug).exists():
        raise ValidationError({"slug": [_("Another club already uses this short name; choose a different one.")]})
    club = Club.objects.create(
        name=name.strip(),
        slug=slug or _unique_slug(name),
        city=city,
        country=country.upper(),
        description=description,
        is_public=is_public,
    )
    Membership.objects.create(club=club, player=ensure_player_for_user(user=actor), role=Role.ADMIN)
    return club


@transaction.atomic
def update_club(*, actor, club: Club, **fields) -> Club:
    if not selectors.is_club_admin(user=actor, club=club):
        raise PermissionDenied(_("Only an admin of this club can change it."))
    unknown = set(fields) - CLUB_FIELDS
    if unknown:
        raise ValidationError({name: [_("This field cannot be changed.")] for name in unknown})
    if "slug" in fields and Club.objects.exclude(pk=club.pk).filter(slug=fields["slug"]).exists():
        raise ValidationError({"slug": [_("Another club already uses this short name; choose a different one.")]})
    for name, value in fields.items():
        setattr(club, name, value.upper() if name == "country" else value)
    club.full_clean()
    club.save()
    return club


@transaction.atomic
def create_player(*, actor, club: Club, name: str, country: str = "", user=None, role: str = Role.PLAYER) -> Player:
    """Register a player at a club, e.g. a walk-in at a club night (no login needed)."""
    if not selectors.is_club_director(user=actor, club=club):
        raise PermissionDenied(_("Only a director or admin of this club can add players to it."))
    if role != Role.PLAYER and not selectors.is_club_admin(user=actor, club=club):
        raise PermissionDenied(_("Only a club admin can give a new member a director or admin role."))
    if not name.strip():
        raise ValidationError({"name": [_("A player needs a name.")]})
    if user is not None and Player.objects.filter(user=user).exists():
        raise ValidationError({"user": [_("This login already belongs to a player.")]})
    player = Player.objects.create(name=name.strip(), country=country.upper(), user=user)
    Membership.objects.create(club=club, player=player, role=role)
    return player


def can_edit_player(*, actor, player: Player) -> bool:
    if getattr(actor, "is_superuser", False) or (player.user_id and player.user_id == actor.pk):
        return True
    clubs = Club.objects.filter(memberships__player=player)
    return any(selectors.is_club_admin(user=actor, club=club) for club in clubs)


@transaction.atomic
def update_player(*, actor, player: Player, **fields) -> Player:
    if not can_edit_player(actor=actor, player=player):
        raise PermissionDenied(_("Only the player or an admin of one of the player's clubs can change this player."))
    unknown = set(fields) - PLAYER_FIELDS
    if unknown:
        raise ValidationError({name: [_("This field cannot be changed.")] for name in unknown})
    for name, value in fields.items():
        setattr(player, name, value.upper() if name == "country" else value)
    player.full_clean(exclude=["user"])
    player.save()
    return player


@transaction.atomic
def add_membership(*, actor, club: Club, player: Player, role: str = Role.PLAYER) -> Membership:
    if not selectors.is_club_admin(user=actor, club=club):
        raise PermissionDenied(_("Only an admin of this club can add members."))
    membership, created = Membership.objects.select_for_update().get_or_create(
        club=club, player=player, defaults={"role": role}
    )
    if not created:
        if membership.is_active:
            raise ValidationError({"player": [_("This player is already a member of the club.")]})
        membership.is_active, membership.role = True, role
        membership.save(update_fields=["is_active", "role"])
    return membership


@transaction.atomic
def update_membership(
    *, actor, membership: Membership, role: str | None = None, is_active: bool | None = None
) -> Membership:
    club = membership.club
    # Lock the club's admin rows before checking anything: two admins demoting each other at once must not
    # leave the club without one, and the second must see that the first has already lost the right to act.
    admins = list(
        Membership.objects.select_for_update()
        .filter(club=club, role=Role.ADMIN, is_active=True)
        .values_list("pk", flat=True)
    )
    if not selectors.is_club_admin(user=actor, club=club):
        raise PermissionDenied(_("Only an admin of this club can change memberships."))
    membership.refresh_from_db()
    new_role = role if role is not None else membership.role
    new_active = is_active if is_active is not None else membership.is_active
    losing_admin = membership.pk in admins and (new_role != Role.ADMIN or not new_active)
    if losing_admin and len(admins) == 1:
        raise ValidationError({"role": [_("A club must keep at least one admin: make someone else admin first.")]})
    membership.role, membership.is_active = new_role, new_active
    membership.save(update_fields=["role", "is_active"])
    return membership


@transaction.atomic
def create_user_with_player(*, username: str, password: str, name: str, email: str = "") -> Player:
    user = User.objects.create_user(username=username, password=password, email=email)
    return Player.objects.create(user=user, name=name)
