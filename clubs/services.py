"""Writes for clubs, players and memberships. Every function checks the actor's rights first, so the API,
the web pages and scripts share one set of rules."""

import unicodedata

from django.contrib.admin.utils import NestedObjects
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from base import epc, messages, paylinks
from base.errors import Conflict, Invalid, NotAllowed
from base.locks import lock
from clubs import access, hooks
from clubs.models import DISPLAY_NAME_MAX, BankAccount, Club, Membership, Player, Role, WalkInClaim

User = get_user_model()

CLUB_FIELDS = {"name", "slug", "city", "country", "description", "is_public", "allow_display_names"}
PLAYER_FIELDS = {"name", "country", "federation_id", "display_name"}


def _unique_slug(base: str) -> str:
    base = slugify(base)[:50] or "club"
    slug, n = base, 2
    while Club.objects.filter(slug=slug).exists():
        slug, n = f"{base}-{n}", n + 1
    return slug


@transaction.atomic
def ensure_player_for_user(*, user) -> Player:
    """The user's player record, created on first need (a director is usually a player too)."""
    player = lock(Player.objects).filter(user=user).first()
    if player is None:
        name = user.get_full_name() or user.get_username()
        player = Player.objects.create(user=user, name=name)
    return player


def _slug_taken() -> Conflict:
    """A short name another club has: the state of things, answered 409 `conflict` by the API (base.api)."""
    text = _("Another club already uses this short name; choose a different one.")
    return Conflict(text, code="conflict", field="slug")


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
    allow_display_names: bool = False,
) -> Club:
    """Create a club; its creator becomes its first club admin. Anyone signed in may: a new club's directors
    decide results for the overall rating list only once site staff approve the club."""
    access.require(actor, "club.create")
    if not name.strip():
        raise Invalid(_("A club needs a name."), field="name")
    if slug and Club.objects.filter(slug=slug).exists():
        raise _slug_taken()
    club = Club.objects.create(
        name=name.strip(),
        slug=slug or _unique_slug(name),
        city=city,
        country=country.upper(),
        description=description,
        is_public=is_public,
        allow_display_names=allow_display_names,
    )
    Membership.objects.create(club=club, player=ensure_player_for_user(user=actor), role=Role.ADMIN)
    return club


@transaction.atomic
def update_club(*, actor, club: Club, **fields) -> Club:
    access.require(actor, "club.edit", club)
    unknown = set(fields) - CLUB_FIELDS
    if unknown:
        message = _("This field cannot be changed.")
        raise Invalid(message, errors={name: [message] for name in unknown})
    if "slug" in fields and Club.objects.exclude(pk=club.pk).filter(slug=fields["slug"]).exists():
        raise _slug_taken()
    names_before = club.allow_display_names
    for name, value in fields.items():
        setattr(club, name, value.upper() if name == "country" else value)
    club.full_clean()
    club.save()
    if club.allow_display_names != names_before:
        hooks.display_names_switched(club)
    return club


@transaction.atomic
def create_player(
    *, actor, club: Club, name: str, country: str = "", federation_id: str = "", user=None, role: str = Role.PLAYER
) -> Player:
    """Register a walk-in player of the club (no account): the club created it, so the club edits it, and it is an
    accepted member at once. A person with an account joins by accepting an invitation instead (invite)."""
    access.require(actor, "player.create", club)
    if role != Role.PLAYER:
        access.require(actor, "club.edit", club, _("Only a club admin can give a new member a director or admin role."))
    if user is not None:
        raise Invalid(_("A player with an account joins by accepting an invitation."), field="user")
    if not name.strip():
        raise Invalid(_("A player needs a name."), field="name")
    player = Player.objects.create(
        name=name.strip(), country=country.upper(), federation_id=federation_id.strip(), created_by_club=club
    )
    Membership.objects.create(club=club, player=player, role=role, status=Membership.Status.ACCEPTED)
    return player


@transaction.atomic
def update_player(*, actor, player: Player, **fields) -> Player:
    access.require(actor, "player.edit", player)
    unknown = set(fields) - PLAYER_FIELDS
    if unknown:
        message = _("This field cannot be changed.")
        raise Invalid(message, errors={name: [message] for name in unknown})
    if "display_name" in fields:
        fields["display_name"] = clean_display_name(fields["display_name"])
    shown_before = (player.name, player.display_name)
    for name, value in fields.items():
        setattr(player, name, value.upper() if name == "country" else value)
    player.full_clean(exclude=["user"])
    player.save()
    if (player.name, player.display_name) != shown_before:
        hooks.player_renamed(player)
    return player


def clean_display_name(value) -> str:
    """A display name as kept: "" (or None) for none (public pages show the name); otherwise 1 to 40 visible
    characters with no control or direction-changing characters (a name that shows as nothing, or that turns the
    text around it, is refused), spaces at the ends removed."""
    if value is None or value == "":
        return ""
    text = str(value).strip()
    if not text:
        raise Invalid(_("A display name cannot be only spaces: leave it empty to show your name."),
                      field="display_name")  # fmt: skip
    if len(text) > DISPLAY_NAME_MAX:
        raise Invalid(_("A display name has at most %(n)s characters.") % {"n": DISPLAY_NAME_MAX},
                      field="display_name")  # fmt: skip
    if any(unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp") for c in text):
        raise Invalid(_("A display name cannot hold line breaks, tabs or invisible characters."),
                      field="display_name")  # fmt: skip
    if not any(c.isalnum() for c in text):
        raise Invalid(_("A display name needs a letter or a digit."), field="display_name")
    return text


@transaction.atomic
def invite(
    *, actor, club: Club, player: Player | None = None, username: str = "", role: str = Role.PLAYER
) -> Membership:
    """A director invites a person (by username, or an existing player) to join the club; the membership counts
    only once the invitee accepts. The club's own walk-in needs nobody's consent (it is accepted at once)."""
    access.require(actor, "membership.invite", club)
    if role != Role.PLAYER:
        access.require(actor, "club.edit", club, _("Only a club admin can give a member a director or admin role."))
    if player is None:
        player = _player_for_username(username)
    own_walk_in = player.user_id is None and player.created_by_club_id == club.pk
    if player.user_id is None and not own_walk_in:
        raise Invalid(
            _("This player has no account to accept an invitation and is not a walk-in of this club."), field="player"
        )
    membership, created = lock(Membership.objects).get_or_create(
        club=club, player=player, defaults={"role": role, "status": Membership.Status.INVITED, "is_active": False}
    )
    if not created and membership.is_active:
        raise Invalid(_("This player is already a member of the club."), field="player")
    if not created and membership.status == Membership.Status.INVITED:
        raise Invalid(_("This player is already invited; the invitation waits for an answer."), field="player")
    membership.role = role
    membership.invited_by, membership.invited_at = actor, timezone.now()
    if own_walk_in:
        membership.status, membership.is_active = Membership.Status.ACCEPTED, True
    else:
        membership.status, membership.is_active = Membership.Status.INVITED, False
    membership.save()
    return membership


def _player_for_username(username: str) -> Player:
    user = User.objects.filter(**{User.USERNAME_FIELD: (username or "").strip()}).first()
    if user is None:
        raise Invalid(_("No user has this username; check the spelling."), field="username")
    return ensure_player_for_user(user=user)


@transaction.atomic
def respond_to_invitation(*, actor, membership: Membership, accept: bool) -> Membership:
    """The invitee accepts (the membership becomes active) or declines (it stays, declined, and can be invited
    again)."""
    membership = lock(Membership.objects).select_related("player", "club").get(pk=membership.pk)
    access.require(actor, "membership.respond", membership)
    if membership.status != Membership.Status.INVITED:
        raise Invalid(_("This invitation was already answered."), field="status")
    if accept:
        membership.status, membership.is_active = Membership.Status.ACCEPTED, True
    else:
        membership.status, membership.is_active = Membership.Status.DECLINED, False
    membership.save(update_fields=["status", "is_active"])
    return membership


@transaction.atomic
def update_membership(
    *, actor, membership: Membership, role: str | None = None, is_active: bool | None = None
) -> Membership:
    club = membership.club
    # Lock the club's admin rows before checking anything: two admins demoting each other at once must not
    # leave the club without one, and the second must see that the first has already lost the right to act.
    admins = list(
        lock(Membership.objects).filter(club=club, role=Role.ADMIN, is_active=True).values_list("pk", flat=True)
    )
    leaving = role is None and is_active is False
    if not (leaving and access.can(actor, "membership.leave", membership)):
        access.require(actor, "membership.edit", membership)
    membership.refresh_from_db()
    new_role = role if role is not None else membership.role
    new_active = is_active if is_active is not None else membership.is_active
    if new_active and not membership.is_active:
        # Whoever left, declined or was never asked joins again only by their own consent.
        raise Invalid(_("Invite the player again: the membership counts once they accept."), field="is_active")
    losing_admin = membership.pk in admins and (new_role != Role.ADMIN or not new_active)
    if losing_admin and len(admins) == 1:
        raise Invalid(_("A club must keep at least one admin: make someone else admin first."), field="role")
    membership.role, membership.is_active = new_role, new_active
    membership.save(update_fields=["role", "is_active"])
    return membership


@transaction.atomic
def leave_club(*, actor, membership: Membership) -> Membership:
    """The player leaves (or an admin ends the membership); the last admin cannot leave the club without one."""
    access.require(actor, "membership.leave", membership)
    return update_membership(actor=actor, membership=membership, is_active=False)


@transaction.atomic
def set_club_approved(*, actor, club: Club, approved: bool) -> Club:
    """Site staff approve a club (its directors' decisions enter the overall rating list) or withdraw the
    approval. The apps that depend on it (ratings) recompute through clubs.hooks.approval_changed, inside this
    transaction."""
    access.require(actor, "club.approve", club)
    club = lock(Club.objects).get(pk=club.pk)
    if club.is_approved == approved:
        return club
    club.is_approved = approved
    club.save(update_fields=["is_approved"])
    hooks.approval_changed(club)
    return club


def _history_of(player: Player) -> list:
    """What, besides unanswered invitations and claims, refers to the player (matches, ratings, seats, entries
    of every app): found the way deleting it would, so no app has to be listed here."""
    collector = NestedObjects(using="default")  # collects every related row (it never fast-deletes)
    collector.collect([player])
    unanswered = (Membership.Status.INVITED, Membership.Status.DECLINED)
    found = [
        obj
        for objs in collector.data.values()
        for obj in objs
        if obj != player
        and not (isinstance(obj, Membership) and obj.status in unanswered)
        and not isinstance(obj, WalkInClaim)
    ]
    nulled = [objs for batches in collector.field_updates.values() for objs in batches if len(objs)]
    return found + list(collector.protected) + nulled


def _refuse_second_player(user) -> Player | None:
    """A person has one player. An account's player that has no history yet (made when the person was invited
    by username) gives way to the claimed walk-in; one with history is not merged — merging two histories
    over every app is left to site staff, and the claim is refused with what to do. Returns the player that
    gives way, if any."""
    own = Player.objects.filter(user=user).first()
    if own is not None and _history_of(own):
        message = _(
            "Your account already has a player with matches or memberships (%(name)s). Claiming this walk-in "
            "would split your history over two players: ask site staff to merge them."
        )
        raise Invalid(message % {"name": own.name}, field="player")
    return own


@transaction.atomic
def claim_walk_in(*, actor, player: Player) -> WalkInClaim:
    """A signed-up person asks to become this walk-in player; a director of the club that registered it
    confirms (confirm_claim)."""
    access.require(actor, "walk_in.claim", player)
    _refuse_second_player(actor)
    if WalkInClaim.objects.filter(player=player, user=actor, status=WalkInClaim.Status.PENDING).exists():
        raise Invalid(_("You already asked to claim this player; the club has not answered yet."), field="player")
    return WalkInClaim.objects.create(player=player, user=actor)


@transaction.atomic
def decide_claim(*, actor, claim: WalkInClaim, confirm: bool) -> WalkInClaim:
    """The club confirms (the walk-in row gets the user: its matches, ratings and memberships are theirs, no
    duplicate player) or refuses. Confirming refuses the other pending claims of the same player."""
    claim = lock(WalkInClaim.objects).select_related("player").get(pk=claim.pk)
    access.require(actor, "walk_in.decide", claim)
    if claim.status != WalkInClaim.Status.PENDING:
        raise Invalid(_("This claim was already decided."), field="status")
    now = timezone.now()
    if confirm:
        player = lock(Player.objects).get(pk=claim.player_id)
        if player.user_id is not None:
            raise Invalid(_("This player already belongs to an account."), field="player")
        empty = _refuse_second_player(claim.user)
        if empty is not None:
            # Open invitations follow the person to the walk-in row (unless the walk-in is in that club already).
            clubs_of_walk_in = Membership.objects.filter(player=player).values("club")
            empty.memberships.exclude(club__in=clubs_of_walk_in).update(player=player)
            empty.delete()
        player.user = claim.user
        player.save(update_fields=["user"])
        WalkInClaim.objects.filter(player=player, status=WalkInClaim.Status.PENDING).exclude(pk=claim.pk).update(
            status=WalkInClaim.Status.REFUSED, decided_by=actor, decided_at=now
        )
    claim.status = WalkInClaim.Status.CONFIRMED if confirm else WalkInClaim.Status.REFUSED
    claim.decided_by, claim.decided_at = actor, now
    claim.save(update_fields=["status", "decided_by", "decided_at"])
    return claim


@transaction.atomic
def create_user_with_player(*, username: str, password: str, name: str, email: str = "") -> Player:
    user = User.objects.create_user(username=username, password=password, email=email)
    return Player.objects.create(user=user, name=name)


# --- a player's bank account for settling up ------------------------------------------------------------------


def _checked_iban(text: str) -> str:
    """The IBAN checked by schwifty (country, length, bank code where known) and by mod-97."""
    from schwifty import IBAN  # noqa: PLC0415 - a heavy import only the bank account page needs
    from schwifty.exceptions import SchwiftyException  # noqa: PLC0415

    iban = epc.normalize_iban(text)  # shape and mod-97, with the message that says what to fix
    try:
        return IBAN(iban).compact
    except SchwiftyException:
        raise Invalid(
            _("This IBAN is not one a bank in its country could have: check the country letters and its length."),
            field="iban",
        ) from None


def _save_account(
    owner: dict, holder: str, iban: str, bic: str, pay_provider: str = "", pay_handle: str = ""
) -> BankAccount | None:
    """A player's or a club's account (`owner`: {"player": …} or {"club": …}), checked the same way: an IBAN (with
    its holder) for the GiroCode and/or a payment handle (base.paylinks) for a link with the amount filled in. Empty
    both, it is removed."""
    iban, pay_handle = (iban or "").strip(), (pay_handle or "").strip()
    if not iban and not pay_handle:
        BankAccount.objects.filter(**owner).delete()
        return None
    holder = " ".join((holder or "").split())
    if iban and (not holder or len(holder) > epc.MAX_NAME):
        raise Invalid(_("Give the account holder's name, 1 to 70 characters."), field="holder")
    try:
        checked, bic = (_checked_iban(iban), epc.normalize_bic(bic)) if iban else ("", "")
        provider = paylinks.provider(pay_provider) if pay_handle else None
        handle = provider.normalize(pay_handle) if provider is not None else ""
    except (epc.PaymentCodeError, paylinks.PayLinkError) as error:
        raise Invalid(messages.translate(error), field=error.field) from None
    account, _created = BankAccount.objects.update_or_create(
        **owner,
        defaults={
            "holder": holder if iban else "",
            "iban": checked,
            "bic": bic,
            "pay_provider": provider.key if provider is not None else "",
            "pay_handle": handle,
        },
    )
    return account


@transaction.atomic
def set_bank_account(
    *, actor, player: Player, holder: str, iban: str, bic: str = "", pay_provider: str = "", pay_handle: str = ""
) -> BankAccount | None:
    """The player's own account for transfer codes and payment links; empty IBAN and handle remove it. Only the
    player themselves."""
    if actor is None or not actor.is_authenticated or player.user_id != actor.pk:
        raise NotAllowed(_("Only the player themselves sets their bank account."))
    return _save_account({"player": player}, holder, iban, bic, pay_provider, pay_handle)


@transaction.atomic
def set_club_bank_account(
    *, actor, club: Club, holder: str, iban: str, bic: str = "", pay_provider: str = "", pay_handle: str = ""
) -> BankAccount | None:
    """The club's own account, where an owner who owes the club (a Calcutta's settle-up) is asked to pay by a
    transfer code or a payment link; empty IBAN and handle remove it. Only the club's admins: it is private like
    a player's."""
    access.require(actor, "club.edit", club)
    return _save_account({"club": club}, holder, iban, bic, pay_provider, pay_handle)


MEMBER_DETAILS = ("email", "rating", "number")


@transaction.atomic
def set_member_details(*, actor, membership: Membership, **details) -> Membership:
    """A director sets what the club keeps on file for a member: e-mail, rating, membership number (a member
    import's updates). Only the fields given change."""
    access.require(actor, "club.direct", membership.club)
    unknown = set(details) - set(MEMBER_DETAILS)
    if unknown:
        message = _("This field cannot be changed.")
        raise Invalid(message, errors={name: [message] for name in unknown})
    for name, value in details.items():
        setattr(membership, name, value)
    membership.full_clean(exclude=["club", "player", "invited_by"])
    membership.save(update_fields=list(details))
    return membership
