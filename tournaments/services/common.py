"""What every part of the tournament services uses: the flight lock and the results that count as decided (the
core's bracket errors leave as they are: the API and the pages read them by code). Who may do what is in
tournaments/rules.py."""

from __future__ import annotations

from base.locks import lock
from tournaments.core import rules
from tournaments.models import Flight, SlotResult

# The core's result -> the slot's stored result.
SLOT_RESULT = {
    rules.PLAYED: SlotResult.PLAYED,
    rules.WALKOVER: SlotResult.WALKOVER,
    rules.BYE: SlotResult.BYE,
    rules.DOUBLE_FORFEIT: SlotResult.DOUBLE_FORFEIT,
    rules.EMPTY: SlotResult.EMPTY,
}
DECIDED = set(SLOT_RESULT.values())


def lock_flight(flight: Flight) -> Flight:
    # Race: two registrations or a registration and the draw at once would both read the same entries and
    # the same free positions; the flight row lock serialises them.
    return lock(Flight.objects, of=("self",)).select_related("event__club").get(pk=flight.pk)

