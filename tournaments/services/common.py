"""What every part of the tournament services uses: the director check, the flight lock and the results that
count as decided.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError

from games.models.matches import MatchContext
from tournaments.core import rules
from tournaments.core.errors import BracketError
from tournaments.models import Flight, Slot, SlotResult

# The core's result -> the slot's stored result.
SLOT_RESULT = {
    rules.PLAYED: SlotResult.PLAYED,
    rules.WALKOVER: SlotResult.WALKOVER,
    rules.BYE: SlotResult.BYE,
    rules.DOUBLE_FORFEIT: SlotResult.DOUBLE_FORFEIT,
    rules.EMPTY: SlotResult.EMPTY,
}
DECIDED = set(SLOT_RESULT.values())

def _bracket_error(exc: BracketError) -> ValidationError:
    return ValidationError({exc.field: [exc.message]})


def directs_match(match, user) -> bool:
    """Registered with games: an event's directors direct the matches of its bracket."""
    if match.context != MatchContext.TOURNAMENT:
        return False
    slot = Slot.objects.filter(match=match).select_related("flight__event__club").first()
    return slot is not None and slot.flight.event.user_is_director(user)


def _lock_flight(flight: Flight) -> Flight:
    # Race: two registrations or a registration and the draw at once would both read the same entries and
    # the same free positions; the flight row lock serialises them.
    return Flight.objects.select_for_update(of=("self",)).select_related("event__club").get(pk=flight.pk)

