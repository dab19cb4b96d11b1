"""An entry's fee account, in integer cents, from its append-only payment lines: payments (positive), refunds
(negative) and waivers (zero, method "waived"). What is still owed, what was paid by which method, and whether a
new line is acceptable: a payment or refund of a positive amount, a refund of at most what was paid."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from base.errors import DomainError

METHODS = ("cash", "transfer", "online", "waived")
KINDS = ("payment", "refund", "waiver")


class FeeError(DomainError):
    """A payment line the rules refuse; `refund_too_large` and `already_waived` describe the account's state."""

    conflicts = frozenset({"refund_too_large", "already_waived"})


@dataclass(frozen=True)
class Line:
    method: str
    cents: int  # signed: a refund is negative


@dataclass(frozen=True)
class Account:
    due: int
    paid: int  # payments less refunds
    waived: bool

    @property
    def outstanding(self) -> int:
        return 0 if self.waived else max(self.due - self.paid, 0)

    @property
    def settled(self) -> bool:
        return self.waived or self.paid >= self.due

    @property
    def overpaid(self) -> int:
        return max(self.paid - self.due, 0)


def account(due: int, lines: Iterable[Line]) -> Account:
    lines = list(lines)
    return Account(due, sum(line.cents for line in lines), any(line.method == "waived" for line in lines))


def kept_on_withdrawal(fee: int, refund_percent: int) -> int:
    """What the club keeps of a fee of `fee` cents when the player withdraws before the draw and the event refunds
    `refund_percent` (0-100) of it: fee x (100 - percent) / 100, rounded down to the cent (the player is never
    refunded less than the percent says). The account then owes this, and what was paid above it is to refund."""
    return fee * (100 - refund_percent) // 100


def check(kind: str, method: str, cents: int, current: Account, *, reference: str = "") -> Line:
    """The line a new record makes, or a FeeError saying what would work."""
    if kind not in KINDS:
        raise FeeError("fee_kind", "Record a payment, refund or waiver.", "kind")
    if kind == "waiver":
        if current.waived:
            raise FeeError("already_waived", "This entry's fee is waived already.", "kind")
        return Line("waived", 0)
    if method not in METHODS[:3]:
        raise FeeError(
            "fee_method",
            "Pay by cash, transfer or online (a waiver is its own kind).",
            "method",
            known="cash, transfer, online",
        )
    if cents <= 0:
        raise FeeError("fee_amount", "The amount is more than 0, e.g. 20.00.", "amount")
    if method == "online" and not reference.strip():
        raise FeeError("fee_reference", "An online payment needs its reference (e.g. the payment id).", "reference")
    if kind == "refund" and cents > current.paid:
        raise FeeError(
            "refund_too_large",
            f"A refund is at most what was paid: {current.paid / 100:.2f}.",
            "amount",
            paid=f"{current.paid / 100:.2f}",
        )
    return line_of(kind, method, cents)


def line_of(kind: str, method: str, cents: int) -> Line:
    """The line a record makes, unchecked: a waiver is "waived" at 0, a refund negative, a payment positive. `check`
    ends with it; a client's request sent again is compared with the line it recorded through it."""
    if kind == "waiver":
        return Line("waived", 0)
    return Line(method, -cents if kind == "refund" else cents)


def totals_by_method(lines: Sequence[Line]) -> dict[str, int]:
    """Net cents per method (refunds counted against the method they were paid back by), in METHODS order."""
    out = dict.fromkeys(METHODS[:3], 0)
    for line in lines:
        if line.method in out:
            out[line.method] += line.cents
    return out
