"""Before the auction: create a flight's Calcutta, its settings, the lots and their order, and the bidders."""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from base.errors import Conflict, Invalid, NotAllowed
from calcutta import core, selectors
from calcutta.models import Bidder, Calcutta, CalcuttaStatus, Lot
from calcutta.services.common import (
    MAX_CENTS,
    SETTING_FIELDS,
    lock,
    refusal,
    require_first_round_not_started,
    require_status,
)
from calcutta.services.state import core_settings, lot_plan
from clubs import access
from clubs import selectors as club_selectors


def _validated_settings(calcutta: Calcutta, values: Mapping) -> None:
    unknown = set(values) - set(SETTING_FIELDS)
    if unknown:
        raise Invalid(
            _("This setting does not exist."),
            errors={name: [_("This setting does not exist.")] for name in sorted(unknown)},
        )
    for name, value in values.items():
        if name in ("minimum_opening_bid", "increment") and isinstance(value, int) and value > MAX_CENTS:
            raise Invalid(_("At most %(max)s.") % {"max": selectors.display_money(MAX_CENTS)}, field=name)
        setattr(calcutta, name, value)
    places = calcutta.payout_places
    if not isinstance(places, list) or not places:
        raise Invalid(_("Give the payout table as percentages by place, e.g. 50, 30, 20."), field="payout_places")
    calcutta.payout_places = [str(core.parse_percent(str(p), field="payout_places")) for p in places]
    core_settings(calcutta)


@transaction.atomic
def create_calcutta(*, actor, flight, **settings_values) -> Calcutta:
    """A director sets up the Calcutta of a flight; every entrant starts in the field until lots are made."""
    access.require(actor, "calcutta.create", flight)
    if Calcutta.objects.filter(flight=flight).exists():
        raise Conflict(
            _("This flight already has a Calcutta; open it instead of creating another."), code="already_exists"
        )
    require_first_round_not_started(flight)
    calcutta = Calcutta(flight=flight, seed=secrets.randbelow(2**31), created_by=actor)
    settings_values.setdefault("payout_places", ["70", "30"])
    _validated_settings(calcutta, settings_values)
    calcutta.save()
    field = Lot.objects.create(calcutta=calcutta, number=0, is_field=True)
    field.entries.set(selectors.calcutta_entries(calcutta))
    return calcutta


@transaction.atomic
def update_settings(*, actor, calcutta: Calcutta, **values) -> Calcutta:
    calcutta = lock(calcutta)
    access.require(actor, "calcutta.direct", calcutta)
    require_status(calcutta, CalcuttaStatus.SETUP, doing=_("change its settings"))
    _validated_settings(calcutta, values)
    calcutta.save()
    return calcutta


@transaction.atomic
def set_lots(*, actor, calcutta: Calcutta, groups: Sequence[Sequence[int]]) -> list[Lot]:
    """Replace the lots (numbered 1, 2, … in the order given); everyone in no lot is in the field."""
    calcutta = lock(calcutta)
    access.require(actor, "calcutta.direct", calcutta)
    require_status(calcutta, CalcuttaStatus.SETUP, doing=_("change its lots"))
    entries = selectors.calcutta_entries(calcutta)
    try:
        plan = core.LotPlan.build([e.pk for e in entries], [list(group) for group in groups if group])
    except core.CalcuttaError as exc:
        exc.field = "lots"
        raise exc from None
    calcutta.lots.filter(is_field=False).delete()
    by_pk = {entry.pk: entry for entry in entries}
    lots = []
    for planned in plan.lots:
        lot = Lot.objects.create(calcutta=calcutta, number=planned.id)
        lot.entries.set([by_pk[pk] for pk in planned.entrants])
        lots.append(lot)
    field, _created = Lot.objects.get_or_create(calcutta=calcutta, number=0, defaults={"is_field": True})
    field.entries.set([by_pk[pk] for pk in plan.field.entrants])
    calcutta.order = []  # a director's order named the old lots; the stored seed draws one for the new lots
    calcutta.save(update_fields=["order", "updated_at"])
    return lots


@transaction.atomic
def set_order(*, actor, calcutta: Calcutta, order: Sequence[int] | None = None, reseed: bool = False) -> Calcutta:
    """The director's order (every lot once), or back to random; `reseed` draws a new random order."""
    calcutta = lock(calcutta)
    access.require(actor, "calcutta.direct", calcutta)
    require_status(calcutta, CalcuttaStatus.SETUP, doing=_("change the order"))
    if order:
        plan = lot_plan(selectors.calcutta_entries(calcutta), calcutta.lots.prefetch_related("entries"))
        try:
            calcutta.order = list(core.check_order(plan, list(order)))
        except core.CalcuttaError as exc:
            raise refusal(exc) from None
    else:
        calcutta.order = []
    if reseed:
        calcutta.seed = secrets.randbelow(2**31)
    calcutta.save(update_fields=["order", "seed", "updated_at"])
    return calcutta


NOT_THE_CLUBS_PLAYER = gettext_lazy(
    "A director registers the club's own players (members by their own acceptance, and its walk-ins) and guests "
    "by name; anyone else registers as a bidder themselves."
)


@transaction.atomic
def register_bidder(*, actor, calcutta: Calcutta, name: str = "", user=None, player=None) -> Bidder:
    """A signed-in user registers themselves; a director registers guests by name and players without an account
    (a bidder need not be a player)."""
    calcutta = lock(calcutta)
    if not getattr(actor, "is_authenticated", False):
        raise NotAllowed(_("Sign in to register as a bidder."))
    if not access.can(actor, "calcutta.register_bidder", calcutta):
        if user is not None and user != actor or player is not None and player.user_id != actor.pk:
            access.require(actor, "calcutta.register_bidder", calcutta)  # refused: says only a director may
        user, player = actor, club_selectors.player_for_user(actor)
        existing = calcutta.bidders.filter(user=actor).first()
        if existing is None and player is not None:
            existing = calcutta.bidders.filter(player=player, user__isnull=True).first()
        if existing is not None:
            if existing.user_id is None:  # the director registered this player; now it is theirs to bid with
                existing.user = actor
                existing.save(update_fields=["user"])
            return existing
    else:
        # A bid is money owed: the director registers only the club's own players (members by their own
        # acceptance, and its walk-ins) and guests by name; anyone else registers themselves
        if user is not None and user != actor and player is None:
            player = club_selectors.player_for_user(user)
            if player is None:
                raise NotAllowed(NOT_THE_CLUBS_PLAYER)
        if player is not None and player.user_id != actor.pk:
            if not selectors.club_players(calcutta=calcutta).filter(pk=player.pk).exists():
                raise NotAllowed(NOT_THE_CLUBS_PLAYER)
            user = player.user  # the bidder is theirs: they see it and answer for their own shares
    if user is not None and player is None:
        player = club_selectors.player_for_user(user)
    name = (name or "").strip() or (player.name if player else "") or (user.get_username() if user else "")
    if player is not None and player.public_name_at(calcutta.flight.event.club) != player.name:
        name = player.public_name_at(calcutta.flight.event.club)  # the display name the club shows, not the name
    if not name:
        raise Invalid(_("Give the bidder's name."), field="name")
    if calcutta.bidders.filter(name=name).exists():
        raise Invalid(_("A bidder of this name is already registered; add an initial."), field="name")
    if user is not None and calcutta.bidders.filter(user=user).exists():
        raise Invalid(_("This user is already registered as a bidder."), field="user")
    if player is not None and calcutta.bidders.filter(player=player).exists():
        raise Invalid(_("This player is already registered as a bidder."), field="player")
    return Bidder.objects.create(calcutta=calcutta, name=name[:120], user=user, player=player)


def _rename_bidders(bidders) -> None:
    """Each bidder linked to a player takes the name the event's club shows for them (Player.public_name_at: the
    display name where the club allows it, else the name); one whose new name another bidder of the Calcutta
    already has keeps the old one (names are unique within a Calcutta)."""
    for bidder in bidders:
        shown = bidder.player.public_name_at(bidder.calcutta.flight.event.club)[:120]
        if shown != bidder.name and not bidder.calcutta.bidders.filter(name=shown).exists():
            Bidder.objects.filter(pk=bidder.pk).update(name=shown)


def player_renamed(player) -> None:
    """clubs.hooks.player_renamed: the player's bidders show their new name or display name."""
    _rename_bidders(Bidder.objects.filter(player=player).select_related("player", "calcutta__flight__event__club"))


def display_names_switched(club) -> None:
    """clubs.hooks.display_names_switched: the bidders of the club's players with a display name show it, or
    their name again."""
    _rename_bidders(
        Bidder.objects.filter(calcutta__flight__event__club=club, player__isnull=False)
        .exclude(player__display_name="")
        .select_related("player", "calcutta__flight__event__club")
    )
