"""Reads of a capped flight's waiting list: the list as its director sees it, a player's own place on it (the
flight page, the home page) and the places the cap leaves."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, OuterRef, Q, Subquery
from django.db.models.functions import Coalesce

from tournaments.core import waiting as core
from tournaments.models import (
    OPEN_SPOT,
    Entry,
    EntryStatus,
    Event,
    FeedRule,
    Flight,
    FlightKind,
    SpotStatus,
    WaitingMove,
    WaitingSpot,
)

# The flights whose entries count against an event's cap: those players sign up for (their own draw), not a
# jackpot or a side pool a player enters besides their main flight, nor a flight fed by another flight (its
# players are in the room already). A re-entry never counts (Entry.is_reentry), nor a withdrawn entry.
UNCOUNTED_KINDS = (FlightKind.JACKPOT, FlightKind.SIDE_POOL)


@dataclass(frozen=True)
class WaitingList:
    flight: Flight
    places: core.Places
    event_places: core.Places | None  # the event's, when it has a cap and this flight counts against it
    spots: list  # the open spots in list order, each with `place` (1: next)
    moves: list  # the director's move-ups, newest first


def _place():
    """The spot's place on its list: 1 + the open spots of its flight before it."""
    before = (
        WaitingSpot.objects.filter(flight=OuterRef("flight"), status__in=OPEN_SPOT, position__lt=OuterRef("position"))
        .order_by()
        .values("flight")
        .annotate(n=Count("pk"))
        .values("n")
    )
    return Coalesce(Subquery(before), 0) + 1


def flight_places(*, flight: Flight) -> core.Places:
    """Entries holding a place (not withdrawn, not re-entries) and open offers, in one query."""
    counts = Flight.objects.filter(pk=flight.pk).aggregate(
        entered=Count("entries", filter=~Q(entries__status=EntryStatus.WITHDRAWN) & Q(entries__is_reentry=False)),
    )
    offered = WaitingSpot.objects.filter(flight=flight, status=SpotStatus.OFFERED).count()
    return core.Places(cap=flight.cap, entered=counts["entered"], offered=offered)


def counts_for_event(flight: Flight) -> bool:
    """Whether the flight's entries count against its event's cap (UNCOUNTED_KINDS says which do not)."""
    return flight.feed_rule == FeedRule.DRAW and flight.kind not in UNCOUNTED_KINDS


def event_places(*, event: Event) -> core.Places:
    """The event's places against its cap: the entries holding a place in its counted flights and the open offers
    of its flights' waiting lists (two queries)."""
    entered = (
        Entry.objects.filter(flight__event=event, flight__feed_rule=FeedRule.DRAW, is_reentry=False)
        .exclude(flight__kind__in=UNCOUNTED_KINDS)
        .exclude(status=EntryStatus.WITHDRAWN)
        .count()
    )
    offered = WaitingSpot.objects.filter(flight__event=event, status=SpotStatus.OFFERED).count()
    return core.Places(cap=event.cap, entered=entered, offered=offered)


def event_places_of(*, flight: Flight) -> core.Places | None:
    """The event's places when the event has a cap the flight counts against (None otherwise, without a query)."""
    if flight.event.cap is None or not counts_for_event(flight):
        return None
    return event_places(event=flight.event)


def waiting_list(*, flight: Flight) -> WaitingList:
    """The director's view: the places, the open spots in order (with each player's user for the names, and a
    pair's or team's players) and the recorded move-ups. Four queries; two more for a capped event's places."""
    spots = list(
        WaitingSpot.objects.filter(flight=flight, status__in=OPEN_SPOT)
        .select_related("player")
        .prefetch_related("members__player")
        .order_by("position", "pk")
    )
    for number, spot in enumerate(spots, 1):
        spot.place = number
    moves = list(
        WaitingMove.objects.filter(spot__flight=flight).select_related("spot__player", "moved_by").order_by("-pk")[:50]
    )
    return WaitingList(
        flight=flight,
        places=flight_places(flight=flight),
        event_places=event_places_of(flight=flight),
        spots=spots,
        moves=moves,
    )


def own_spot(*, flight: Flight, player) -> WaitingSpot | None:
    """The player's open spot on this flight's list, with its `place` and a pair's or team's players (two
    queries; none without a player)."""
    if player is None:
        return None
    return (
        WaitingSpot.objects.filter(flight=flight, player=player, status__in=OPEN_SPOT)
        .annotate(place=_place())
        .prefetch_related("members__player")
        .first()
    )


def my_spots(*, user, limit: int = 10) -> list[WaitingSpot]:
    """The signed-in user's open spots on every waiting list, with their places (the home page): one query."""
    return list(
        WaitingSpot.objects.filter(player__user=user, status__in=OPEN_SPOT)
        .annotate(place=_place())
        .select_related("flight__event__club")
        .order_by("flight__event__starts_on", "pk")[:limit]
    )


def spot_in(*, flight: Flight, pk) -> WaitingSpot | None:
    """A spot of this flight's list (None for another flight's or an unknown id)."""
    return WaitingSpot.objects.filter(flight=flight, pk=pk).select_related("player", "flight__event__club").first()
