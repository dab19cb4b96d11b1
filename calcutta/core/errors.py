"""The one error type of the Calcutta core."""

from __future__ import annotations

from base.errors import DomainError


class CalcuttaError(DomainError):
    """Something the Calcutta rules refuse. `code` is stable for programs, the message is for people.

    `field` names the input at fault when there is one. The codes in `conflicts` are about the auction's state
    (a sold lot, a closed auction, a step out of turn): the request is well-formed but comes at the wrong time
    (409); the rest are bad input (400).
    """

    conflicts = frozenset(
        {
            "already_open",
            "auction_not_open",
            "auction_closed",
            "auction_not_closed",
            "lot_sold",
            "lot_passed",
            "lot_not_open",
            "lot_running",
            "nothing_left",
            "no_lot_open",
            "bad_step",
            "no_bid",
            "has_bids",
            "nothing_to_undo",
            "lots_left",
            "buy_back_closed",
            "lot_not_sold",
            "already_high_bidder",
        }
    )
