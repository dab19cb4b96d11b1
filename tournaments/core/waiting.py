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
