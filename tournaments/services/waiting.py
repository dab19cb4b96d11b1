"""A capped flight and its waiting list: the cap, joining the list, offers of a freed place, accepting, declining,
the offers' deadlines (a periodic sweep), a director's move-up and closing the list.

Every change runs under the row locks a registration and a withdrawal take too (`lock_places`: the event's, then
the flight's), so the places are counted and handed out one change at a time: an offer accepted twice at once is
taken once, and two players accepting the last place at once never overfill the flight
(tests/services/test_waiting_race.py). Whenever a place may have come free (a withdrawal or a drop from a flight
in rounds: `place_freed`; a declined or expired offer, a higher cap), `fill` offers it to the next waiting
player in list order (tournaments.core.waiting counts the places): the list is never skipped, except where a
director moved someone up, which is recorded with its reason (WaitingMove).

An event can have a cap too (`Event.cap`, `set_event_cap`): at most that many entries across its flights, counted
as `selectors.event_places` says (the flights players sign up for, not jackpots, side pools, fed flights or
re-entries; one player in two flights counts twice). A sign-up to a flight of a full event joins that flight's
list, and a place freed anywhere in the event goes to the earliest waiting player (by joining time, then id) of
a flight whose own cap has room (`core.event_offers`); inside a flight its list order still decides, so a
director's move-up works as before. Such changes lock the event's row before the flight's (`lock_places`): a
path already holding a flight without its event (`rounds.drop`) hands the freed place on after its commit, in a
transaction of its own (`place_freed`), and the sweep passes on whatever that missed.
"""

from __future__ import annotations

import logging
from datetime import timedelta
from functools import partial

from django.db import transaction
from django.db.models import F, Max
from django.utils import timezone
from django.utils.translation import gettext as _

from base.errors import Conflict, Invalid
from clubs import access
from clubs import selectors as club_selectors
from tournaments import hooks, selectors
from tournaments.core import waiting as core
from tournaments.models import (
    OPEN_SPOT,
    EntryStatus,
    Event,
    FeedRule,
    Flight,
    FlightKind,
    FlightStatus,
    SpotStatus,
    WaitingMember,
    WaitingMove,
    WaitingSpot,
)
from tournaments.permissions import EntryDraft
from tournaments.services import entries
from tournaments.services.common import event_changed, lock_event, lock_places

logger = logging.getLogger(__name__)

MAX_REASON = 200
MAX_CAP = 100_000


def places(flight: Flight) -> core.Places:
    """The flight's places as they stand (a re-entry and a withdrawn entry hold none)."""
    entered = flight.entries.exclude(status=EntryStatus.WITHDRAWN).filter(is_reentry=False).count()
    offered = WaitingSpot.objects.filter(flight=flight, status=SpotStatus.OFFERED).count()
    return core.Places(cap=flight.cap, entered=entered, offered=offered)


def event_capped(flight: Flight) -> bool:
    """Whether the flight's event has a cap the flight's entries count against."""
    return flight.event.cap is not None and selectors.counts_for_event(flight)


def _event_full(flight: Flight) -> bool:
    """The event (locked) has a cap the flight counts against, and no place of it is free."""
    return event_capped(flight) and selectors.event_places(event=flight.event).full


def _has_list(flight: Flight) -> bool:
    """A flight takes a waiting list when it has a cap of its own or counts against its event's."""
    return flight.cap is not None or event_capped(flight)


def refuse_if_full(flight: Flight) -> None:
    """A registration (the event and the flight locked) past the flight's cap or the event's, or ahead of players
    waiting, is refused: the player joins the flight's waiting list instead."""
    if not _has_list(flight):
        return
    queued = WaitingSpot.objects.filter(flight=flight, status__in=OPEN_SPOT).exists()
    if places(flight).full or queued:
        if flight.waiting_closed:
            message = _("%(flight)s is full (%(cap)s entries) and its waiting list is closed.")
        else:
            message = _("%(flight)s is full (%(cap)s entries): join its waiting list instead.")
        raise Conflict(message % {"flight": flight.name, "cap": flight.cap}, code="flight_full")
    if _event_full(flight):
        if flight.waiting_closed:
            message = _("%(event)s is full (%(cap)s entries across its flights) and the waiting list is closed.")
        else:
            message = _("%(event)s is full (%(cap)s entries across its flights): join the waiting list instead.")
        raise Conflict(message % {"event": flight.event.name, "cap": flight.event.cap}, code="flight_full")


def _check_cappable(flight: Flight) -> None:
    if flight.kind in (FlightKind.JACKPOT, FlightKind.SIDE_POOL) or flight.feed_rule != FeedRule.DRAW:
        message = _(
            "Only a flight players sign up for has a cap: a jackpot's sign-up list is already the waiting list its "
            "pods are filled from, and a side pool or a fed flight takes its players from another flight."
        )
        raise Invalid(message, field="cap")


def fill(flight: Flight, *, now=None) -> list[WaitingSpot]:
    """The flight is locked (and its event, `lock_places`): end the offers past their deadline, then offer each
    free place to the next waiting player in list order, each told through `hooks.place_offered`. In an event
    with a cap the places are the event's: `fill_event`. Returns the new offers."""
    if event_capped(flight):
        return fill_event(flight.event, now=now)
    now = now or timezone.now()
    WaitingSpot.objects.filter(flight=flight, status=SpotStatus.OFFERED, offer_expires_at__lte=now).update(
        status=SpotStatus.EXPIRED, answered_at=now
    )
    if flight.status == FlightStatus.FINISHED:
        return []
    waiting = WaitingSpot.objects.filter(flight=flight, status=SpotStatus.WAITING).order_by("position", "pk")
    due = core.offers_due(places(flight), waiting.count())
    offered = list(waiting.select_related("player")[:due])
    for spot in offered:
        _offer(spot, flight, now)
    return offered


def _offer(spot: WaitingSpot, flight: Flight, now) -> None:
    spot.status, spot.offered_at = SpotStatus.OFFERED, now
    spot.offer_expires_at = now + timedelta(hours=flight.offer_hours)
    spot.save(update_fields=["status", "offered_at", "offer_expires_at"])
    spot.flight = flight
    hooks.place_offered(spot)


def fill_event(event: Event, *, now=None) -> list[WaitingSpot]:
    """The event is locked (`lock_event`; every change to its places takes that lock first): end its offers past
    their deadline, then offer each place free both in the event and in a flight to the earliest waiting player
    of a flight with room (`core.event_offers`; inside a flight, its list order). Returns the new offers."""
    now = now or timezone.now()
    WaitingSpot.objects.filter(flight__event=event, status=SpotStatus.OFFERED, offer_expires_at__lte=now).update(
        status=SpotStatus.EXPIRED, answered_at=now
    )
    waiting = (
        WaitingSpot.objects.filter(flight__event=event, status=SpotStatus.WAITING)
        .exclude(flight__status=FlightStatus.FINISHED)
        .select_related("player")
        .order_by("position", "pk")
    )
    lists: dict[int, list[WaitingSpot]] = {}
    for spot in waiting:
        lists.setdefault(spot.flight_id, []).append(spot)
    if not lists:
        return []
    flights = {f.pk: f for f in Flight.objects.filter(pk__in=lists)}
    for flight in flights.values():
        flight.event = event
    queues = [
        core.Queue(flight=pk, free=places(flights[pk]).free, joined=tuple((s.joined_at, s.pk) for s in spots))
        for pk, spots in lists.items()
    ]
    offered = []
    for pk in core.event_offers(selectors.event_places(event=event), queues):
        spot = lists[pk].pop(0)
        _offer(spot, flights[pk], now)
        offered.append(spot)
    return offered


@transaction.atomic
def set_cap(*, actor, flight: Flight, cap: int | None, offer_hours: int | None = None) -> Flight:
    """The flight's cap (None: none) and the hours a player has to accept a freed place. A cap below the entries
    already in (and the places already offered) is refused, naming the lowest that works; a higher cap offers its
    new places to the waiting list at once."""
    access.require(actor, "event.direct", flight.event)
    if cap is not None and not 1 <= cap <= MAX_CAP:
        raise Invalid(_("A cap is a whole number from 1 to 100000, or empty for none."), field="cap")
    if offer_hours is not None and not 1 <= offer_hours <= 336:
        raise Invalid(_("Give the hours to accept a place as a whole number from 1 to 336."), field="offer_hours")
    flight = lock_places(flight)
    if cap is not None:
        _check_cappable(flight)
        _refuse_below(
            cap,
            places(flight),
            _(
                "%(entered)s entries are in and %(offered)s places are offered: a cap of at least %(lowest)s works "
                "(or withdraw entries first)."
            ),
        )
    flight.cap = cap
    if offer_hours is not None:
        flight.offer_hours = offer_hours
    flight.save(update_fields=["cap", "offer_hours"])
    fill(flight)
    return flight


def _refuse_below(cap: int, now: core.Places, message: str) -> None:
    """A cap below the entries in and the places offered is refused, the message naming the lowest that works."""
    if cap < core.lowest_cap(now):
        values = {"entered": now.entered, "offered": now.offered, "lowest": core.lowest_cap(now)}
        raise Invalid(message % values, field="cap")


@transaction.atomic
def set_event_cap(*, actor, event: Event, cap: int | None) -> Event:
    """The event's cap across its flights (None: none), counted as `selectors.event_places` says. A cap below the
    entries already in (and the places already offered) is refused, naming the lowest that works, and nothing
    changes; a higher cap (or none) offers its new places to the flights' waiting lists at once."""
    access.require(actor, "event.direct", event)
    if cap is not None and not 1 <= cap <= MAX_CAP:
        raise Invalid(_("A cap is a whole number from 1 to 100000, or empty for none."), field="cap")
    event = lock_event(event)
    if cap is not None:
        _refuse_below(
            cap,
            selectors.event_places(event=event),
            _(
                "%(entered)s entries are in across the event's flights and %(offered)s places are offered: an "
                "event cap of at least %(lowest)s works (or withdraw entries first)."
            ),
        )
    event.cap = cap
    event.save(update_fields=["cap"])
    event_changed(event)  # the flights' pages say whether the event is full
    fill_event(event)
    return event


@transaction.atomic
def join(*, actor, flight: Flight, player=None, players=None, team_name: str = "") -> WaitingSpot:
    """A player (or a director for them) joins the waiting list of a full flight, at its end; on a pair or team
    flight the pair or team does (`players`, the captain first, and its name), entered as a team entry is: each
    player one the actor may enter. Joining again answers the spot the player (the captain) holds."""
    team = entries.check_team(players or [])
    if team:
        player = team[0]
    if player is None:
        player = club_selectors.player_for_user(actor)
    if player is None:
        raise Invalid(_("Choose the player to put on the waiting list."), field="player")
    for someone in team or [player]:
        access.require(actor, "event.enter", EntryDraft(event=flight.event, player=someone))  # before the lock
    flight = lock_places(flight)
    held = WaitingSpot.objects.filter(flight=flight, player=player, status__in=OPEN_SPOT).first()
    if held is not None:
        return held
    if flight.is_team_event or team:
        entries.check_team_fits(flight, team)
    if not access.can(actor, "event.direct", flight.event) and not flight.event.registration_open:
        raise Conflict(_("Registration is closed: ask a director to enter you."), code="registration_closed")
    if not _has_list(flight):
        raise Conflict(_("%(flight)s has no cap: enter it directly.") % {"flight": flight.name}, code="not_full")
    if flight.waiting_closed:
        raise Conflict(_("The waiting list of %(flight)s is closed.") % {"flight": flight.name}, code="list_closed")
    if flight.status == FlightStatus.FINISHED:
        raise Conflict(_("This flight is finished."), code="flight_finished")
    if team:
        _refuse_if_team_taken(flight, team)
    elif flight.entries.filter(player=player, is_reentry=False).exclude(status=EntryStatus.WITHDRAWN).exists():
        message = _("%(player)s is already entered in %(flight)s.")
        raise Conflict(message % {"player": player, "flight": flight.name}, code="already_entered")
    full = places(flight).full or _event_full(flight)
    if not full and not WaitingSpot.objects.filter(flight=flight, status__in=OPEN_SPOT).exists():
        message = _("%(flight)s has a free place: enter it directly.")
        raise Conflict(message % {"flight": flight.name}, code="not_full")
    last = WaitingSpot.objects.filter(flight=flight, status__in=OPEN_SPOT).aggregate(m=Max("position"))["m"] or 0
    spot = WaitingSpot.objects.create(
        flight=flight,
        player=player,
        position=last + 1,
        registered_by=actor,
        team_name=entries.team_label(team, team_name) if team else "",
    )
    WaitingMember.objects.bulk_create(
        WaitingMember(spot=spot, player=someone, order=order) for order, someone in enumerate(team, start=1)
    )
    fill(flight)
    spot.refresh_from_db()
    return spot


def _refuse_if_team_taken(flight: Flight, team: list) -> None:
    """A player of the pair or team (the flight locked) already plays for an entry of the flight, or already
    waits on its list with another pair or team: refused, naming them."""
    entries.refuse_if_member_elsewhere(flight, team)
    waiting = (
        WaitingMember.objects.filter(spot__flight=flight, spot__status__in=OPEN_SPOT, player__in=team)
        .select_related("player")
        .first()
    )
    if waiting is not None:
        message = _("%(player)s already waits on the list of %(flight)s with another pair or team.")
        raise Conflict(message % {"player": waiting.player, "flight": flight.name}, code="already_waiting")


@transaction.atomic
def sign_up(*, actor, flight: Flight, player=None, players=None, team_name: str = ""):
    """A sign-up as the pages make it: the entry (a pair's or team's with `players`), or, when the flight is full
    and its list open, a place at the end of its waiting list (the WaitingSpot)."""
    try:
        with transaction.atomic():
            if players:
                return entries.register_team(actor=actor, flight=flight, players=players, team_name=team_name)
            return entries.register(actor=actor, flight=flight, player=player)
    except Conflict as refusal:
        if refusal.code != "flight_full" or Flight.objects.filter(pk=flight.pk, waiting_closed=True).exists():
            raise
    return join(actor=actor, flight=flight, player=player, players=players, team_name=team_name)


def _locked_spot(actor, spot: WaitingSpot, rule: str) -> tuple[Flight, WaitingSpot]:
    access.require(actor, rule, spot)  # before the lock
    flight = lock_places(spot.flight)
    return flight, WaitingSpot.objects.select_related("player").get(pk=spot.pk)


_EXPIRED = object()


def accept(*, actor, spot: WaitingSpot):
    """The offered player takes the place: their entry is made (a late entry after the draw, as a registration
    would be; a pair's or team's with the players it waited with), whatever registration says. Accepted already:
    the same entry (accepted twice, taken once). An offer past its deadline is refused, and the place has then
    gone to the next on the list: passed on and committed before the refusal, not left for the sweep (a refusal
    raised inside the transaction undid the passing on, while its message said it had happened)."""
    entry = _accept(actor=actor, spot=spot)
    if entry is _EXPIRED:
        raise Conflict(_("The offer has expired: the place went to the next on the list."), code="offer_expired")
    return entry


@transaction.atomic
def _accept(*, actor, spot: WaitingSpot):
    flight, spot = _locked_spot(actor, spot, "waiting.answer")
    if spot.status == SpotStatus.ACCEPTED and spot.entry_id is not None:
        return spot.entry
    if spot.status != SpotStatus.OFFERED:
        raise Conflict(_("No place is offered to you on this list now."), code="no_offer")
    if spot.offer_expires_at <= timezone.now():
        fill(flight)  # ends this offer and the others past their deadline, and offers the places on
        return _EXPIRED
    now = places(flight)
    if flight.cap is not None and now.entered >= flight.cap:  # the offer's own place: never past the cap
        raise Conflict(_("The flight is full."), code="flight_full")
    if event_capped(flight) and selectors.event_places(event=flight.event).entered >= flight.event.cap:
        raise Conflict(_("The event is full."), code="flight_full")
    team = [m.player for m in spot.members.select_related("player").order_by("order")]
    entry = entries.enter_offered(actor=actor, flight=flight, player=spot.player, team=team, team_name=spot.team_name)
    spot.status, spot.entry, spot.answered_at = SpotStatus.ACCEPTED, entry, timezone.now()
    spot.save(update_fields=["status", "entry", "answered_at"])
    return entry


@transaction.atomic
def decline(*, actor, spot: WaitingSpot) -> WaitingSpot:
    """The player gives up an offered place (declined) or their place on the list (left); an offered place
    passes to the next waiting player at once."""
    flight, spot = _locked_spot(actor, spot, "waiting.answer")
    if spot.status not in OPEN_SPOT:
        return spot
    spot.status = SpotStatus.DECLINED if spot.status == SpotStatus.OFFERED else SpotStatus.LEFT
    spot.answered_at = timezone.now()
    spot.save(update_fields=["status", "answered_at"])
    fill(flight)
    return spot


@transaction.atomic
def move_up(*, actor, spot: WaitingSpot, to_place: int, reason: str) -> WaitingSpot:
    """A director moves a waiting player up to `to_place` (1: first of the list), with the reason, recorded;
    everyone between moves down one. If that puts them where a free place is, they are offered it."""
    access.require(actor, "event.direct", spot.flight.event)
    reason = (reason or "").strip()
    if not reason:
        raise Invalid(_("Say why this player moves up: the list keeps its order otherwise."), field="reason")
    if len(reason) > MAX_REASON:
        raise Invalid(_("A reason has at most 200 characters."), field="reason")
    flight = lock_places(spot.flight)
    spot = WaitingSpot.objects.get(pk=spot.pk)
    if spot.status != SpotStatus.WAITING:
        raise Conflict(_("Only a player still waiting can be moved up."), code="not_waiting")
    order = list(WaitingSpot.objects.filter(flight=flight, status__in=OPEN_SPOT).order_by("position", "pk"))
    current = next(i for i, s in enumerate(order, 1) if s.pk == spot.pk)
    if not 1 <= to_place < current:
        message = _("This player is number %(n)s: move them to a place from 1 to %(last)s.")
        raise Invalid(message % {"n": current, "last": current - 1}, field="to_place")
    order.insert(to_place - 1, order.pop(current - 1))
    # (flight, position) is unique among the open spots: move them all out of the way first, then into order.
    open_spots = WaitingSpot.objects.filter(flight=flight, status__in=OPEN_SPOT)
    open_spots.update(position=F("position") + MAX_CAP * 10)
    for number, moved in enumerate(order, 1):
        WaitingSpot.objects.filter(pk=moved.pk).update(position=number)
    WaitingMove.objects.create(spot=spot, from_place=current, to_place=to_place, reason=reason, moved_by=actor)
    fill(flight)
    spot.refresh_from_db()
    return spot


@transaction.atomic
def close(*, actor, flight: Flight) -> Flight:
    """A director closes the list: nobody more joins, the players still waiting are told it closed (their spots
    end), and the offers already made stand until answered or expired. A place freed later is open to anyone."""
    access.require(actor, "event.direct", flight.event)
    flight = lock_places(flight)
    flight.waiting_closed = True
    flight.save(update_fields=["waiting_closed"])
    WaitingSpot.objects.filter(flight=flight, status=SpotStatus.WAITING).update(
        status=SpotStatus.CLOSED, answered_at=timezone.now()
    )
    return flight


def place_freed(flight: Flight, *, event_locked: bool = False) -> None:
    """The one place where a freed place is offered on: a withdrawal (`entries.withdraw`, the event and the flight
    locked: `event_locked`) or a drop from a flight in rounds (`rounds.drop`, the API's and page's "drop", the
    flight alone locked) calls it. In an event with a cap the place is the event's: offered now when the event is
    locked, else after this transaction commits, in one of its own that locks the event first (the lock order
    puts the event before the flight; the sweep passes on a place this misses)."""
    if event_capped(flight):
        if event_locked:
            fill_event(flight.event)
        else:
            transaction.on_commit(partial(fill_freed, flight.event_id))
    elif flight.cap is not None:
        fill(flight)


def fill_freed(event_id: int) -> int:
    """After the commit of a change that freed a place of a capped event without holding its lock: the event
    locked, its places handed on (`fill_event`). Returns the offers made."""
    try:
        with transaction.atomic():
            return len(fill_event(lock_event(event_id)))
    except Exception:  # noqa: BLE001 - the change itself is committed; the sweep hands the place on later
        logger.exception("event %s: a freed place not offered on", event_id)
        return 0


def sweep_offers() -> int:
    """The periodic sweep (config/pipeline.py, SWEEPERS): each flight with an offer past its deadline, in its own
    transaction under its lock, ends those offers and offers the places on (an event with a cap: each such event
    under its lock, and with every place of it left free while players wait). Returns the offers made."""
    due = set(
        WaitingSpot.objects.filter(status=SpotStatus.OFFERED, offer_expires_at__lte=timezone.now()).values_list(
            "flight_id", flat=True
        )
    )
    capped = set(
        Event.objects.filter(cap__isnull=False, flights__waiting_spots__status=SpotStatus.WAITING).values_list(
            "pk", flat=True
        )
    )
    made = 0
    for flight in Flight.objects.filter(pk__in=due).select_related("event"):
        if event_capped(flight):
            capped.add(flight.event_id)
            continue
        try:
            with transaction.atomic():
                made += len(fill(lock_places(flight)))
        except Exception:  # noqa: BLE001 - one flight's failure must not stop the others'; the next sweep tries again
            logger.exception("waiting list of flight %s: expired offers not passed on", flight.pk)
    for event_id in sorted(capped):
        made += fill_freed(event_id)
    return made
