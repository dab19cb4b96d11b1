"""Entry fees: each entry's account (due, paid, outstanding, its payment lines), the flight's totals by method, who
has not paid, and a player's own fees."""

from __future__ import annotations

from dataclasses import dataclass

from tournaments.core import fees
from tournaments.core.payouts import to_cents
from tournaments.models import Entry, EntryPayment, EntryStatus


@dataclass(frozen=True)
class EntryAccount:
    entry: Entry
    account: fees.Account
    lines: tuple  # EntryPayment rows, oldest first

    @property
    def seen(self) -> int:
        return len(self.lines)


@dataclass(frozen=True)
class FlightFees:
    rows: tuple[EntryAccount, ...]
    totals: dict  # net cents by method (cash, transfer, online)
    waived: int
    due: int
    paid: int
    outstanding: int

    @property
    def unpaid(self) -> tuple[EntryAccount, ...]:
        return tuple(r for r in self.rows if not r.account.settled)

    @property
    def to_refund(self) -> tuple[EntryAccount, ...]:
        """Entries that withdrew before the draw and are owed back what they paid above the fee kept."""
        return to_refund(self.rows)


def to_refund(rows) -> tuple[EntryAccount, ...]:
    """The rows of entries withdrawn before the draw with money to give back (Account.overpaid)."""
    return tuple(r for r in rows if r.entry.withdrew_before_draw and r.account.overpaid)


def _accounts(entries) -> list[EntryAccount]:
    entries = list(entries)
    lines: dict[int, list] = {}
    for payment in EntryPayment.objects.filter(entry__in=[e.pk for e in entries]).select_related("recorded_by"):
        lines.setdefault(payment.entry_id, []).append(payment)
    out = []
    for entry in entries:
        mine = sorted(lines.get(entry.pk, []), key=lambda p: p.seq)
        account = fees.account(to_cents(entry.fee_due), [fees.Line(p.method, to_cents(p.amount)) for p in mine])
        out.append(EntryAccount(entry, account, tuple(mine)))
    return out


def flight_fees(*, flight) -> FlightFees:
    """Every entry still in (withdrawn ones too when they paid something), by name. Two queries."""
    entries = flight.entries.select_related("player").order_by("player__name", "reentry_number", "pk")
    rows = [r for r in _accounts(entries) if r.entry.status != EntryStatus.WITHDRAWN or r.lines]
    all_lines = [fees.Line(p.method, to_cents(p.amount)) for r in rows for p in r.lines]
    return FlightFees(
        rows=tuple(rows),
        totals=fees.totals_by_method(all_lines),
        waived=sum(1 for r in rows if r.account.waived),
        due=sum(r.account.due for r in rows if not r.account.waived),
        paid=sum(r.account.paid for r in rows),
        outstanding=sum(r.account.outstanding for r in rows if r.entry.status != EntryStatus.WITHDRAWN),
    )


def unpaid_left_out(*, flight) -> list[Entry]:
    """With "payment required before the draw": the entries the draw would leave out (not withdrawn, fee neither
    paid in full nor waived), by name; none without the setting."""
    if not flight.payment_required:
        return []
    entries = flight.entries.exclude(status=EntryStatus.WITHDRAWN).select_related("player").order_by("player__name")
    return [r.entry for r in _accounts(entries) if not r.account.settled]


def player_fees(*, player) -> list[EntryAccount]:
    """A player's own entries with what they owe and have paid, newest event first. Two queries."""
    entries = (
        Entry.objects.filter(player=player)
        .select_related("flight__event__club")
        .order_by("-flight__event__starts_on", "flight__order", "pk")[:50]
    )
    return [r for r in _accounts(entries) if r.account.due or r.lines]


def event_fees(*, event, flights=None) -> list[tuple]:
    """For the director's dashboard: each flight with fees, its totals by method, who has not paid (and how much
    is open) and who withdrew before the draw and is owed a refund (and how much). Two
    queries (three without the event's flights given), whatever the number of entries; none when no flight of the
    event charges a fee."""
    flights = list(event.flights.order_by("order", "pk")) if flights is None else list(flights)
    if not any(f.entry_fee or f.reentry_fee for f in flights):
        return []
    entries = Entry.objects.filter(flight__in=flights).select_related("player").order_by("player__name", "pk")
    by_flight: dict[int, list] = {}
    for row in _accounts(entries):
        by_flight.setdefault(row.entry.flight_id, []).append(row)
    out = []
    for flight in flights:
        rows = [r for r in by_flight.get(flight.pk, []) if r.entry.status != EntryStatus.WITHDRAWN or r.lines]
        if not any(r.account.due or r.lines for r in rows):
            continue
        lines = [fees.Line(p.method, to_cents(p.amount)) for r in rows for p in r.lines]
        unpaid = [r for r in rows if not r.account.settled and r.entry.status != EntryStatus.WITHDRAWN]
        refunds = to_refund(rows)
        out.append(
            (
                flight,
                fees.totals_by_method(lines),
                unpaid,
                sum(r.account.outstanding for r in unpaid),
                refunds,
                sum(r.account.overpaid for r in refunds),
            )
        )
    return out
