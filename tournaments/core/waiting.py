"""A capped flight's places and its waiting list, as numbers: how many places are free, how many offers are
due, and whether a new cap fits. The service (tournaments.services.waiting) counts the rows under the flight's
lock and asks here, so the rule is written once and tested without a database.

A place is taken by an entry (not withdrawn) or held by an open offer: an offer reserves its place until it is
accepted, declined or expires, so the flight never holds more entries than its cap, however the answers
interleave.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Places:
    cap: int | None  # None: no cap
    entered: int  # entries that hold a place (not withdrawn, not a re-entry)
    offered: int  # open offers, each holding a place

    @property
    def held(self) -> int:
        return self.entered + self.offered

    @property
    def free(self) -> int | None:
        """Places nobody holds; None without a cap."""
        return None if self.cap is None else max(0, self.cap - self.held)

    @property
    def full(self) -> bool:
        return self.cap is not None and self.held >= self.cap


def offers_due(places: Places, waiting: int) -> int:
    """How many of the `waiting` players (in list order) are to be offered a place now."""
    free = places.free
    return waiting if free is None else min(free, waiting)


def lowest_cap(places: Places) -> int:
    """The smallest cap that keeps everyone entered and every open offer: a cap below it is refused."""
    return max(1, places.held)


@dataclass(frozen=True)
class Queue:
    """One flight's waiting list as an event cap sees it: the places its own cap leaves (None: no own cap) and
    the times its waiting players joined (any comparable, e.g. (joined_at, id)), in any order."""

    flight: object  # the flight's id
    free: int | None
    joined: tuple


def event_offers(event: Places, queues: list[Queue]) -> list:
    """The flights to offer places to, one item per offer, in order, when the event's cap and each flight's own
    cap both bind. Each free place of the event goes to the flight whose next turn came first: a flight's k-th
    offer takes the k-th earliest joining time of its list (who gets it inside the flight is the flight's list
    order, so a director's move-up reorders a flight's players, never another flight's turns). A flight whose own
    cap is reached is passed over; the event's places end when its cap does."""
    left = event.free
    turns = {q.flight: sorted(q.joined) for q in queues}
    room = {q.flight: (len(q.joined) if q.free is None else min(q.free, len(q.joined))) for q in queues}
    taken = dict.fromkeys(turns, 0)
    offers: list = []
    while left is None or left > 0:
        ready = [f for f in turns if taken[f] < room[f]]
        if not ready:
            break
        flight = min(ready, key=lambda f: turns[f][taken[f]])
        offers.append(flight)
        taken[flight] += 1
        if left is not None:
            left -= 1
    return offers
