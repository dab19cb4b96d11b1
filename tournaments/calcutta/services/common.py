"""What every part of the Calcutta services shares: the core's refusals in the user's language (409 for the
auction's state, 400 naming the field otherwise), the status check and the Calcutta row lock."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db.models import Q
from django.utils.translation import gettext as _

from base import numbers
from base.api import Conflict
from tournaments.calcutta import core
from tournaments.calcutta.models import Calcutta
from tournaments.models import SlotResult

CONFLICT_CODES = frozenset(
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

MAX_CENTS = numbers.MAX_MONEY_CENTS  # 10 million: far above any Calcutta, and well inside the integer columns

SETTING_FIELDS = (
    "house_take_percent",
    "payout_places",
    "consolation_percent",
    "minimum_opening_bid",
    "increment",
    "buy_back_limit_percent",
    "buy_back_deadline",
    "self_bidding",
)


def refusal_message(exc: core.CalcuttaError) -> str:
    """The core's refusal in the user's language; codes without a translation keep the core's English text."""
    messages = {
        "auction_not_open": _("The auction has not opened yet."),
        "auction_closed": _("The auction is closed; no more bids are taken."),
        "lot_sold": _("This lot has been sold; bids on it are closed."),
        "lot_passed": _("This lot was passed into the field; bid on the field instead."),
        "lot_not_open": _("This lot is not up for auction now."),
        "unknown_bidder": _("Only registered bidders may bid; register with the auctioneer."),
        "self_bid": _("Players may not bid on a lot they are in at this Calcutta; ask about a buy-back."),
        "already_high_bidder": _("You already hold the high bid on this lot."),
        "key_reused": _("This idempotency key was used for a different bid; send a new key for a new bid."),
        "nothing_to_undo": _("Only the last sold or passed lot can be undone, before the next lot opens."),
        "no_bid": _("The lot has no bid yet; wait for one or pass the lot."),
        "has_bids": _("The lot has a bid; sell it instead of passing it."),
        "lots_left": _("A lot has not been sold or passed yet; finish it before closing."),
        "lot_running": _("A lot is still up; sell or pass it first."),
        "nothing_left": _("Every lot has been auctioned; close the auction."),
        "no_lot_open": _("No lot is up; open the next lot."),
        "already_open": _("The auction has already been opened."),
        "no_buy_back_on_field": _("The field cannot be bought back: a buy-back is only for a player's own lot."),
        "buy_back_closed": _("Buy-backs are closed."),
        "buy_back_off": _("This Calcutta has no buy-backs."),
        "shares_not_100": _("The syndicate's shares must total exactly 100%."),
        "payout_not_100": _("The payout table must total exactly 100%."),
    }
    return str(messages.get(exc.code, exc.message))


def refusal(exc: core.CalcuttaError) -> Exception:
    """The Django error for a core refusal (views and the API answer it as 409 or 400)."""
    message = refusal_message(exc)
    if exc.code in CONFLICT_CODES:
        return Conflict(message)
    return ValidationError({exc.field: [message]} if exc.field else message)


def require_status(calcutta: Calcutta, *statuses: str, doing: str) -> None:
    if calcutta.status not in statuses:
        raise Conflict(
            _("The Calcutta is %(status)s, so you cannot %(doing)s now.")
            % {"status": calcutta.get_status_display().lower(), "doing": doing}
        )


def lock(calcutta: Calcutta) -> Calcutta:
    """Reload the Calcutta under its row lock.

    The race: two bids arriving together both read the same high bid and would both become "the high bid";
    a bid and the auctioneer's "sold" would disagree on the price. Every write decides on state it reads after
    this lock, so the second request waits, replays the first one's step and is judged against it.
    """
    return Calcutta.objects.select_for_update(of=("self",)).select_related("flight__event").get(pk=calcutta.pk)


def require_first_round_not_started(flight) -> None:
    """A Calcutta sells the players before anyone has played: once a first-round match has started (or been
    decided other than by a bye) the field is no longer equal, so neither a new Calcutta nor its auction opens."""
    started = flight.slots.filter(round=1).filter(
        Q(match__started_at__isnull=False)
        | Q(result__in=[SlotResult.PLAYED, SlotResult.WALKOVER, SlotResult.DOUBLE_FORFEIT])
    )
    if started.exists():
        raise Conflict(
            _(
                "Round 1 of %(flight)s has started: a Calcutta is sold before the first match. "
                "Run it on a flight that has not started yet."
            )
            % {"flight": flight.name}
        )
