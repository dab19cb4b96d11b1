"""What every part of the tournament services uses: the director check, the flight lock, the results that
count as decided, and the flag a service sets while it changes a match result itself.
"""

from __future__ import annotations

import threading

from django.core.exceptions import PermissionDenied, ValidationError
from django.utils.translation import gettext as _

from base.api import Conflict
from base.locks import lock
from games.models.matches import MatchContext
from tournaments.core import rules
from tournaments.core.errors import BracketError
from tournaments.models import Event, Flight, Slot, SlotResult

# The core's result -> the slot's stored result.
SLOT_RESULT = {
    rules.PLAYED: SlotResult.PLAYED,
    rules.WALKOVER: SlotResult.WALKOVER,
    rules.BYE: SlotResult.BYE,
    rules.DOUBLE_FORFEIT: SlotResult.DOUBLE_FORFEIT,
    rules.EMPTY: SlotResult.EMPTY,
}
DECIDED = set(SLOT_RESULT.values())

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


def _lock_flight(flight: Flight) -> Flight:
    # Race: two registrations or a registration and the draw at once would both read the same entries and
    # the same free positions; the flight row lock serialises them.
    return lock(Flight.objects, of=("self",)).select_related("event__club").get(pk=flight.pk)


def _director_of(event: Event):
    """A director account to sign a walkover the player asked for themself."""
    director = event.directors.order_by("pk").first()
    if director is None:
        raise Conflict(_("This event has no director to record the walkover; ask the club."))
    return director
