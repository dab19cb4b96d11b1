"""Writes for events: flights, entries, draws, the bracket's progression, corrections and overrides.

The one adapter of tournaments.core: it loads rows, asks the core what a decided slot leads to
(`rules.consequences`), and stores that. Every function checks the actor first and runs in a transaction;
bracket writes take the slot's row lock, so two confirmations of one match (or of the two matches feeding one
slot) are serialised and the winner moves on exactly once.
"""

from __future__ import annotations

import random
import threading
from dataclasses import dataclass
from decimal import Decimal

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from clubs import selectors as club_selectors
from clubs.models import Club, Membership, Player
from core.api import Conflict
from games.models.matches import Match, MatchContext, MatchOutcome, MatchStatus
from tournaments import hooks
from tournaments.core import rules
from tournaments.core.draw import DrawEntrant, bracket_size, late_entry_position
from tournaments.core.draw import draw as core_draw
from tournaments.core.errors import BracketError
from tournaments.core.layout import Key, Layout, Target
from tournaments.core.payouts import validate_template
from tournaments.models import (
    BracketChange,
    DrawStatus,
    Entry,
    EntryStatus,
    Event,
    EventStatus,
    FeedRule,
    Flight,
    FlightKind,
    FlightStatus,
    Seeding,
    Slot,
    SlotResult,
)

# A match outcome -> what it means for the bracket.
OUTCOME_RESULT = {
    MatchOutcome.PLAYED: rules.PLAYED,
    MatchOutcome.LATENESS: rules.PLAYED,
    MatchOutcome.FORFEIT: rules.PLAYED,
    MatchOutcome.WALKOVER: rules.WALKOVER,
    MatchOutcome.NO_SHOW: rules.WALKOVER,
    MatchOutcome.DOUBLE_FORFEIT: rules.DOUBLE_FORFEIT,
}
SLOT_RESULT = {
    rules.PLAYED: SlotResult.PLAYED,
    rules.WALKOVER: SlotResult.WALKOVER,
    rules.BYE: SlotResult.BYE,
    rules.DOUBLE_FORFEIT: SlotResult.DOUBLE_FORFEIT,
    rules.EMPTY: SlotResult.EMPTY,
}
CORE_RESULT = {v: k for k, v in SLOT_RESULT.items()}
DECIDED = set(SLOT_RESULT.values())
BRACKET_KINDS = (FlightKind.MAIN, FlightKind.CONSOLATION, FlightKind.LAST_CHANCE, FlightKind.DOUBLE_ELIMINATION)

# Set while a tournaments service itself changes match results (an override, a walkover for a withdrawal), so
# the result hook knows the bracket change was asked for and shown first.
_override = threading.local()


def _bracket_error(exc: BracketError) -> ValidationError:
    return ValidationError({exc.field: [exc.message]})


# --- permissions ------------------------------------------------------------------------------------------


def _require_director(actor, event: Event) -> None:
    if not event.user_is_director(actor):
        raise PermissionDenied(_("Only a director of this event can do this."))


def directs_match(match, user) -> bool:
    """Registered with games: an event's directors direct the matches of its bracket."""
    if match.context != MatchContext.TOURNAMENT:
        return False
    slot = Slot.objects.filter(match=match).select_related("flight__event__club").first()
    return slot is not None and slot.flight.event.user_is_director(user)


# --- events and flights -----------------------------------------------------------------------------------


@transaction.atomic
def create_event(
    *,
    actor,
    club: Club,
    name: str,
    starts_on,
    ends_on=None,
    slug: str = "",
    is_public: bool = True,
    registration_open: bool = True,
    house_percent: Decimal = Decimal("0"),
    currency: str = "EUR",
) -> Event:
    if not club_selectors.is_club_director(user=actor, club=club):
        raise PermissionDenied(_("Only a director or admin of the club can create an event."))
    if not name.strip():
        raise ValidationError({"name": [_("Give the event a name.")]})
    ends_on = ends_on or starts_on
    if ends_on < starts_on:
        raise ValidationError({"ends_on": [_("The event cannot end before it starts.")]})
    if not Decimal("0") <= Decimal(house_percent) <= Decimal("100"):
        raise ValidationError({"house_percent": [_("The house percentage is between 0 and 100.")]})
    slug = slugify(slug or name)[:60] or "event"
    if Event.objects.filter(club=club, slug=slug).exists():
        raise ValidationError({"slug": [_("The club already has an event with this short name; choose another.")]})
    event = Event.objects.create(
        club=club,
        name=name.strip(),
        slug=slug,
        starts_on=starts_on,
        ends_on=ends_on,
        is_public=is_public,
        registration_open=registration_open,
        house_percent=house_percent,
        currency=currency,
    )
    event.directors.add(actor)
    return event


@transaction.atomic
def update_event(*, actor, event: Event, **fields) -> Event:
    _require_director(actor, event)
    allowed = {"name", "is_public", "registration_open", "house_percent", "ends_on"}
    unknown = set(fields) - allowed
    if unknown:
        raise ValidationError({sorted(unknown)[0]: [_("This field cannot be changed here.")]})
    for name, value in fields.items():
        setattr(event, name, value)
    if "house_percent" in fields and not Decimal("0") <= Decimal(event.house_percent) <= Decimal("100"):
        raise ValidationError({"house_percent": [_("The house percentage is between 0 and 100.")]})
    event.save(update_fields=list(fields))
    return event


@transaction.atomic
def add_director(*, actor, event: Event, user) -> None:
    _require_director(actor, event)
    event.directors.add(user)


@transaction.atomic
def add_flight(
    *,
    actor,
    event: Event,
    name: str,
    kind: str = FlightKind.MAIN,
    slug: str = "",
    source: Flight | None = None,
    feed_rule: str | None = None,
    feed_rounds: int = 1,
    entry_round: int = 1,
    entry_fee: Decimal = Decimal("0"),
    reentry_fee: Decimal | None = None,
    reentry_deadline=None,
    length: int = 7,
    final_length: int | None = None,
    round_lengths: dict | None = None,
    seeding: str = Seeding.RANDOM,
    separate_clubs: bool = False,
    payout_template: list | None = None,
) -> Flight:
    _require_director(actor, event)
    if kind not in FlightKind.values:
        raise ValidationError({"kind": [_("Choose main, consolation, last chance, double elimination or side pool.")]})
    if source is not None and source.event_id != event.pk:
        raise ValidationError({"source": [_("The source flight must belong to the same event.")]})
    if kind in (FlightKind.MAIN, FlightKind.DOUBLE_ELIMINATION):
        if source is not None:
            raise ValidationError({"source": [_("A main or double-elimination flight has its own draw, no source.")]})
        feed_rule = FeedRule.DRAW
    else:
        if source is None:
            raise ValidationError({"source": [_("Say which flight feeds this one.")]})
        if source.kind in (FlightKind.SIDE_POOL, FlightKind.DOUBLE_ELIMINATION):
            raise ValidationError({"source": [_("A side pool or double elimination cannot feed another flight.")]})
        if kind == FlightKind.SIDE_POOL:
            feed_rule = FeedRule.POOL
        else:
            feed_rule = feed_rule or FeedRule.FIRST_PLAYED
            if feed_rule not in (FeedRule.FIRST_PLAYED, FeedRule.PROGRESSIVE, FeedRule.FRESH_DRAW):
                raise ValidationError({"feed_rule": [_("Choose first_played, progressive or fresh_draw.")]})
            if feed_rule == FeedRule.PROGRESSIVE and source.kind != FlightKind.MAIN:
                raise ValidationError({"feed_rule": [_("Only the main flight feeds a progressive consolation.")]})
            if source.fed_flights.exclude(kind=FlightKind.SIDE_POOL).exists():
                raise ValidationError({"source": [_("This flight already feeds another flight.")]})
            if source.draw_status != DrawStatus.NONE:
                raise Conflict(_("The source flight is drawn already: add fed flights before its draw."))
    if not 1 <= int(feed_rounds) <= 12:
        raise ValidationError({"feed_rounds": [_("Feed rounds are between 1 and 12.")]})
    for field_name, value in (("length", length), ("final_length", final_length)):
        if value is not None and not 1 <= int(value) <= 99:
            raise ValidationError({field_name: [_("A match length is between 1 and 99 points.")]})
    round_lengths = round_lengths or {}
    try:
        round_lengths = {str(int(r)): int(n) for r, n in round_lengths.items()}
    except (TypeError, ValueError, AttributeError):
        raise ValidationError({"round_lengths": [_('Give lengths by round like {"3": 9}.')]}) from None
    if any(not 1 <= n <= 99 for n in round_lengths.values()):
        raise ValidationError({"round_lengths": [_("A match length is between 1 and 99 points.")]})
    for field_name, fee in (("entry_fee", entry_fee), ("reentry_fee", reentry_fee)):
        if fee is not None and Decimal(fee) < 0:
            raise ValidationError({field_name: [_("A fee cannot be negative.")]})
    payout_template = payout_template or []
    try:
        validate_template(payout_template)
    except BracketError as exc:
        raise _bracket_error(exc) from None
    slug = slugify(slug or name)[:40] or kind
    if event.flights.filter(slug=slug).exists():
        raise ValidationError({"slug": [_("The event already has a flight with this short name.")]})
    return Flight.objects.create(
        event=event,
        name=name.strip() or FlightKind(kind).label,
        slug=slug,
        kind=kind,
        order=event.flights.count(),
        source=source,
        feed_rule=feed_rule,
        feed_rounds=feed_rounds,
        entry_round=entry_round,
        entry_fee=entry_fee,
        reentry_fee=reentry_fee,
        reentry_deadline=reentry_deadline,
        length=length,
        final_length=final_length,
        round_lengths=round_lengths,
        seeding=seeding,
        separate_clubs=separate_clubs,
        payout_template=payout_template,
    )


@transaction.atomic
def set_payout_template(*, actor, flight: Flight, template: list) -> Flight:
    _require_director(actor, flight.event)
    try:
        validate_template(template)
    except BracketError as exc:
        raise _bracket_error(exc) from None
    slugs = set(flight.event.flights.values_list("slug", flat=True))
    for line in template:
        if line.get("flight") and line["flight"] not in slugs:
            message = _("No flight %(slug)s in this event.") % {"slug": line["flight"]}
            raise ValidationError({"payout_template": [message]})
    flight.payout_template = template
    flight.save(update_fields=["payout_template"])
    return flight


# --- entries ----------------------------------------------------------------------------------------------


def _lock_flight(flight: Flight) -> Flight:
    # Race: two registrations or a registration and the draw at once would both read the same entries and
    # the same free positions; the flight row lock serialises them.
    return Flight.objects.select_for_update(of=("self",)).select_related("event__club").get(pk=flight.pk)


@transaction.atomic
def register(*, actor, flight: Flight, player: Player | None = None) -> Entry:
    """A director registers anyone; a player registers themself while registration is open. After the draw the
    entry is a late entry and goes into a bye (see core.draw.late_entry_position)."""
    flight = _lock_flight(flight)
    event = flight.event
    is_director = event.user_is_director(actor)
    own = club_selectors.player_for_user(actor)
    if player is None:
        player = own
    if player is None:
        raise ValidationError({"player": [_("Choose the player to register.")]})
    if not is_director:
        if own is None or own.pk != player.pk:
            raise PermissionDenied(_("Players register themselves; a director registers others."))
        if not event.registration_open:
            raise Conflict(_("Registration is closed: ask a director to enter you."))
    if flight.kind == FlightKind.SIDE_POOL:
        return _join_side_pool(actor=actor, flight=flight, player=player)
    if flight.feed_rule != FeedRule.DRAW:
        message = _("This flight takes the losers of %(source)s; nobody registers for it.")
        raise Conflict(message % {"source": flight.source})
    if flight.entries.filter(player=player, is_reentry=False).exists():
        raise Conflict(_("%(player)s is already entered in %(flight)s.") % {"player": player, "flight": flight.name})
    if flight.status == FlightStatus.FINISHED:
        raise Conflict(_("This flight is finished."))
    entry = Entry.objects.create(
        flight=flight,
        player=player,
        fee=flight.entry_fee,
        registered_by=actor,
        is_late=flight.draw_status != DrawStatus.NONE,
    )
    if entry.is_late:
        _place_late(flight, entry)
    return entry


def _join_side_pool(*, actor, flight: Flight, player: Player) -> Entry:
    source_entry = flight.source.entries.filter(player=player).order_by("-is_reentry").first()
    if source_entry is None:
        message = _("Only players of %(flight)s join this side pool.") % {"flight": flight.source.name}
        raise ValidationError({"player": [message]})
    if source_entry.place is not None and (source_entry.out_round or 0) < flight.entry_round:
        raise Conflict(_("This player is out of %(flight)s already.") % {"flight": flight.source.name})
    started = flight.source.slots.filter(round=flight.entry_round, match__started_at__isnull=False).exists()
    if started or flight.source.slots.filter(round__gt=flight.entry_round).exclude(result=SlotResult.PENDING).exists():
        raise Conflict(_("Round %(r)s has started: the side pool is closed.") % {"r": flight.entry_round})
    if flight.entries.filter(player=player).exists():
        raise Conflict(_("%(player)s is in this side pool already.") % {"player": player})
    return Entry.objects.create(flight=flight, player=player, fee=flight.entry_fee, registered_by=actor)


def _place_late(flight: Flight, entry: Entry) -> None:
    """A late entrant takes a bye's place: in the drawn line before release, in the bracket after it."""
    if flight.draw_status in (DrawStatus.DRAFT, DrawStatus.CONFIRMED):
        line = _line(flight, exclude=entry.pk)
        try:
            entry.draw_position = late_entry_position(line)
        except BracketError as exc:
            raise Conflict(exc.message) from None
        entry.save(update_fields=["draw_position"])
        return
    store = BracketStore(flight.event)
    byes = flight.slots.filter(section=store.layout(flight).first_section, round=1, result=SlotResult.BYE)
    for slot in byes.order_by("position"):
        if store.cascade(slot, include_self=False, started_only=True):
            continue  # the bye holder has started playing on: this bye cannot be taken back
        store.undo(slot, actor=None)
        slot.refresh_from_db()
        side = 0 if slot.a_empty else 1
        entry.draw_position = slot.position * 2 + side
        entry.save(update_fields=["draw_position"])
        if side == 0:
            slot.a_empty, slot.entry_a = False, None
        else:
            slot.b_empty, slot.entry_b = False, None
        slot.save(update_fields=["a_empty", "b_empty", "entry_a", "entry_b"])
        store.set_side(flight, Target(Key(slot.section, 1, slot.position), side), entry)
        return
    raise Conflict(_("No bye is left whose player has not played on: a late entry cannot be placed."))


def _line(flight: Flight, *, exclude: int | None = None) -> list:
    line: list = [None] * (flight.size or 0)
    for entry_id, position in (
        flight.entries.exclude(pk=exclude).filter(draw_position__isnull=False).values_list("id", "draw_position")
    ):
        line[position] = entry_id
    return line


@transaction.atomic
def check_in(*, actor, entry: Entry) -> Entry:
    event = entry.flight.event
    own = club_selectors.player_for_user(actor)
    if not (event.user_is_director(actor) or (own is not None and own.pk == entry.player_id)):
        raise PermissionDenied(_("Players check themselves in; a director checks in anyone."))
    if entry.status == EntryStatus.WITHDRAWN:
        raise Conflict(_("This entry was withdrawn."))
    entry.status, entry.checked_in_at = EntryStatus.CHECKED_IN, timezone.now()
    entry.save(update_fields=["status", "checked_in_at"])
    return entry


@transaction.atomic
def withdraw(*, actor, entry: Entry, comment: str = "") -> Entry | None:
    """Before the draw the entry is removed; after it the opponent wins by walkover (now, or as soon as one
    arrives). Returns None when the entry was removed."""
    flight = _lock_flight(entry.flight)
    entry = flight.entries.get(pk=entry.pk)
    event = flight.event
    own = club_selectors.player_for_user(actor)
    if not (event.user_is_director(actor) or (own is not None and own.pk == entry.player_id)):
        raise PermissionDenied(_("Players withdraw themselves; a director withdraws anyone."))
    if entry.status == EntryStatus.WITHDRAWN:
        return entry
    if flight.draw_status == DrawStatus.NONE or flight.kind == FlightKind.SIDE_POOL:
        entry.delete()
        return None
    if entry.place is not None:
        raise Conflict(_("This player is out of the flight already."))
    entry.status, entry.withdrawn_at = EntryStatus.WITHDRAWN, timezone.now()
    entry.save(update_fields=["status", "withdrawn_at"])
    if flight.draw_status != DrawStatus.RELEASED:
        return entry  # the walkover follows at release
    slot = (
        flight.slots.filter(Q(entry_a=entry) | Q(entry_b=entry)).exclude(result__in=DECIDED).order_by("-round").first()
    )
    if slot is not None and slot.match_id is not None:
        match = slot.match
        if match.status not in (MatchStatus.SCHEDULED, MatchStatus.IN_PROGRESS):
            return entry
        from games.matchplay import services as match_services

        winner_side = 1 if slot.entry_a_id == entry.pk else 0
        _override.active = True
        try:
            match_services.submit_report(
                actor=actor if event.user_is_director(actor) else _director_of(event),
                match=match,
                method="no_play",
                outcome=MatchOutcome.WALKOVER,
                winner_side=winner_side,
                comment=comment or _("Withdrawn from the event."),
                as_director=True,
            )
        finally:
            _override.active = False
    return entry


def _director_of(event: Event):
    """A director account to sign a walkover the player asked for themself."""
    director = event.directors.order_by("pk").first()
    if director is None:
        raise Conflict(_("This event has no director to record the walkover; ask the club."))
    return director


@transaction.atomic
def reenter(*, actor, flight: Flight, player: Player) -> Entry:
    """Buy back in after a loss: for the flight's re-entry fee, until its deadline, into a bye's place."""
    flight = _lock_flight(flight)
    _require_director(actor, flight.event)
    if flight.reentry_fee is None:
        raise Conflict(_("This flight does not allow re-entry."))
    if flight.reentry_deadline and timezone.now() > flight.reentry_deadline:
        raise Conflict(_("The re-entry deadline has passed."))
    first = flight.entries.filter(player=player, is_reentry=False).first()
    if first is None or first.place is None:
        raise Conflict(_("Only a player who has lost in this flight can re-enter it."))
    if flight.entries.filter(player=player, is_reentry=True).exists():
        raise Conflict(_("This player has re-entered once already."))
    entry = Entry.objects.create(
        flight=flight, player=player, fee=flight.reentry_fee, registered_by=actor, is_late=True, is_reentry=True
    )
    _place_late(flight, entry)
    # The player leaves the flights their loss fed: a walkover there for whoever they would have met.
    for fed in Entry.objects.filter(flight__source=flight, player=player, place__isnull=True).exclude(
        flight__kind=FlightKind.SIDE_POOL
    ):
        withdraw(actor=actor, entry=fed, comment=_("Re-entered %(flight)s.") % {"flight": flight.name})
    return entry


# --- draws ------------------------------------------------------------------------------------------------


def _home_clubs(player_ids: list[int]) -> dict[int, int]:
    clubs: dict[int, int] = {}
    for player_id, club_id in (
        Membership.objects.filter(player_id__in=player_ids, is_active=True)
        .order_by("joined_on", "pk")
        .values_list("player_id", "club_id")
    ):
        clubs.setdefault(player_id, club_id)
    return clubs


@transaction.atomic
def draw_flight(*, actor, flight: Flight, seed: int | None = None) -> Flight:
    """Draw round 1 (again, while the draw is a draft). The seed is stored so anyone can reproduce it."""
    flight = _lock_flight(flight)
    _require_director(actor, flight.event)
    if flight.draw_status not in (DrawStatus.NONE, DrawStatus.DRAFT):
        raise Conflict(_("The draw is confirmed: it cannot be drawn again."))
    if flight.feed_rule not in (FeedRule.DRAW, FeedRule.FRESH_DRAW):
        message = _("This flight is linked to %(source)s and needs no draw of its own.")
        raise Conflict(message % {"source": flight.source})
    if flight.feed_rule == FeedRule.FRESH_DRAW and not fresh_draw_ready(flight=flight):
        message = _("Not every player of %(source)s has played a match yet: draw when they have.")
        raise Conflict(message % {"source": flight.source})
    entries = list(flight.entries.exclude(status=EntryStatus.WITHDRAWN).select_related("player").order_by("pk"))
    if len(entries) < 2:
        raise ValidationError({"entries": [_("A draw needs at least two entries.")]})
    if flight.kind == FlightKind.DOUBLE_ELIMINATION and len(entries) < 3:
        raise ValidationError({"entries": [_("Double elimination needs at least three entries.")]})
    seed = random.SystemRandom().randrange(2**53) if seed is None else int(seed)
    ratings: dict[int, float] = {}
    if flight.seeding == Seeding.RATING:
        from ratings.selectors import player_ratings

        ratings = player_ratings(player_ids=[e.player_id for e in entries])
    clubs = _home_clubs([e.player_id for e in entries]) if flight.separate_clubs else {}
    fresh = flight.feed_rule == FeedRule.FRESH_DRAW
    drawn = [
        DrawEntrant(
            e.pk,
            rating=ratings.get(e.player_id, 1500.0),
            club=clubs.get(e.player_id),
            on_time=not e.had_bye if fresh else not e.is_late,
        )
        for e in entries
    ]
    if fresh and bracket_size(len(drawn)) - len(drawn) > sum(d.on_time for d in drawn):
        drawn = [DrawEntrant(d.key, d.rating, d.club) for d in drawn]  # too few without a bye to take them all
    try:
        line = core_draw(
            drawn, rng_seed=seed, seeded=flight.seeding == Seeding.RATING, separate_clubs=flight.separate_clubs
        )
    except BracketError as exc:
        raise _bracket_error(exc) from None
    by_id = {e.pk: e for e in entries}
    seed_rank = sorted(entries, key=lambda e: -ratings.get(e.player_id, 1500.0))
    Entry.objects.filter(flight=flight).update(draw_position=None)
    for position, entry_id in enumerate(line):
        if entry_id is not None:
            entry = by_id[entry_id]
            entry.draw_position = position
            entry.rating = ratings.get(entry.player_id) if ratings else None
            entry.seed = seed_rank.index(entry) + 1 if ratings else None
    Entry.objects.bulk_update(entries, ["draw_position", "rating", "seed"])
    flight.random_seed, flight.size = seed, len(line)
    flight.draw_status, flight.drawn_at = DrawStatus.DRAFT, timezone.now()
    flight.save(update_fields=["random_seed", "size", "draw_status", "drawn_at"])
    return flight


@transaction.atomic
def confirm_draw(*, actor, flight: Flight) -> Flight:
    flight = _lock_flight(flight)
    _require_director(actor, flight.event)
    if flight.draw_status != DrawStatus.DRAFT:
        raise Conflict(_("Only a draft draw can be confirmed; draw first."))
    flight.draw_status, flight.confirmed_at = DrawStatus.CONFIRMED, timezone.now()
    flight.save(update_fields=["draw_status", "confirmed_at"])
    return flight


@transaction.atomic
def release_draw(*, actor, flight: Flight) -> Flight:
    """Publish the confirmed draw: lay out the bracket (and the brackets linked to it), move byes on, create
    the round-1 matches."""
    flight = _lock_flight(flight)
    _require_director(actor, flight.event)
    if flight.draw_status != DrawStatus.CONFIRMED:
        raise Conflict(_("Confirm the draw before releasing it."))
    flight.draw_status, flight.released_at, flight.status = DrawStatus.RELEASED, timezone.now(), FlightStatus.RUNNING
    flight.save(update_fields=["draw_status", "released_at", "status"])
    event = flight.event
    if event.status == EventStatus.PLANNED:
        event.status = EventStatus.RUNNING
        event.save(update_fields=["status"])
    store = BracketStore(event, actor=actor)
    layout = store.layout(flight)
    store.create_slots(flight, layout)
    linked = flight
    while True:
        fed = store.fed_flight(linked)
        if fed is None or fed.feed_rule == FeedRule.FRESH_DRAW:
            break
        size = 2 * store.layout(linked).rounds(store.layout(linked).first_section)[0].slots
        fed.draw_status, fed.released_at = DrawStatus.RELEASED, timezone.now()
        if size < 4:  # one round-1 match cannot feed a bracket: the linked flight stays empty
            fed.status = FlightStatus.FINISHED
            fed.save(update_fields=["draw_status", "status", "released_at"])
            break
        fed.size, fed.status = size, FlightStatus.RUNNING
        fed.save(update_fields=["size", "draw_status", "status", "released_at"])
        store.create_slots(fed, store.layout(fed))
        linked = fed
    line = [None] * flight.size
    for entry in flight.entries.filter(draw_position__isnull=False):
        line[entry.draw_position] = entry
    for position, entry in enumerate(line):
        store.set_side(flight, layout.round_one_target(position), entry)
    store.notify(flight)
    return flight


def fresh_draw_ready(*, flight: Flight) -> bool:
    """A fresh-draw flight can be drawn once every player of its source has played (or is out) and no more
    players can come into the source."""
    source = flight.source
    if source is None or source.draw_status != DrawStatus.RELEASED:
        return False
    layout = BracketStore(flight.event).layout(source)
    last_fed = layout.fed_round_count() if layout.kind == "fed" else 1
    pending = source.slots.filter(section=layout.first_section, round__lte=last_fed).filter(
        Q(entry_a__isnull=True, a_empty=False) | Q(entry_b__isnull=True, b_empty=False)
    )
    unplayed = source.entries.filter(first_played_slot__isnull=True, place__isnull=True).exclude(
        status=EntryStatus.WITHDRAWN
    )
    return not pending.exists() and not unplayed.exists()


# --- progression ------------------------------------------------------------------------------------------


@dataclass
class Step:
    """One slot a correction would void, for the director to see before applying it."""

    slot: Slot
    started: bool


class BracketStore:
    """Applies the core's actions to slot rows. Layouts and fed flights are cached per request."""

    def __init__(self, event: Event, *, actor=None):
        self.event = event
        self.actor = actor
        self._layouts: dict[int, Layout] = {}
        self._fed: dict[int, Flight | None] = {}
        self.touched: dict[int, Flight] = {}  # flights whose bracket changed, for the hooks

    def notify(self, first: Flight) -> None:
        """Tell the on_flight_results_changed callbacks about every flight this change touched."""
        hooks.flight_results_changed(first)
        for flight in self.touched.values():
            if flight.pk != first.pk:
                hooks.flight_results_changed(flight)

    # --- shape -----------------------------------------------------------------------------------------------

    def layout(self, flight: Flight) -> Layout:
        if flight.pk not in self._layouts:
            if flight.kind == FlightKind.DOUBLE_ELIMINATION:
                layout = Layout.double(flight.size)
            elif flight.feed_rule in (FeedRule.FIRST_PLAYED, FeedRule.PROGRESSIVE):
                rounds = flight.feed_rounds if flight.feed_rule == FeedRule.PROGRESSIVE else 1
                layout = Layout.fed(flight.size, rounds)
            else:
                layout = Layout.knockout(flight.size)
            self._layouts[flight.pk] = layout
        return self._layouts[flight.pk]

    def fed_flight(self, flight: Flight) -> Flight | None:
        if flight.pk not in self._fed:
            self._fed[flight.pk] = (
                Flight.objects.filter(source=flight).exclude(kind=FlightKind.SIDE_POOL).select_related("event").first()
            )
        return self._fed[flight.pk]

    def feed(self, flight: Flight) -> rules.Feed | None:
        fed = self.fed_flight(flight)
        if fed is None or (fed.size is None and fed.feed_rule != FeedRule.FRESH_DRAW):
            return None
        layout = None if fed.feed_rule == FeedRule.FRESH_DRAW or fed.size is None else self.layout(fed)
        return rules.Feed(fed.feed_rule, layout, fed.feed_rounds)

    def create_slots(self, flight: Flight, layout: Layout) -> None:
        Slot.objects.bulk_create(
            Slot(flight=flight, section=k.section, round=k.round, position=k.position) for k in layout.slot_keys()
        )

    def _slot(self, flight: Flight, key: Key) -> Slot:
        # Race: two results filling the two sides of this slot at once would each write their side over a row
        # read before the other's write (one winner lost, or two matches created). The row lock serialises
        # them; the entries are read after it (a join in the locking query can come back empty on PostgreSQL
        # when the row changed while we waited).
        slot = Slot.objects.select_for_update().get(
            flight=flight, section=key.section, round=key.round, position=key.position
        )
        ids = [i for i in (slot.entry_a_id, slot.entry_b_id) if i is not None]
        entries = {e.pk: e for e in Entry.objects.filter(pk__in=ids)} if ids else {}
        slot.entry_a = entries.get(slot.entry_a_id)
        slot.entry_b = entries.get(slot.entry_b_id)
        return slot

    # --- moving players --------------------------------------------------------------------------------------

    def set_side(self, flight: Flight, target: Target, entry: Entry | None) -> None:
        self.touched.setdefault(flight.pk, flight)
        slot = self._slot(flight, target.key)
        slot.flight = flight
        taken = (
            (slot.entry_a_id is not None or slot.a_empty)
            if target.side == 0
            else (slot.entry_b_id is not None or slot.b_empty)
        )
        if taken:
            raise Conflict(_("The bracket moved on at the same time; reload and try again."))
        if target.side == 0:
            slot.entry_a, slot.a_empty = entry, entry is None
        else:
            slot.entry_b, slot.b_empty = entry, entry is None
        state, side = rules.resolve(self._side(slot, 0), self._side(slot, 1))
        if state == "ready":
            a, b = slot.entry_a, slot.entry_b
            if a.status == EntryStatus.WITHDRAWN or b.status == EntryStatus.WITHDRAWN:
                slot.save(update_fields=["entry_a", "entry_b", "a_empty", "b_empty"])
                self._withdrawn_meet(slot)
                return
            slot.result = SlotResult.READY
            slot.match = self._create_match(flight, slot)
            slot.save(update_fields=["entry_a", "entry_b", "a_empty", "b_empty", "result", "match"])
            return
        slot.save(update_fields=["entry_a", "entry_b", "a_empty", "b_empty"])
        if state == rules.BYE:
            winner = slot.entry_a if side == 0 else slot.entry_b
            if winner.status == EntryStatus.WITHDRAWN:  # nobody to give the bye to: the place stays empty
                self.decide(slot, rules.DOUBLE_FORFEIT, None, (winner,))
                return
            winner.had_bye = True
            winner.save(update_fields=["had_bye"])
            self.decide(slot, rules.BYE, winner, ())
        elif state == rules.EMPTY:
            self.decide(slot, rules.EMPTY, None, ())

    @staticmethod
    def _side(slot: Slot, side: int):
        entry_id, empty = (slot.entry_a_id, slot.a_empty) if side == 0 else (slot.entry_b_id, slot.b_empty)
        if empty:
            return rules.EMPTY_SIDE
        return rules.PENDING_SIDE if entry_id is None else entry_id

    def _withdrawn_meet(self, slot: Slot) -> None:
        a, b = slot.entry_a, slot.entry_b
        if a.status == EntryStatus.WITHDRAWN and b.status == EntryStatus.WITHDRAWN:
            self.decide(slot, rules.DOUBLE_FORFEIT, None, (a, b))
        elif a.status == EntryStatus.WITHDRAWN:
            self.decide(slot, rules.WALKOVER, b, (a,))
        else:
            self.decide(slot, rules.WALKOVER, a, (b,))

    def _create_match(self, flight: Flight, slot: Slot) -> Match:
        is_final = self.layout(flight).is_final(Key(slot.section, slot.round, slot.position))
        return Match.objects.create(
            player_a_id=slot.entry_a.player_id,
            player_b_id=slot.entry_b.player_id,
            length=flight.length_for(slot.round, is_final=is_final),
            context=MatchContext.TOURNAMENT,
            club_id=self.event.club_id,
            is_public=self.event.is_public,
            created_by=self.actor if getattr(self.actor, "is_authenticated", False) else None,
        )

    @staticmethod
    def _facts(entry: Entry, slot: Slot) -> rules.EntryFacts:
        has_played = entry.first_played_slot_id is not None and entry.first_played_slot_id != slot.pk
        return rules.EntryFacts(entry.pk, entry.draw_position, has_played)

    def _actions(self, slot: Slot, result: str, winner: Entry | None, losers) -> list:
        return rules.consequences(
            layout=self.layout(slot.flight),
            key=Key(slot.section, slot.round, slot.position),
            result=result,
            winner=None if winner is None else self._facts(winner, slot),
            losers=tuple(self._facts(e, slot) for e in losers),
            feed=self.feed(slot.flight),
        )

    def decide(self, slot: Slot, result: str, winner: Entry | None, losers: tuple[Entry, ...]) -> None:
        flight = slot.flight
        self.touched.setdefault(flight.pk, flight)
        slot.result = SLOT_RESULT[result]
        slot.winner = winner
        slot.loser = losers[0] if len(losers) == 1 else None
        slot.decided_at = timezone.now()
        slot.save(update_fields=["result", "winner", "loser", "decided_at"])
        entries = {e.pk: e for e in (winner, *losers) if e is not None}
        for action in self._actions(slot, result, winner, losers):
            self._apply(flight, slot, entries, action)
        if self.layout(flight).winner_target(Key(slot.section, slot.round, slot.position)) is None:
            # The final is decided (by the last action: a loss there may still feed another flight first);
            # a final nobody reached (everyone withdrew) still ends the flight.
            self._finish(flight)

    def _apply(self, flight: Flight, slot: Slot, entries: dict[int, Entry], action) -> None:
        if isinstance(action, rules.FirstPlayed):
            Entry.objects.filter(pk=action.entry).update(first_played_slot=slot)
        elif isinstance(action, rules.Out):
            Entry.objects.filter(pk=action.entry).update(place=action.place, out_round=slot.round)
        elif isinstance(action, rules.Champion):
            Entry.objects.filter(pk=action.entry).update(place=1)
        elif isinstance(action, rules.Move):
            self.set_side(flight, action.target, None if action.entry is None else entries[action.entry])
        elif isinstance(action, rules.FeedTo):
            fed = self.fed_flight(flight)
            entry = None
            if action.entry is not None:
                source = entries[action.entry]
                line = None
                if action.target is not None and action.target.key.round == 1:
                    line = action.target.key.position * 2 + action.target.side
                entry = Entry.objects.create(
                    flight=fed,
                    player_id=source.player_id,
                    draw_position=line,
                    had_bye=source.had_bye,
                    is_reentry=source.is_reentry,
                )
            if action.target is not None:
                self.set_side(fed, action.target, entry)

    def _finish(self, flight: Flight) -> None:
        Flight.objects.filter(pk=flight.pk).update(status=FlightStatus.FINISHED)
        flight.status = FlightStatus.FINISHED
        fed = self.fed_flight(flight)
        if fed is not None and fed.feed_rule == FeedRule.FRESH_DRAW and fed.draw_status == DrawStatus.NONE:
            # Its pool is complete now; with fewer than two players there is nothing to draw: the one player
            # (if any) wins it, and the flight does not hold the event open.
            pool = list(fed.entries.exclude(status=EntryStatus.WITHDRAWN))
            if len(pool) < 2:
                Entry.objects.filter(pk__in=[e.pk for e in pool]).update(place=1)
                Flight.objects.filter(pk=fed.pk).update(status=FlightStatus.FINISHED)
                self.touched.setdefault(fed.pk, fed)
        unfinished = (
            self.event.flights.filter(kind__in=BRACKET_KINDS)
            .exclude(pk=flight.pk)
            .exclude(status=FlightStatus.FINISHED)
            .exists()
        )
        if not unfinished:
            # A finished event takes no more entries: registration closes with it.
            Event.objects.filter(pk=self.event.pk).update(status=EventStatus.FINISHED, registration_open=False)
            self.event.status, self.event.registration_open = EventStatus.FINISHED, False

    # --- undoing ---------------------------------------------------------------------------------------------

    def targets(self, slot: Slot) -> list[tuple[Flight, Target]]:
        """The slots a decided slot moved players to (same flight and the fed one)."""
        winner = slot.winner
        losers = (slot.loser,) if slot.loser_id else ()
        if slot.result == SlotResult.DOUBLE_FORFEIT:
            losers = tuple(e for e in (slot.entry_a, slot.entry_b) if e is not None)
        out = []
        for action in self._actions(slot, CORE_RESULT[slot.result], winner, losers):
            if isinstance(action, rules.Move):
                out.append((slot.flight, action.target))
            elif isinstance(action, rules.FeedTo) and action.target is not None:
                out.append((self.fed_flight(slot.flight), action.target))
        return out

    def cascade(self, slot: Slot, *, include_self: bool = True, started_only: bool = False) -> list[Step]:
        """Every later slot whose match would be voided if `slot`'s result changed, in bracket order."""
        steps: list[Step] = []
        seen: set[int] = set()

        def visit(current: Slot, own: bool):
            if current.pk in seen:
                return
            seen.add(current.pk)
            if own and current.match_id is not None:
                started = current.match.status != MatchStatus.SCHEDULED or current.match.started_at is not None
                steps.append(Step(current, started))
            if current.result in DECIDED:
                for flight, target in self.targets(current):
                    nxt = (
                        Slot.objects.select_related("flight", "match", "entry_a", "entry_b", "winner", "loser")
                        .filter(flight=flight, section=target.key.section, round=target.key.round)
                        .get(position=target.key.position)
                    )
                    visit(nxt, True)

        visit(slot, include_self)
        if started_only:
            return [s for s in steps if s.started]
        return steps

    def undo(self, slot: Slot, *, actor, voided: list | None = None) -> None:
        """Take back what a decided slot did: later slots it filled are emptied again (their results undone
        first, their matches voided), fed entries removed, places cleared."""
        if slot.result not in DECIDED:
            return
        flight = slot.flight
        self.touched.setdefault(flight.pk, flight)
        winner = slot.winner
        losers = (slot.loser,) if slot.loser_id else ()
        if slot.result == SlotResult.DOUBLE_FORFEIT:
            losers = tuple(e for e in (slot.entry_a, slot.entry_b) if e is not None)
        for action in self._actions(slot, CORE_RESULT[slot.result], winner, losers):
            if isinstance(action, (rules.Move, rules.FeedTo)):
                target_flight = flight if isinstance(action, rules.Move) else self.fed_flight(flight)
                if action.target is None:
                    Entry.objects.filter(flight=target_flight, player_id=self._player(losers, action.entry)).filter(
                        first_played_slot__isnull=True
                    ).delete()
                    continue
                self._clear(target_flight, action.target, actor=actor, voided=voided)
                if isinstance(action, rules.FeedTo) and action.entry is not None:
                    Entry.objects.filter(
                        flight=target_flight, player_id=self._player(losers, action.entry), place__isnull=True
                    ).delete()
            elif isinstance(action, rules.FirstPlayed):
                Entry.objects.filter(pk=action.entry, first_played_slot=slot).update(first_played_slot=None)
            elif isinstance(action, (rules.Out, rules.Champion)):
                Entry.objects.filter(pk=action.entry).update(place=None, out_round=None)
                if isinstance(action, rules.Champion):
                    Flight.objects.filter(pk=flight.pk).update(status=FlightStatus.RUNNING)
                    Event.objects.filter(pk=self.event.pk).update(status=EventStatus.RUNNING)
        if slot.result == SlotResult.BYE and winner is not None:
            Entry.objects.filter(pk=winner.pk).update(had_bye=False)
        slot.result = SlotResult.READY if slot.match_id else SlotResult.PENDING
        slot.winner = slot.loser = None
        slot.decided_at = None
        slot.save(update_fields=["result", "winner", "loser", "decided_at"])

    @staticmethod
    def _player(entries, entry_id):
        return next(e.player_id for e in entries if e is not None and e.pk == entry_id)

    def _clear(self, flight: Flight, target: Target, *, actor, voided) -> None:
        slot = self._slot(flight, target.key)
        slot.flight = flight
        if slot.result in DECIDED:
            self.undo(slot, actor=actor, voided=voided)
            slot.refresh_from_db()
        if slot.match_id is not None:
            match = slot.match
            slot.match = None
            slot.save(update_fields=["match"])
            if voided is not None:
                voided.append({"slot": str(slot), "match": match.pk})
            if match.status != MatchStatus.ABANDONED:
                from games.matchplay import services as match_services

                if actor is None or not self.event.user_is_director(actor):
                    actor = _director_of(self.event)
                _override.active = True
                try:
                    match_services.annul_match(
                        actor=actor,
                        match=match,
                        comment=_("Voided: an earlier result in the bracket changed."),
                    )
                finally:
                    _override.active = False
        if target.side == 0:
            slot.entry_a, slot.a_empty = None, False
        else:
            slot.entry_b, slot.b_empty = None, False
        slot.result = SlotResult.PENDING
        slot.save(update_fields=["entry_a", "entry_b", "a_empty", "b_empty", "result"])


def result_confirmed(match, report) -> None:
    """games hook: a confirmed, corrected, overridden or annulled result moves the bracket. Runs inside the
    confirmation's transaction; raising aborts the confirmation."""
    if match.context != MatchContext.TOURNAMENT:
        return
    # Race: two confirmations of this match, or of the two matches feeding one later slot, must move each
    # winner once; the slot rows are locked in bracket order (this one, then the ones it fills).
    slot = (
        Slot.objects.select_for_update(of=("self",))
        .select_related("flight__event__club", "entry_a", "entry_b", "winner", "loser")
        .filter(match=match)
        .first()
    )
    if slot is None:
        return
    flight = slot.flight
    store = BracketStore(flight.event, actor=report.confirmed_by or report.submitted_by)
    if report.outcome == MatchOutcome.ANNULLED:
        if slot.result in DECIDED:
            _correct(store, slot)
        slot.refresh_from_db()
        slot.flight = flight
        slot.match = None
        slot.result = SlotResult.PENDING
        slot.save(update_fields=["match", "result"])
        slot.entry_a.refresh_from_db()
        slot.entry_b.refresh_from_db()
        slot.match = store._create_match(flight, slot)  # the pair plays again
        slot.result = SlotResult.READY
        slot.save(update_fields=["match", "result"])
        store.notify(flight)
        return
    result = OUTCOME_RESULT[report.outcome]
    if result == rules.DOUBLE_FORFEIT:
        winner, losers = None, (slot.entry_a, slot.entry_b)
    else:
        winner, loser = (
            (slot.entry_a, slot.entry_b)
            if match.winner_id == slot.entry_a.player_id
            else (
                slot.entry_b,
                slot.entry_a,
            )
        )
        losers = (loser,)
    if slot.result in DECIDED:
        if slot.winner_id == (winner.pk if winner else None) and slot.result == SLOT_RESULT[result]:
            hooks.flight_results_changed(flight)  # the score changed, the bracket did not
            return
        _correct(store, slot)
        for entry in (slot.entry_a, slot.entry_b):
            entry.refresh_from_db()
    store.decide(slot, result, winner, losers)
    store.notify(flight)


def _correct(store: BracketStore, slot: Slot) -> None:
    """Re-route before later matches have started; afterwards only through override_result."""
    steps = store.cascade(slot, include_self=False)
    if any(step.started for step in steps) and not getattr(_override, "active", False):
        raise Conflict(
            _(
                "A later match in the bracket has started: a director overrides this result from the event's "
                "dashboard, which shows the matches that will be voided."
            )
        )
    voided: list = []
    store.undo(slot, actor=store.actor, voided=voided)
    BracketChange.objects.create(
        flight=slot.flight,
        slot=slot,
        actor=store.actor if getattr(store.actor, "pk", None) else None,
        kind="reroute",
        voided=voided,
    )


# --- director override ------------------------------------------------------------------------------------


def override_preview(*, actor, slot: Slot) -> list[Step]:
    """Which later matches a changed result for `slot` would void (started ones included)."""
    _require_director(actor, slot.flight.event)
    return BracketStore(slot.flight.event, actor=actor).cascade(slot, include_self=False)


@transaction.atomic
def override_result(
    *, actor, slot: Slot, winner_side: int | None, outcome: str = MatchOutcome.PLAYED, scores=None, comment: str = ""
) -> Slot:
    """A director sets the result of a bracket match even after later matches started; what followed is voided
    (shown first by override_preview) and the players are routed again."""
    _require_director(actor, slot.flight.event)
    if slot.match_id is None:
        raise Conflict(_("This slot has no match to give a result to."))
    if not comment.strip():
        raise ValidationError({"comment": [_("Say why the result is overridden.")]})
    from games.matchplay import services as match_services

    method = "final_score" if outcome in (MatchOutcome.PLAYED, MatchOutcome.LATENESS) else "no_play"
    if method == "final_score" and not scores:
        raise ValidationError({"scores": [_("Give the final score, or choose a forfeit or walkover.")]})
    _override.active = True
    try:
        match_services.submit_report(
            actor=actor,
            match=slot.match,
            method=method,
            outcome=outcome,
            scores=scores,
            winner_side=winner_side,
            comment=comment,
            as_director=True,
        )
    finally:
        _override.active = False
    BracketChange.objects.create(flight=slot.flight, slot=slot, actor=actor, kind="override", comment=comment)
    slot.refresh_from_db()
    return slot
