"""Writes for events: flights, entries, draws, the bracket's progression, corrections and overrides.

The one adapter of tournaments.core, split by domain; callers use `from tournaments import services`, so the
names they call are re-exported here. Every function checks the actor first and runs in a transaction.
"""

from tournaments.services.common import flight_results_changed, flights_changed, match_status_changed
from tournaments.services.draws import (
    confirm_draw,
    draw_flight,
    fresh_draw_ready,
    release_draw,
    set_seeding_ratings,
    swap_draft_positions,
)
from tournaments.services.entries import (
    check_in,
    late_entry_preview,
    reenter,
    reentry_preview,
    register,
    register_all,
    register_team,
    set_lineup,
    undo_check_in,
    withdraw,
    withdraw_preview,
)
from tournaments.services.events import (
    OPTION_FIELDS,
    REFUND_PERCENT_RANGE,
    add_director,
    add_flight,
    create_event,
    set_payout_template,
    update_event,
    update_flight,
)
from tournaments.services.fees import entry_account, record_payment, set_fee_category, set_fee_settings
from tournaments.services.money import (
    confirm_prize_received,
    create_payout_table,
    record_prize_paid,
    set_flight_payouts,
)
from tournaments.services.overrides import override_preview, override_result
from tournaments.services.progression import BracketStore, Step, result_confirmed
from tournaments.services.rounds import (
    correct_result,
    correction_preview,
    drop,
    edit_pairings,
    edit_pairings_preview,
    start_round,
)
from tournaments.services.rounds import result_confirmed as round_result_confirmed
from tournaments.services.stages import decide_by_lot, playoff_confirmed
from tournaments.services.waiting import accept as accept_place
from tournaments.services.waiting import close as close_waiting_list
from tournaments.services.waiting import decline as decline_place
from tournaments.services.waiting import join as join_waiting_list
from tournaments.services.waiting import move_up, set_cap, set_event_cap, sign_up, sweep_offers

__all__ = [
    "accept_place",
    "close_waiting_list",
    "decline_place",
    "join_waiting_list",
    "move_up",
    "set_cap",
    "set_event_cap",
    "sign_up",
    "sweep_offers",
    "decide_by_lot",
    "playoff_confirmed",
    "OPTION_FIELDS",
    "REFUND_PERCENT_RANGE",
    "BracketStore",
    "Step",
    "add_director",
    "add_flight",
    "check_in",
    "confirm_draw",
    "correct_result",
    "correction_preview",
    "drop",
    "edit_pairings",
    "edit_pairings_preview",
    "create_event",
    "draw_flight",
    "flight_results_changed",
    "flights_changed",
    "fresh_draw_ready",
    "late_entry_preview",
    "match_status_changed",
    "override_preview",
    "override_result",
    "reenter",
    "register",
    "register_all",
    "register_team",
    "set_lineup",
    "reentry_preview",
    "release_draw",
    "result_confirmed",
    "round_result_confirmed",
    "set_payout_template",
    "create_payout_table",
    "entry_account",
    "record_payment",
    "set_fee_category",
    "set_fee_settings",
    "record_prize_paid",
    "confirm_prize_received",
    "set_flight_payouts",
    "set_seeding_ratings",
    "swap_draft_positions",
    "start_round",
    "update_event",
    "update_flight",
    "undo_check_in",
    "withdraw",
    "withdraw_preview",
]
