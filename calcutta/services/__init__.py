"""Writes for Calcutta auctions: setup, the live auction, ownership, payments and settlement.

This is the one adapter between the rows and the pure core (`calcutta.core`): every write takes the
Calcutta row lock, restores the `core.Auction` from the lot rows (where each lot stands: phase, high bid, sale,
hammer order), lets the core decide, then stores the new step and keeps the lot rows in step with the core's
state. The stored steps still replay to the same auction (`state.check_rows`, asked by the tests); restoring
instead of replaying keeps a bid late in a long auction as cheap as the first. No rule is re-implemented here.

A refusal from the core becomes a 409 (`base.errors.Conflict`) when it is about the auction's state (a sold lot, a
closed auction, a step out of turn) and a 400 naming the field otherwise.

Split by domain like tournaments.services; callers use `from calcutta import services`, so the names
they call are re-exported here.
"""

from calcutta.services.auction import auctioneer_step, place_bid
from calcutta.services.ownership import answer_syndicate, buy_back, offer_syndicate, set_paid
from calcutta.services.settlement import on_flight_results_changed, resettle, settle_calcutta
from calcutta.services.settling import confirm_transfer_received, mark_transfer_paid
from calcutta.services.setup import (
    create_calcutta,
    register_bidder,
    set_lots,
    set_order,
    update_settings,
)
from calcutta.services.state import load

__all__ = [
    "answer_syndicate",
    "auctioneer_step",
    "buy_back",
    "confirm_transfer_received",
    "create_calcutta",
    "load",
    "mark_transfer_paid",
    "offer_syndicate",
    "on_flight_results_changed",
    "place_bid",
    "register_bidder",
    "resettle",
    "set_lots",
    "set_order",
    "set_paid",
    "settle_calcutta",
    "update_settings",
]
