"""Writes of the data app: applying a member import the director has seen (data.imports)."""

from __future__ import annotations

import logging
import secrets

from django.db import transaction
from django.db.models import ProtectedError, Q
from django.utils.translation import gettext as _

from accounts.models import ApiToken
from base.errors import Conflict, Invalid, NotAllowed
from calcutta.models import Bidder
from clubs import access
from clubs import selectors as club_selectors
from clubs import services as club_services
from clubs.models import BankAccount, Club, Membership, Player
from data import imports, selectors
from data.models import FeedToken
from notifications import services as notification_services
from notifications.models import Notification, NotificationSettings

log = logging.getLogger(__name__)


@transaction.atomic
def import_members(*, actor, club, text: str, digest: str) -> imports.Plan:
    """Apply the import planned from `text`, all rows or none: the plan is made again inside the transaction and
    applied only if it is still the one the director confirmed (`digest`), else a Conflict carries the new
    preview's digest (the club's members changed meanwhile). Refused and unchanged rows change nothing."""
    access.require(actor, "club.direct", club, _("Only a director or admin of this club can import members."))
    plan = imports.plan(club=club, text=text)
    if plan.digest != digest:
        raise Conflict(
            _("The club's members changed since the preview; check the new preview and confirm again."),
            code="import_changed",
        )
    for row in plan.rows:
        if row.action == imports.CREATE:
            player = club_services.create_player(actor=actor, club=club, name=row.name)
            membership = player.memberships.get(club=club)
            details = {"email": row.email, "rating": row.rating, "number": row.number}
            _set(actor, membership, {k: v for k, v in details.items() if v not in ("", None)})
        elif row.action == imports.INVITE:
            player = club_selectors.player_by_pk(row.player_id)
            membership = club_services.invite(actor=actor, club=club, player=player)
            details = {"email": row.email, "rating": row.rating, "number": row.number}
            _set(actor, membership, {k: v for k, v in details.items() if v not in ("", None)})
        elif row.action == imports.UPDATE:
            _set(actor, row.membership, row.changes)
    log.info(
        "member import at %s by user %s: %s created, %s invited, %s updated, %s unchanged, %s refused",
        club.slug, actor.pk, plan.count(imports.CREATE), plan.count(imports.INVITE), plan.count(imports.UPDATE),
        plan.count(imports.UNCHANGED), plan.count(imports.REFUSE),
    )  # fmt: skip
    return plan


def _set(actor, membership: Membership, details: dict) -> None:
    if details:
        values = {k: (float(v) if k == "rating" else v) for k, v in details.items()}
        club_services.set_member_details(actor=actor, membership=membership, **values)


# --- calendar feed tokens --------------------------------------------------------------------------------------


@transaction.atomic
def new_feed_token(*, actor) -> FeedToken:
    """A new random token for the person's own calendar feed; an earlier one stops working at once."""
    FeedToken.objects.filter(user=actor).delete()
    return FeedToken.objects.create(user=actor, token=secrets.token_urlsafe(32))


@transaction.atomic
def revoke_feed_token(*, actor) -> bool:
    """The person's feed URL stops working (a calendar app still subscribed gets 404). True if there was one."""
    deleted, _rows = FeedToken.objects.filter(user=actor).delete()
    return bool(deleted)


# --- leaving: the account deleted, the player anonymised -------------------------------------------------------


def former_name(player_id: int) -> str:
    """The name an anonymised player keeps in everyone else's brackets, ratings and ledgers."""
    return f"Former player {player_id}"


@transaction.atomic
def leave(*, actor, password: str) -> str:
    """The person deletes their account (the password confirms it is them). Their player record stays, so other
    people's brackets, ratings, ledgers and settlements stay whole, but is anonymised ("Former player 1234":
    no account, no country, no federation id, no bank account; the clubs' e-mail, number and rating on file
    cleared and the memberships ended); their Calcutta bidder lines take the same name. The directors of their
    clubs are told; the departure is logged. Returns the former name."""
    if not getattr(actor, "is_authenticated", False):
        raise NotAllowed(_("Sign in to delete your account."), code="not_signed_in")
    if not actor.check_password(password or ""):
        raise Invalid(_("The password is not right; your account stays."), field="password")
    player = Player.objects.filter(user=actor).first()
    label = former_name(player.pk if player is not None else actor.pk)
    if player is not None:
        directors = selectors.clubs_directed_for_notice(player=player)
        clubs = {club.pk: club for club in Club.objects.filter(pk__in=directors)}
        Player.objects.filter(pk=player.pk).update(name=label, country="", federation_id="", user=None)
        Membership.objects.filter(player=player).update(email="", number="", rating=None, is_active=False)
        BankAccount.objects.filter(player=player).delete()  # no transfer code names them any more
        Bidder.objects.filter(Q(user=actor) | Q(player=player)).update(name=label, user=None)
        for club_id, user_ids in directors.items():
            notification_services.notify(
                "member_left",
                f"player-{player.pk}-club-{club_id}",
                {uid: {"former": label, "club": clubs[club_id].name} for uid in user_ids},
                url=clubs[club_id].get_absolute_url(),
            )
    else:
        Bidder.objects.filter(user=actor).update(name=label, user=None)
    user_id = actor.pk
    try:
        with transaction.atomic():
            actor.delete()
        kept = False
    except ProtectedError:  # game records they uploaded point at the account: keep an empty, locked row
        _scrub(actor)
        kept = True
    log.info("user %s left: account %s, player anonymised as %r", user_id, "emptied" if kept else "deleted", label)
    return label


def _scrub(user) -> None:
    """An account row that cannot be deleted, emptied: no name, no address, no password, inactive; its tokens,
    notifications, settings and feed gone."""
    user.username = f"former-{user.pk}"
    user.email = user.first_name = user.last_name = ""
    user.set_unusable_password()
    user.is_active = False
    user.save()
    ApiToken.objects.filter(user=user).delete()
    Notification.objects.filter(recipient=user).delete()
    NotificationSettings.objects.filter(user=user).delete()
    FeedToken.objects.filter(user=user).delete()
