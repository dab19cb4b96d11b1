"""What every part of the Calcutta services shares: the core's refusals in the user's language (409 for the
auction's state, 400 naming the field otherwise), the status check and the Calcutta row lock."""

from __future__ import annotations

from django.db.models import Q
from django.utils.translation import gettext as _

from base import numbers
from base.compiled import CompiledRead
from base.errors import Conflict
from base.live import group_name, notify_group
from base.locks import lock as lock_rows
from base.messages import translate
from calcutta import core
from calcutta.models import Calcutta
from tournaments.models import PairingResult, SlotResult

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
    """The core's refusal in the user's language (calcutta/messages.py, by code)."""
    return translate(exc)


def refusal(exc: core.CalcuttaError) -> Exception:
    """The core's refusal as it leaves the services: the core error itself, which the API answers as 409 or 400
    by its class's `conflicts` and the web views show translated (base.web)."""
    return exc


def require_status(calcutta: Calcutta, *statuses: str, doing: str) -> None:
    if calcutta.status not in statuses:
        raise Conflict(
            _("The Calcutta is %(status)s, so you cannot %(doing)s now.")
            % {"status": calcutta.get_status_display().lower(), "doing": doing},
            code="wrong_status",
        )


def lock(calcutta: Calcutta, *, with_event: bool = True) -> Calcutta:
    """Reload the Calcutta under its row lock (with its flight and event, unless `with_event` is False: a bid
    asked who may place it before the lock and decides on the Calcutta's own rows alone, so it does not build
    the flight and event again while every other bid on the lot waits for it).

    The race: two bids arriving together both read the same high bid and would both become "the high bid";
    a bid and the auctioneer's "sold" would disagree on the price. Every write decides on state it reads after
    this lock, so the second request waits, replays the first one's step and is judged against it.
    """
    notify_group(group_name("calcutta", calcutta.pk))  # every write locks first: open boards refetch on commit
    if with_event:  # the auctioneer's actions, not the bids: a plain queryset (docs/performance.md)
        rows = lock_rows(Calcutta.objects, of=("self",)).select_related("flight__event").filter(pk=calcutta.pk)
        locked = next(iter(rows[:1]), None)
    else:
        locked = _LOCKED.first(calcutta.pk)
    if locked is None:
        raise Calcutta.DoesNotExist(f"Calcutta {calcutta.pk} does not exist.")
    return locked


# A bid's lock, compiled once per process (base.compiled): every bid on the lot waits for the one before it here.
_LOCKED = CompiledRead(lambda pk: lock_rows(Calcutta.objects, of=("self",)).filter(pk=pk)[:1])


def require_first_round_not_started(flight) -> None:
    """A Calcutta sells the players before anyone has played: once a first-round match has started (or been
    decided other than by a bye) the field is no longer equal, so neither a new Calcutta nor its auction opens."""
    if flight.is_round_based:  # round 1's tables: a bye is no match, anything else decided or begun is
        started = flight.pairings.filter(round=1).filter(
            Q(match__started_at__isnull=False)
            | Q(result__in=[PairingResult.PLAYED, PairingResult.FORFEIT, PairingResult.DOUBLE_FORFEIT])
        )
    else:
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
            % {"flight": flight.name},
            code="round_one_started",
        )
