"""Entry fees and their payments: the fee category (members, juniors), payments, refunds and waivers recorded as
append-only lines (tournaments.models.EntryPayment), and the flight's fee settings."""

from __future__ import annotations

from decimal import Decimal

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from base import idempotency, numbers
from base.errors import Conflict, Invalid
from clubs import access
from tournaments.core import fees
from tournaments.core.payouts import to_cents
from tournaments.models import EntryPayment, FeeCategory, Flight
from tournaments.services.common import lock_flight

MAX_REFERENCE = 80
MAX_NOTE = 200


def _money(value, field: str):
    try:
        cents = numbers.parse_money(value)
    except numbers.NumberError as error:
        raise Invalid(error.message, field=field) from None
    return cents


def entry_account(entry) -> fees.Account:
    lines = [fees.Line(p.method, to_cents(p.amount)) for p in entry.payments.all()]
    return fees.account(to_cents(entry.fee_due), lines)


@transaction.atomic
def record_payment(
    *,
    actor,
    entry,
    kind: str = "payment",
    method: str = "cash",
    amount="0",
    reference: str = "",
    note: str = "",
    seen: int | None = None,
    key: str = "",
) -> EntryPayment:
    """Record a payment, a refund or a waiver of an entry's fee. `seen` is the number of lines the director saw:
    when someone recorded one meanwhile the record is refused (two directors at the counter record the same
    payment once). `key` (a client's idempotency key) answers a repeat with the line it recorded."""
    access.require(actor, "event.direct", entry.flight.event)
    reference, note, key = (reference or "").strip(), (note or "").strip(), (key or "").strip()
    if len(reference) > MAX_REFERENCE:
        raise Invalid(_("A reference has at most 80 characters."), field="reference")
    if len(note) > MAX_NOTE:
        raise Invalid(_("A note has at most 200 characters."), field="note")
    if len(key) > MAX_REFERENCE:
        raise Invalid(_("A key has at most 80 characters."), field="key")
    cents = 0 if kind == "waiver" else _money(amount, "amount")
    lock_flight(entry.flight)
    if key:
        done = EntryPayment.objects.filter(entry=entry, key=key).first()
        if done is not None:
            # The same request sent again is answered with its line; another request with the same key is a
            # client's mistake, refused as the Idempotency-Key header's reuse is (base.idempotency), not answered
            # with a line of another amount as if it had been recorded.
            asked = fees.line_of(kind, method, cents)
            if (done.method, to_cents(done.amount), done.reference) != (asked.method, asked.cents, reference):
                raise Conflict(idempotency.REUSED, code="idempotency_key_reused", field="idempotency_key")
            return done
    current = entry_account(entry)
    count = entry.payments.count()
    if seen is not None and seen != count:
        message = _(
            "Someone recorded a payment of this entry meanwhile: it has paid %(paid)s of %(due)s now. Check before "
            "recording again."
        ) % {"paid": numbers.format_cents(current.paid), "due": numbers.format_cents(current.due)}
        raise Conflict(message, code="payment_changed")
    line = fees.check(kind, method, cents, current, reference=reference)
    if (
        line.method == "online"
        and EntryPayment.objects.filter(entry__flight=entry.flight, method="online", reference=reference).exists()
    ):
        raise Conflict(_("This online payment reference is recorded already."), code="payment_reference_used")
    try:
        with transaction.atomic():
            return EntryPayment.objects.create(
                entry=entry,
                seq=count + 1,
                method=line.method,
                amount=Decimal(numbers.format_cents(line.cents)),
                reference=reference,
                note=note,
                key=key,
                recorded_by=actor,
            )
    except IntegrityError:
        raise Conflict(_("Someone recorded a payment of this entry meanwhile."), code="payment_changed") from None


@transaction.atomic
def set_fee_category(*, actor, entry, category: str):
    """A member's or junior's fee (as the flight says) instead of the entry fee; a re-entry keeps its fee."""
    access.require(actor, "event.direct", entry.flight.event)
    if category not in FeeCategory.values:
        raise Invalid(_("Choose standard, member or junior."), field="category")
    flight = lock_flight(entry.flight)
    if not entry.is_reentry and not entry.is_satellite:
        fee = {"member": flight.member_fee, "junior": flight.junior_fee}.get(category)
        entry.fee = flight.entry_fee if fee is None else fee
    entry.fee_category = category
    if entry.kept_fee is not None:  # withdrawn before the draw: the club keeps its share of the fee now charged
        cents = fees.kept_on_withdrawal(to_cents(entry.fee), flight.event.withdrawal_refund_percent)
        entry.kept_fee = Decimal(numbers.format_cents(cents))
    entry.save(update_fields=["fee", "fee_category", "kept_fee"])
    return entry


@transaction.atomic
def set_fee_settings(*, actor, flight: Flight, member_fee="", junior_fee="", payment_required: bool = False) -> Flight:
    """The flight's members' and juniors' fees (empty: the entry fee) and whether the draw needs the fee paid."""
    access.require(actor, "event.direct", flight.event)
    member = None if member_fee in (None, "") else numbers.format_cents(_money(member_fee, "member_fee"))
    junior = None if junior_fee in (None, "") else numbers.format_cents(_money(junior_fee, "junior_fee"))
    flight = lock_flight(flight)
    flight.member_fee, flight.junior_fee, flight.payment_required = member, junior, bool(payment_required)
    flight.save(update_fields=["member_fee", "junior_fee", "payment_required"])
    return flight
