"""Writes of the data app: applying a member import the director has seen (data.imports), calendar feed tokens,
leaving, and event templates (data.event_templates)."""

from __future__ import annotations

import datetime
import logging
import secrets
from decimal import Decimal

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
from data import event_templates, imports, rating_lists, selectors
from data.models import EventTemplate, FeedToken
from notifications import services as notification_services
from notifications.models import Notification, NotificationSettings
from tournaments import selectors as tournament_selectors
from tournaments import services as tournament_services
from tournaments.services import boards as board_services

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


@transaction.atomic
def import_seeding_ratings(*, actor, flight, text: str, digest: str) -> rating_lists.RatingPlan:
    """A rating list's ratings as the flight's entries' seeding ratings, all or none: planned again inside the
    transaction and applied only if it is the plan the director confirmed (`digest`), else a Conflict (the
    entries changed meanwhile)."""
    access.require(actor, "event.direct", flight.event, _("Only a director of this event can import ratings."))
    plan = rating_lists.plan(flight=flight, text=text)
    if plan.digest != digest:
        raise Conflict(
            _("The flight's entries changed since the preview; check the new preview and confirm again."),
            code="import_changed",
        )
    if plan.ratings:
        tournament_services.set_seeding_ratings(actor=actor, flight=flight, ratings=plan.ratings)
    log.info(
        "rating list for flight %s by user %s: %s set, %s unchanged, %s not entered, %s refused",
        flight.pk, actor.pk, plan.count(rating_lists.SET), plan.count(rating_lists.UNCHANGED),
        plan.count(rating_lists.NOT_ENTERED), plan.count(rating_lists.REFUSE),
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
        Player.objects.filter(pk=player.pk).update(name=label, display_name="", country="", federation_id="", user=None)
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


# --- event templates ----------------------------------------------------------------------------------------

MAX_TEMPLATE_NAME = 80


def _template_name(club, name, *, other_than: EventTemplate | None = None) -> str:
    """A template's name: 1 to 80 characters, no control characters, not another template's of the club."""
    name = (name or "").strip()
    if not name or len(name) > MAX_TEMPLATE_NAME or any(ord(c) < 32 or 127 <= ord(c) < 160 for c in name):
        raise Invalid(_("Give the template a name of 1 to 80 characters (no line breaks)."), field="name")
    taken = EventTemplate.objects.filter(club=club, name=name)
    if other_than is not None:
        taken = taken.exclude(pk=other_than.pk)
    if taken.exists():
        raise Invalid(_("The club has a template of this name already: choose another name."), field="name")
    return name


@transaction.atomic
def save_event_template(*, actor, event, name: str) -> EventTemplate:
    """The event's setup (its settings and its flights' formats, settings, fees and payouts; no entries) saved
    as a template of its club. The club's directors may: a template is the club's, not the event's."""
    access.require(actor, "event.create", event.club, _("Only a director or admin of the club can save templates."))
    name = _template_name(event.club, name)
    setup = event_templates.snapshot(event, tournament_selectors.flights(event=event))
    template = EventTemplate.objects.create(
        club=event.club, name=name, setup=setup, made_from=event.name[:120], created_by=actor
    )
    log.info("event template %s saved from event %s by user %s", template.pk, event.pk, actor.pk)
    return template


@transaction.atomic
def rename_event_template(*, actor, template: EventTemplate, name: str) -> EventTemplate:
    access.require(actor, "event.create", template.club, _("Only a director or admin of the club can do this."))
    template.name = _template_name(template.club, name, other_than=template)
    template.save(update_fields=["name"])
    return template


@transaction.atomic
def delete_event_template(*, actor, template: EventTemplate) -> None:
    """The template goes; the events started from it stay as they are."""
    access.require(actor, "event.create", template.club, _("Only a director or admin of the club can do this."))
    template.delete()


@transaction.atomic
def start_event_from_template(*, actor, template: EventTemplate, name: str, starts_on, slug: str = ""):
    """A new event of the template's club from its setup, in one transaction: the name and first day given,
    everything else the template's (its flights, in order, with their settings, fees and payouts; times of day
    on the new days). Refused whole, nothing made, if any step is (a slug taken, a club payout table deleted
    since: the refusal says which)."""
    club = template.club
    access.require(actor, "event.create", club, _("Only a director or admin of the club can start an event."))
    setup = template.setup or {}
    if setup.get("version") != event_templates.VERSION or not isinstance(setup.get("event"), dict):
        raise Invalid(_("This template was saved by another version; save it again from an event."), field="template")
    if not isinstance(starts_on, datetime.date):
        raise Invalid(_("Give the first day as a date."), field="starts_on")
    kept = setup["event"]
    tables = {table.pk for table in tournament_selectors.club_payout_tables(club=club)}
    for row in setup["flights"]:
        if row.get("club_payout_table") and row["club_payout_table"] not in tables:
            message = _(
                "%(flight)s of this template is paid out by a payout table the club has deleted since: save the "
                "template again from an event."
            )
            raise Invalid(message % {"flight": row["name"]}, field="template")
    event = tournament_services.create_event(
        actor=actor,
        club=club,
        name=name,
        slug=slug,
        starts_on=starts_on,
        ends_on=starts_on + datetime.timedelta(days=int(kept.get("days", 0))),
        is_public=kept["is_public"],
        registration_open=kept["registration_open"],
        house_percent=kept["house_percent"],
        currency=kept["currency"],
    )
    closes_at = event_templates.time_on(kept.get("closes_at"), starts_on)
    if closes_at is not None:
        tournament_services.update_event(actor=actor, event=event, closes_at=closes_at)
    if kept.get("auto_call"):
        board_services.set_auto_call(actor=actor, event=event, on=True)
    made = _add_flights(actor, event, setup["flights"], starts_on)
    for row in setup["flights"]:
        _finish_flight(actor, made, row)
    log.info("event %s started from template %s by user %s", event.pk, template.pk, actor.pk)
    return event


def _add_flights(actor, event, rows: list[dict], starts_on) -> dict:
    """The template's flights added in order; each flight's source is one added before it (a snapshot lists
    flights in their order, and a flight is fed only by an earlier one). A stage's cut, made with the stage,
    is the template's cut when their short names agree; otherwise the template's replaces it."""
    made: dict = {}
    for row in rows:
        existing = tournament_selectors.flight_for(event=event, slug=row["slug"])
        if row["feed_rule"] == "cut" and existing is not None and existing.source_id == made[row["source"]].pk:
            made[row["slug"]] = existing
            continue
        made[row["slug"]] = tournament_services.add_flight(
            actor=actor,
            event=event,
            source=made[row["source"]] if row["source"] else None,
            payout_template=[],
            check_in_deadline=event_templates.time_on(row["check_in_deadline"], starts_on),
            reentry_deadline=event_templates.time_on(row["reentry_deadline"], starts_on),
            **event_templates.flight_arguments(row),
        )
    return made


def _finish_flight(actor, made: dict, row: dict) -> None:
    """What names other flights or is set by its own service: the satellite's target, fees, payouts."""
    flight = made[row["slug"]]
    if row["awards_entry_to"]:
        tournament_services.update_flight(actor=actor, flight=flight, awards_entry_to=made[row["awards_entry_to"]])
    if row["member_fee"] is not None or row["junior_fee"] is not None or row["payment_required"]:
        tournament_services.set_fee_settings(
            actor=actor,
            flight=flight,
            member_fee=row["member_fee"] or "",
            junior_fee=row["junior_fee"] or "",
            payment_required=row["payment_required"],
        )
    table = event_templates.payout_table_key(row)
    if table or row["house_percent"] is not None or Decimal(row["house_fixed"]) or Decimal(row["added_money"]):
        tournament_services.set_flight_payouts(
            actor=actor,
            flight=flight,
            table=table,
            house_percent=row["house_percent"] if row["house_percent"] is not None else "",
            house_fixed=row["house_fixed"],
            added_money=row["added_money"],
        )
    if row["payout_template"]:
        tournament_services.set_payout_template(actor=actor, flight=flight, template=row["payout_template"])
