"""Writes of the data app: applying a member import the director has seen (data.imports)."""

from __future__ import annotations

import logging
import secrets

from django.db import transaction
from django.utils.translation import gettext as _

from base.errors import Conflict
from clubs import access
from clubs import selectors as club_selectors
from clubs import services as club_services
from clubs.models import Membership
from data import imports
from data.models import FeedToken

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
