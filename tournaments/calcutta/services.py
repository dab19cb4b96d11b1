"""Writes for Calcutta auctions: setup, the live auction, ownership, payments and settlement.

This is the one adapter between the rows and the pure core (`tournaments.calcutta.core`): every write takes the
Calcutta row lock, rebuilds the `core.Auction` by replaying the stored steps, lets the core decide, then stores
the new step and keeps the lot rows in step with the core's state. No rule is re-implemented here.

A refusal from the core becomes a 409 (`base.api.Conflict`) when it is about the auction's state (a sold lot, a
closed auction, a step out of turn) and a 400 naming the field otherwise.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from base import numbers
from base.api import Conflict
from base.locks import lock
from clubs import access
from tournaments.calcutta import core, selectors
from tournaments.calcutta.models import (
    AuctionAction,
    Bid,
    Bidder,
    Calcutta,
    CalcuttaStatus,
    Holding,
    Lot,
    LotPhase,
    OwnerLine,
    OwnershipChange,
    Payout,
    Settlement,
    SyndicateOffer,
)

logger = logging.getLogger(__name__)

# Refusals about the auction's state: the request is well-formed but comes at the wrong time (409).
CONFLICT_CODES = frozenset(
    {
        "already_open",
        "auction_not_open",
        "auction_closed",
        "auction_not_closed",
        "lot_sold",
        "lot_passed",
        "lot_not_open",
        "lot_running",
        "nothing_left",
        "no_lot_open",
        "bad_step",
        "no_bid",
        "has_bids",
        "nothing_to_undo",
        "lots_left",
        "buy_back_closed",
        "lot_not_sold",
        "already_high_bidder",
    }
)

MAX_CENTS = numbers.MAX_MONEY_CENTS  # 10 million: far above any Calcutta, and well inside the integer columns

SETTING_FIELDS = (
    "house_take_percent",
    "payout_places",
    "consolation_percent",
    "minimum_opening_bid",
    "increment",
    "buy_back_limit_percent",
    "buy_back_deadline",
    "self_bidding",
)


def _message(exc: core.CalcuttaError) -> str:
    """The core's refusal in the user's language; codes without a translation keep the core's English text."""
    messages = {
        "auction_not_open": _("The auction has not opened yet."),
        "auction_closed": _("The auction is closed; no more bids are taken."),
        "lot_sold": _("This lot has been sold; bids on it are closed."),
        "lot_passed": _("This lot was passed into the field; bid on the field instead."),
        "lot_not_open": _("This lot is not up for auction now."),
        "unknown_bidder": _("Only registered bidders may bid; register with the auctioneer."),
        "self_bid": _("Players may not bid on a lot they are in at this Calcutta; ask about a buy-back."),
        "already_high_bidder": _("You already hold the high bid on this lot."),
        "key_reused": _("This idempotency key was used for a different bid; send a new key for a new bid."),
        "nothing_to_undo": _("Only the last sold or passed lot can be undone, before the next lot opens."),
        "no_bid": _("The lot has no bid yet; wait for one or pass the lot."),
        "has_bids": _("The lot has a bid; sell it instead of passing it."),
        "lots_left": _("A lot has not been sold or passed yet; finish it before closing."),
        "lot_running": _("A lot is still up; sell or pass it first."),
        "nothing_left": _("Every lot has been auctioned; close the auction."),
        "no_lot_open": _("No lot is up; open the next lot."),
        "already_open": _("The auction has already been opened."),
        "no_buy_back_on_field": _("The field cannot be bought back: a buy-back is only for a player's own lot."),
        "buy_back_closed": _("Buy-backs are closed."),
        "buy_back_off": _("This Calcutta has no buy-backs."),
        "shares_not_100": _("The syndicate's shares must total exactly 100%."),
        "payout_not_100": _("The payout table must total exactly 100%."),
    }
    return str(messages.get(exc.code, exc.message))


def refusal(exc: core.CalcuttaError) -> Exception:
    """The Django error for a core refusal (views and the API answer it as 409 or 400)."""
    message = _message(exc)
    if exc.code in CONFLICT_CODES:
        return Conflict(message)
    return ValidationError({exc.field: [message]} if exc.field else message)


def _require_director(actor, calcutta: Calcutta) -> None:
    if not calcutta.user_is_director(actor):
        raise PermissionDenied(_("Only a director of this event can do this."))


def _require_status(calcutta: Calcutta, *statuses: str, doing: str) -> None:
    if calcutta.status not in statuses:
        raise Conflict(
            _("The Calcutta is %(status)s, so you cannot %(doing)s now.")
            % {"status": calcutta.get_status_display().lower(), "doing": doing}
        )


def _lock(calcutta: Calcutta) -> Calcutta:
    """Reload the Calcutta under its row lock.

    The race: two bids arriving together both read the same high bid and would both become "the high bid";
    a bid and the auctioneer's "sold" would disagree on the price. Every write decides on state it reads after
    this lock, so the second request waits, replays the first one's step and is judged against it.
    """
    return lock(Calcutta.objects, of=("self",)).select_related("flight__event").get(pk=calcutta.pk)


# --- reading the rows into the core ---------------------------------------------------------------------


def core_settings(calcutta: Calcutta) -> core.CalcuttaSettings:
    try:
        return core.CalcuttaSettings(
            payout=core.PayoutTable.of([str(p) for p in calcutta.payout_places], str(calcutta.consolation_percent)),
            house_take_percent=Decimal(calcutta.house_take_percent),
            minimum_opening_bid=calcutta.minimum_opening_bid,
            increment=calcutta.increment,
            buy_back_limit=Fraction(Decimal(calcutta.buy_back_limit_percent)) / 100,
            buy_back_deadline=calcutta.buy_back_deadline,
            self_bidding=calcutta.self_bidding,
        )
    except core.CalcuttaError as exc:
        field = {"payout": "payout_places", "consolation_winner": "consolation_percent"}.get(exc.field, exc.field)
        if field and field.startswith("payout place"):
            field = "payout_places"
        raise ValidationError({field or "payout_places": [_message(exc)]}) from None


@dataclass
class State:
    """Everything one write decides on, loaded after the lock."""

    calcutta: Calcutta
    entries: list  # the flight's Entry rows
    lots: dict  # core lot id (number or "field") -> Lot row
    bidders: dict  # bidder id -> Bidder row
    settings: core.CalcuttaSettings
    plan: core.LotPlan
    order: tuple
    auction: core.Auction

    def lot(self, core_id) -> Lot:
        return self.lots[core_id]


def _plan(entries: Sequence, lots: Iterable[Lot]) -> core.LotPlan:
    regular = sorted((lot for lot in lots if not lot.is_field), key=lambda lot: lot.number)
    return core.LotPlan(
        entrants=tuple(entry.pk for entry in entries),
        lots=tuple(core.Lot(id=lot.number, entrants=tuple(sorted(e.pk for e in lot.entries.all()))) for lot in regular),
    )


def auction_order(calcutta: Calcutta, plan: core.LotPlan) -> tuple:
    """The director's order, or the one drawn from the stored seed (the field always comes last)."""
    if calcutta.order:
        return core.check_order(plan, calcutta.order)
    return core.random_order([lot.id for lot in plan.lots], seed=calcutta.seed)


def _core_bidders(bidders: Iterable[Bidder], entries: Sequence) -> list[core.Bidder]:
    entry_of_player = {entry.player_id: entry.pk for entry in entries}
    return [core.Bidder(id=b.pk, entrant=entry_of_player.get(b.player_id) if b.player_id else None) for b in bidders]


def _events(calcutta: Calcutta, lots_by_pk: Mapping[int, Lot]) -> list[tuple[int, str, dict]]:
    """Bids and auctioneer steps in step order, as the core's replay takes them (tuples, no model instances)."""
    steps = [
        (step, action, {})
        for step, action in AuctionAction.objects.filter(calcutta=calcutta).values_list("step", "action")
    ]
    bids = Bid.objects.filter(calcutta=calcutta).values_list("step", "lot_id", "bidder_id", "amount", "idempotency_key")
    for step, lot_id, bidder_id, amount, key in bids:
        arguments = {"lot": lots_by_pk[lot_id].core_id, "bidder": bidder_id, "amount": amount, "key": key or None}
        steps.append((step, "bid", arguments))
    return sorted(steps, key=lambda step: step[0])


def calcutta_entries(calcutta: Calcutta) -> list:
    """The entrants: fixed when the auction opens; before that every entry of the flight that has not withdrawn."""
    entries = calcutta.flight.entries.order_by("pk")
    if calcutta.entrants:
        return list(entries.filter(pk__in=calcutta.entrants))
    return list(entries.exclude(status="withdrawn"))


def load(calcutta: Calcutta) -> State:
    """Rebuild the auction from the stored steps (a constant number of queries)."""
    entries = calcutta_entries(calcutta)
    lot_rows = list(calcutta.lots.prefetch_related("entries"))
    bidders = {b.pk: b for b in calcutta.bidders.all()}
    settings = core_settings(calcutta)
    try:
        plan = _plan(entries, lot_rows)
        order = auction_order(calcutta, plan)
    except core.CalcuttaError as exc:
        raise refusal(exc) from None
    events = _events(calcutta, {lot.pk: lot for lot in lot_rows})
    auction = core.Auction.replay(
        settings=settings,
        plan=plan,
        order=order,
        bidders=_core_bidders(bidders.values(), entries),
        events=[(action, arguments) for _step, action, arguments in events],
    )
    return State(
        calcutta=calcutta,
        entries=entries,
        lots={lot.core_id: lot for lot in lot_rows},
        bidders=bidders,
        settings=settings,
        plan=plan,
        order=order,
        auction=auction,
    )


def _sync_lots(state: State) -> None:
    """Copy each lot's phase, high bid, sale and hammer position from the core onto the rows pages read."""
    auction = state.auction
    changed = []
    for core_id, lot in state.lots.items():
        high = auction.high_bid(core_id)
        sale = auction.sales.get(core_id)
        values = {
            "phase": auction.phase.get(core_id, LotPhase.PENDING),
            "high_bid": high.amount if high else None,
            "high_bidder_id": high.bidder if high else None,
            "price": sale.price if sale else None,
            "buyer_id": sale.bidder if sale else None,
            "hammer_index": auction.hammered.index(core_id) if core_id in auction.hammered else None,
        }
        if any(getattr(lot, name) != value for name, value in values.items()):
            for name, value in values.items():
                setattr(lot, name, value)
            changed.append(lot)
    if changed:
        Lot.objects.bulk_update(changed, ["phase", "high_bid", "high_bidder", "price", "buyer", "hammer_index"])
    field = state.lots.get(core.FIELD)
    if field is not None:
        wanted = set(auction.field.entrants)
        if {entry.pk for entry in field.entries.all()} != wanted:
            field.entries.set(wanted)
    current = state.lots.get(auction.current) if auction.current is not None else None
    state.calcutta.current_lot = current


# --- setup ----------------------------------------------------------------------------------------------


def _validated_settings(calcutta: Calcutta, values: Mapping) -> None:
    unknown = set(values) - set(SETTING_FIELDS)
    if unknown:
        raise ValidationError({name: [_("This setting does not exist.")] for name in sorted(unknown)})
    for name, value in values.items():
        if name in ("minimum_opening_bid", "increment") and isinstance(value, int) and value > MAX_CENTS:
            raise ValidationError({name: [_("At most %(max)s.") % {"max": core.format_money(MAX_CENTS)}]})
        setattr(calcutta, name, value)
    places = calcutta.payout_places
    if not isinstance(places, list) or not places:
        raise ValidationError({"payout_places": [_("Give the payout table as percentages by place, e.g. 50, 30, 20.")]})
    try:
        calcutta.payout_places = [str(core.parse_percent(str(p), field="payout_places")) for p in places]
    except core.CalcuttaError:
        raise ValidationError(
            {"payout_places": [_("Each payout is a percentage between 0 and 100, e.g. 50, 30, 20.")]}
        ) from None
    core_settings(calcutta)


@transaction.atomic
def create_calcutta(*, actor, flight, **settings_values) -> Calcutta:
    """A director sets up the Calcutta of a flight; every entrant starts in the field until lots are made."""
    if not getattr(actor, "is_authenticated", False) or not (
        actor.is_superuser or flight.event.user_is_director(actor)
    ):
        raise PermissionDenied(_("Only a director of this event can set up its Calcutta."))
    if Calcutta.objects.filter(flight=flight).exists():
        raise Conflict(_("This flight already has a Calcutta; open it instead of creating another."))
    calcutta = Calcutta(flight=flight, seed=secrets.randbelow(2**31), created_by=actor)
    settings_values.setdefault("payout_places", ["70", "30"])
    _validated_settings(calcutta, settings_values)
    calcutta.save()
    field = Lot.objects.create(calcutta=calcutta, number=0, is_field=True)
    field.entries.set(calcutta_entries(calcutta))
    return calcutta


@transaction.atomic
def update_settings(*, actor, calcutta: Calcutta, **values) -> Calcutta:
    calcutta = _lock(calcutta)
    _require_director(actor, calcutta)
    _require_status(calcutta, CalcuttaStatus.SETUP, doing=_("change its settings"))
    _validated_settings(calcutta, values)
    calcutta.save()
    return calcutta


@transaction.atomic
def set_lots(*, actor, calcutta: Calcutta, groups: Sequence[Sequence[int]]) -> list[Lot]:
    """Replace the lots (numbered 1, 2, … in the order given); everyone in no lot is in the field."""
    calcutta = _lock(calcutta)
    _require_director(actor, calcutta)
    _require_status(calcutta, CalcuttaStatus.SETUP, doing=_("change its lots"))
    entries = calcutta_entries(calcutta)
    try:
        plan = core.LotPlan.build([e.pk for e in entries], [list(group) for group in groups if group])
    except core.CalcuttaError as exc:
        raise ValidationError({"lots": [exc.message]}) from None
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
    calcutta = _lock(calcutta)
    _require_director(actor, calcutta)
    _require_status(calcutta, CalcuttaStatus.SETUP, doing=_("change the order"))
    if order:
        plan = _plan(calcutta_entries(calcutta), calcutta.lots.prefetch_related("entries"))
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
    from clubs import selectors as club_selectors

    calcutta = _lock(calcutta)
    if not getattr(actor, "is_authenticated", False):
        raise PermissionDenied(_("Sign in to register as a bidder."))
    if not calcutta.user_is_director(actor):
        if user is not None and user != actor or player is not None and player.user_id != actor.pk:
            raise PermissionDenied(_("Only a director can register someone else as a bidder."))
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
                raise PermissionDenied(NOT_THE_CLUBS_PLAYER)
        if player is not None and player.user_id != actor.pk:
            if not selectors.club_players(calcutta=calcutta).filter(pk=player.pk).exists():
                raise PermissionDenied(NOT_THE_CLUBS_PLAYER)
            user = player.user  # the bidder is theirs: they see it and answer for their own shares
    if user is not None and player is None:
        player = club_selectors.player_for_user(user)
    name = (name or "").strip() or (player.name if player else "") or (user.get_username() if user else "")
    if not name:
        raise ValidationError({"name": [_("Give the bidder's name.")]})
    if calcutta.bidders.filter(name=name).exists():
        raise ValidationError({"name": [_("A bidder of this name is already registered; add an initial.")]})
    if user is not None and calcutta.bidders.filter(user=user).exists():
        raise ValidationError({"user": [_("This user is already registered as a bidder.")]})
    if player is not None and calcutta.bidders.filter(player=player).exists():
        raise ValidationError({"player": [_("This player is already registered as a bidder.")]})
    return Bidder.objects.create(calcutta=calcutta, name=name[:120], user=user, player=player)


# --- the live auction -----------------------------------------------------------------------------------


@transaction.atomic
def auctioneer_step(*, actor, calcutta: Calcutta, action: str) -> Calcutta:
    """One of the auctioneer's steps: open, open_next_lot, going_once, going_twice, sell, pass_lot, undo_last,
    close. Closing hands the sales to ownership (each lot owned wholly by its buyer) and settles if it can."""
    if action not in AuctionAction.Kind.values:
        raise ValidationError(
            {"action": [_("Choose one of: %(actions)s.") % {"actions": ", ".join(AuctionAction.Kind.values)}]}
        )
    calcutta = _lock(calcutta)
    _require_director(actor, calcutta)
    _require_status(calcutta, CalcuttaStatus.SETUP, CalcuttaStatus.OPEN, doing=_("run the auction"))
    state = load(calcutta)
    before = state.auction.current
    try:
        getattr(state.auction, action)()
    except core.CalcuttaError as exc:
        raise refusal(exc) from None
    acted_on = state.auction.current if state.auction.current is not None else before
    if action == AuctionAction.Kind.UNDO_LAST:
        acted_on = state.auction.current
    calcutta.steps += 1
    AuctionAction.objects.create(
        calcutta=calcutta,
        step=calcutta.steps,
        action=action,
        lot=state.lots.get(acted_on) if acted_on is not None else None,
        actor=actor,
    )
    _sync_lots(state)
    if action == AuctionAction.Kind.OPEN:
        calcutta.status = CalcuttaStatus.OPEN
        calcutta.entrants = [entry.pk for entry in state.entries]
    if action == AuctionAction.Kind.CLOSE:
        calcutta.status = CalcuttaStatus.CLOSED
    calcutta.save(update_fields=["steps", "status", "current_lot", "entrants", "updated_at"])
    if action == AuctionAction.Kind.CLOSE:
        _write_holdings(state, core.Ownership.from_auction(state.auction.result()))
        settle_calcutta(calcutta=calcutta)
    return calcutta


@transaction.atomic
def place_bid(
    *, actor, calcutta: Calcutta, lot_number: int, bidder: Bidder, amount: int, idempotency_key: str = ""
) -> tuple[Bid, bool]:
    """Place a bid (cents) on the lot that is up; returns (bid, created). The same idempotency key sent again
    returns the bid already placed instead of placing it twice. The auctioneer bids for anyone in the room; a
    registered bidder bids for themselves."""
    calcutta = _lock(calcutta)
    if not getattr(actor, "is_authenticated", False):
        raise PermissionDenied(_("Sign in to bid."))
    if bidder.calcutta_id != calcutta.pk:
        raise ValidationError({"bidder": [_("This bidder is not registered at this Calcutta.")]})
    if not (bidder.user_id == actor.pk or calcutta.user_is_director(actor)):
        raise PermissionDenied(_("You can only bid as yourself; the auctioneer takes bids from the room."))
    key = (idempotency_key or "").strip()
    if amount > MAX_CENTS:
        raise ValidationError({"amount": [_("A bid is at most %(max)s.") % {"max": core.format_money(MAX_CENTS)}]})
    if calcutta.status == CalcuttaStatus.SETUP:
        raise refusal(core.CalcuttaError("auction_not_open", "The auction has not opened yet."))
    state = load(calcutta)
    core_id = core.FIELD if lot_number == 0 else lot_number
    if core_id not in state.lots:
        raise ValidationError({"lot": [_("There is no lot %(n)s in this Calcutta.") % {"n": lot_number}]})
    try:
        result = state.auction.bid(lot=core_id, bidder=bidder.pk, amount=amount, key=key or None)
    except core.CalcuttaError as exc:
        if exc.code == "below_minimum" or exc.code == "below_increment":
            minimum = core.format_money(state.auction.minimum_next_bid(core_id))
            raise ValidationError({"amount": [_("Bid at least %(minimum)s.") % {"minimum": minimum}]}) from None
        raise refusal(exc) from None
    if not result.placed:
        return Bid.objects.get(calcutta=calcutta, idempotency_key=key), False
    lot = state.lot(core_id)
    calcutta.steps += 1
    bid = Bid.objects.create(
        calcutta=calcutta,
        lot=lot,
        bidder=bidder,
        amount=amount,
        idempotency_key=key,
        step=calcutta.steps,
        placed_by=actor,
    )
    lot.high_bid, lot.high_bidder, lot.phase = amount, bidder, state.auction.phase[core_id]
    lot.save(update_fields=["high_bid", "high_bidder", "phase"])
    calcutta.save(update_fields=["steps", "updated_at"])
    return bid, True


# --- ownership ------------------------------------------------------------------------------------------


def _ownership(state: State) -> core.Ownership:
    """The sales of the closed auction with every syndicate and buy-back replayed in order."""
    ownership = core.Ownership.from_auction(state.auction.result())
    entry_of_player = {entry.player_id: entry.pk for entry in state.entries}
    for change in OwnershipChange.objects.filter(calcutta=state.calcutta).select_related("lot"):
        ownership = _apply_change(ownership, change, state, entry_of_player)
    return ownership


def _apply_change(ownership, change: OwnershipChange, state: State, entry_of_player) -> core.Ownership:
    if change.kind == OwnershipChange.Kind.SYNDICATE:
        return ownership.form_syndicate(
            lot=change.lot.core_id, holder=change.bidder_id, shares={int(k): v for k, v in change.shares.items()}
        )
    bidder = state.bidders[change.bidder_id]
    player = core.Bidder(id=bidder.pk, entrant=entry_of_player.get(bidder.player_id) if bidder.player_id else None)
    return ownership.buy_back(
        lot=change.lot.core_id, player=player, share=change.share, at=change.at, settings=state.settings
    )


def _write_holdings(state: State, ownership: core.Ownership) -> None:
    Holding.objects.filter(lot__calcutta=state.calcutta).delete()
    rows = []
    for lot_id in ownership.holdings:
        due = ownership.amounts_due_by_lot(lot_id)
        for owner, share in ownership.owners(lot_id):
            rows.append(
                Holding(
                    lot=state.lot(lot_id),
                    bidder_id=owner,
                    numerator=share.numerator,
                    denominator=share.denominator,
                    amount_due=due[owner],
                )
            )
    Holding.objects.bulk_create(rows)


def _locked_for_change(actor, calcutta: Calcutta, lot_number: int, bidder: Bidder) -> tuple[State, Lot]:
    calcutta = _lock(calcutta)
    _require_status(calcutta, CalcuttaStatus.CLOSED, CalcuttaStatus.SETTLED, doing=_("change who owns a lot"))
    if bidder.calcutta_id != calcutta.pk:
        raise ValidationError({"bidder": [_("This bidder is not registered at this Calcutta.")]})
    state = load(calcutta)
    lot = state.lots.get(core.FIELD if lot_number == 0 else lot_number)
    if lot is None:
        raise ValidationError({"lot": [_("There is no lot %(n)s in this Calcutta.") % {"n": lot_number}]})
    return state, lot


def _record_change(state: State, change: OwnershipChange, *, save: bool = True) -> OwnershipChange:
    """Replay the change onto the current ownership (refused as the core says), then store it, rewrite the
    holdings and settle again. With save=False only the check runs (an offer is tried before it is sent)."""
    entry_of_player = {entry.player_id: entry.pk for entry in state.entries}
    try:
        ownership = _apply_change(_ownership(state), change, state, entry_of_player)
    except core.CalcuttaError as exc:
        raise refusal(exc) from None
    if save:
        change.number = OwnershipChange.objects.filter(calcutta=state.calcutta).count() + 1
        change.save()
        _write_holdings(state, ownership)
        settle_calcutta(calcutta=state.calcutta)
    return change


def _change(state: State, lot: Lot, bidder: Bidder, kind: str, actor, **values) -> OwnershipChange:
    return OwnershipChange(
        calcutta=state.calcutta, number=0, kind=kind, lot=lot, bidder=bidder, at=timezone.now(), actor=actor, **values
    )


def _check_share(share, *, field: str) -> None:
    try:
        core.parse_share(share, field=field)
    except core.CalcuttaError:
        raise ValidationError({field: [_("Write a share as 1/4, 0.25 or 25%.")]}) from None


def _speaks_for(actor, bidders) -> set[int]:
    return {b.pk for b in bidders if access.can(actor, "calcutta.consent_for", b)}


@transaction.atomic
def offer_syndicate(
    *, actor, calcutta: Calcutta, lot_number: int, holder: Bidder, shares: Mapping[Bidder, str]
) -> SyndicateOffer:
    """`holder` offers to split their holding of a lot among a syndicate (shares of that holding, totalling
    100%). The syndicate forms once every party has accepted (answer_syndicate); the proposer's word counts for
    the parties they may answer for, so a director sharing a lot among guests without logins forms it at once.
    The offer is tried on the current ownership first: one that could not take effect is refused now."""
    for member in shares:
        if member.calcutta_id != calcutta.pk:
            raise ValidationError({"shares": [_("Every member of the syndicate must be a bidder at this Calcutta.")]})
    for share in shares.values():
        _check_share(share, field="shares")
    access.require(actor, "calcutta.offer_syndicate", holder)
    state, lot = _locked_for_change(actor, calcutta, lot_number, holder)
    values = {str(member.pk): str(share) for member, share in shares.items()}
    _record_change(state, _change(state, lot, holder, OwnershipChange.Kind.SYNDICATE, actor, shares=values), save=False)
    parties = [holder, *shares]
    offer = SyndicateOffer.objects.create(
        calcutta=state.calcutta,
        lot=lot,
        holder=holder,
        shares=values,
        consents=sorted(_speaks_for(actor, parties)),
        created_by=actor,
    )
    if not offer.waiting_for():
        _form(offer, state, actor)
    return offer


def _form(offer: SyndicateOffer, state: State, actor) -> None:
    change = _change(state, offer.lot, offer.holder, OwnershipChange.Kind.SYNDICATE, actor, shares=offer.shares)
    offer.change = _record_change(state, change)
    offer.status, offer.decided_at = SyndicateOffer.Status.FORMED, timezone.now()
    offer.save(update_fields=["change", "status", "decided_at", "consents"])


@transaction.atomic
def answer_syndicate(*, actor, offer: SyndicateOffer, accept: bool) -> SyndicateOffer:
    """A party accepts or declines a syndicate offer (for themselves; a director for guests without a login).
    The last acceptance forms the syndicate; one refusal declines the offer."""
    calcutta = _lock(offer.calcutta)
    offer = lock(SyndicateOffer.objects).select_related("lot", "holder").get(pk=offer.pk)
    if offer.status != SyndicateOffer.Status.PENDING:
        raise Conflict(_("This offer was already answered: it is %(status)s.") % {"status": offer.get_status_display()})
    waiting = list(calcutta.bidders.filter(pk__in=offer.waiting_for()))
    mine = _speaks_for(actor, waiting)
    if not mine:
        raise PermissionDenied(
            _("Only the bidders this offer still waits for answer it (a director for guests without a login).")
        )
    if not accept:
        offer.status, offer.decided_at = SyndicateOffer.Status.DECLINED, timezone.now()
        offer.declined_by_id = min(mine)
        offer.save(update_fields=["status", "decided_at", "declined_by"])
        return offer
    offer.consents = sorted(set(offer.consents) | mine)
    if offer.waiting_for():
        offer.save(update_fields=["consents"])
        return offer
    state, _lot = _locked_for_change(actor, calcutta, offer.lot.number, offer.holder)
    _form(offer, state, actor)
    return offer


@transaction.atomic
def buy_back(*, actor, calcutta: Calcutta, lot_number: int, bidder: Bidder, share: str) -> None:
    """A player buys back `share` of their own lot from its owners, at the same fraction of the price (a right
    the Calcutta's settings give, within their limit and deadline: the owners' consent is not asked)."""
    _check_share(share, field="share")
    if not (calcutta.user_is_director(actor) or (actor.is_authenticated and bidder.user_id == actor.pk)):
        raise PermissionDenied(_("Only the owner concerned or a director can do this."))
    state, lot = _locked_for_change(actor, calcutta, lot_number, bidder)
    _record_change(state, _change(state, lot, bidder, OwnershipChange.Kind.BUY_BACK, actor, share=str(share)))


@transaction.atomic
def set_paid(*, actor, calcutta: Calcutta, bidder: Bidder, paid: bool) -> Bidder:
    """The director ticks off what an owner has paid in."""
    calcutta = _lock(calcutta)
    _require_director(actor, calcutta)
    if bidder.calcutta_id != calcutta.pk:
        raise ValidationError({"bidder": [_("This bidder is not registered at this Calcutta.")]})
    bidder.paid = paid
    bidder.paid_at = timezone.now() if paid else None
    bidder.save(update_fields=["paid", "paid_at"])
    return bidder


# --- settlement -----------------------------------------------------------------------------------------


def _results(calcutta: Calcutta, entrants: set[int]) -> core.Results:
    """Main-flight places (entries still alive have none) and, when the table pays one, the consolation winner."""
    from tournaments import selectors as tournament_selectors

    placements = tournament_selectors.flight_placements(flight=calcutta.flight)
    places = {p.entry_id: p.place for p in placements if p.place is not None and p.entry_id in entrants}
    winner = None
    if calcutta.consolation_percent > 0:
        entry_of_player = {p.player_id: p.entry_id for p in placements}
        for flight in calcutta.flight.event.flights.filter(kind="consolation").order_by("pk"):
            for placement in tournament_selectors.flight_placements(flight=flight):
                if placement.place == 1 and placement.player_id in entry_of_player:
                    winner = entry_of_player[placement.player_id]
    return core.Results(places=places, consolation_winner=winner)


def _update_finishes(state: State, places: Mapping[int, int]) -> None:
    changed = []
    for lot in state.lots.values():
        entrants = state.auction.lot(lot.core_id).entrants
        known = [places[e] for e in entrants if e in places]
        finish = min(known) if known else None
        if lot.finish != finish:
            lot.finish = finish
            changed.append(lot)
    if changed:
        Lot.objects.bulk_update(changed, ["finish"])


def _same(current: Settlement | None, outcome: core.Settlement, places: Mapping) -> bool:
    if current is None:
        return False
    stored = {(p.lot.core_id, p.bidder_id): p.amount for p in current.payouts.select_related("lot")}
    return (
        current.pool == outcome.pool
        and current.house_take == outcome.house_take
        and current.unclaimed == outcome.unclaimed
        and stored == {key: amount for key, amount in outcome.payouts.items() if amount}
        and current.places == {str(k): v for k, v in places.items()}
    )


def resettle(*, actor, calcutta: Calcutta) -> Settlement | None:
    """A director settles again from the bracket now (the settlement page's button and the API's settle)."""
    _require_director(actor, calcutta)
    return settle_calcutta(calcutta=calcutta)


@transaction.atomic
def settle_calcutta(*, calcutta: Calcutta) -> Settlement | None:
    """Settle (again) from the bracket as it stands. A new version replaces the current one when anything
    changed; while a paid place is still open the Calcutta stays closed and says why. Never raises for the
    bracket's sake: a result confirmation must not fail because its Calcutta cannot be settled yet."""
    calcutta = _lock(calcutta)
    if calcutta.status not in (CalcuttaStatus.CLOSED, CalcuttaStatus.SETTLED):
        return None
    state = load(calcutta)
    ownership = _ownership(state)
    results = _results(calcutta, {entry.pk for entry in state.entries})
    _update_finishes(state, results.places)
    current = calcutta.settlements.filter(is_current=True).first()
    try:
        outcome = core.settle(settings=state.settings, ownership=ownership, results=results)
    except core.CalcuttaError as exc:
        if current is not None:
            current.is_current = False
            current.save(update_fields=["is_current"])
        calcutta.status = CalcuttaStatus.CLOSED
        calcutta.settlement_note = _message(exc)[:300]
        calcutta.save(update_fields=["status", "settlement_note", "updated_at"])
        return None
    if _same(current, outcome, results.places):
        return current
    if current is not None:
        current.is_current = False
        current.save(update_fields=["is_current"])
    settlement = Settlement.objects.create(
        calcutta=calcutta,
        version=(current.version + 1) if current else calcutta.settlements.count() + 1,
        pool=outcome.pool,
        house_take=outcome.house_take,
        net_pool=outcome.net_pool,
        unclaimed=outcome.unclaimed,
        places={str(entry): place for entry, place in results.places.items()},
        consolation_winner=results.consolation_winner,
        lot_prizes={str(state.lot(lot_id).number): prize for lot_id, prize in outcome.lot_prizes.items()},
    )
    OwnerLine.objects.bulk_create(
        OwnerLine(settlement=settlement, bidder_id=line.owner, paid_in=line.paid_in, won=line.won)
        for line in outcome.owners
    )
    Payout.objects.bulk_create(
        Payout(settlement=settlement, lot=state.lot(lot_id), bidder_id=owner, amount=amount)
        for (lot_id, owner), amount in outcome.payouts.items()
        if amount
    )
    calcutta.status = CalcuttaStatus.SETTLED
    calcutta.settlement_note = ""
    calcutta.save(update_fields=["status", "settlement_note", "updated_at"])
    return settlement


def on_flight_results_changed(flight) -> None:
    """Registered with tournaments.hooks: a result in this flight (or in its event's consolation) changed.

    Each Calcutta settles inside its own savepoint: if its stored auction cannot be rebuilt any more, the bracket's
    change still goes through and the Calcutta says why it is not settled."""
    for calcutta in Calcutta.objects.filter(
        flight__event_id=flight.event_id, status__in=[CalcuttaStatus.CLOSED, CalcuttaStatus.SETTLED]
    ):
        try:
            with transaction.atomic():
                settle_calcutta(calcutta=calcutta)
        except (core.CalcuttaError, ValidationError, Conflict) as exc:
            note = (
                exc.message if isinstance(exc, core.CalcuttaError) else " ".join(getattr(exc, "messages", [str(exc)]))
            )
            logger.warning("Calcutta %s not settled after a result changed: %s", calcutta.pk, note)
            Calcutta.objects.filter(pk=calcutta.pk).update(settlement_note=note[:300])
