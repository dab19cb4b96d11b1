"""Writes for events: flights, entries, draws, the bracket's progression, corrections and overrides.

The one adapter of tournaments.core, split by domain; callers use `from tournaments import services`, so the
names they call are re-exported here. Every function checks the actor first and runs in a transaction.
"""

from tournaments.services.draws import confirm_draw, draw_flight, fresh_draw_ready, release_draw
from tournaments.services.entries import (
    check_in,
    late_entry_preview,
    reenter,
    reentry_preview,
    register,
    register_many,
    withdraw,
    withdraw_preview,
)
from tournaments.services.events import (
    add_director,
    add_flight,
    create_event,
    set_payout_template,
    update_event,
    update_flight,
)
from tournaments.services.overrides import override_preview, override_result
from tournaments.services.progression import BracketStore, Step, result_confirmed

__all__ = [
    "BracketStore",
    "Step",
    "add_director",
    "add_flight",
    "check_in",
    "confirm_draw",
    "create_event",
    "draw_flight",
    "fresh_draw_ready",
    "late_entry_preview",
    "override_preview",
    "override_result",
    "reenter",
    "register",
    "register_many",
    "reentry_preview",
    "release_draw",
    "result_confirmed",
    "set_payout_template",
    "update_event",
    "update_flight",
    "withdraw",
    "withdraw_preview",
]
