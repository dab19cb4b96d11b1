"""Exact money and shares: amounts are integer cents, percentages Decimal, ownership fractions Fraction.

Floats never enter: a float cannot say 0.1 exactly, and a settlement must add up to the cent.

The rounding rule used everywhere an amount is split (`allocate_cents`) is the largest-remainder rule:
every recipient first gets the whole cents of their exact amount (rounded down); the cents left over — always
fewer than the number of recipients — go one each to the recipients with the largest fractional remainders;
equal remainders are served in the order the recipients are listed. The parts therefore sum to the total
exactly, and no part is more than one cent away from its exact value.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from decimal import Decimal
from fractions import Fraction
from typing import TypeVar

from base.numbers import NumberError, format_cents, parse_decimal, parse_fraction
from base.numbers import parse_money as parse_cents

from .errors import CalcuttaError

ONE = Fraction(1)
K = TypeVar("K", bound=Hashable)
HUNDRED = Decimal(100)


def parse_money(value: str | int | Decimal, *, field: str = "amount") -> int:
    """Cents from '12.50', 12 or Decimal('12.5'); refuses floats, negatives, fractions of a cent and amounts
    above MAX_MONEY_CENTS (base.numbers bounds the text before any arithmetic)."""
    try:
        return parse_cents(value)
    except NumberError as error:
        message = {
            "cents": f"{value} has a fraction of a cent; use at most two decimals.",
            "negative": f"An amount cannot be negative ({value}).",
            "too_large": error.message,
        }.get(error.code, f"'{value}' is not an amount of money; write e.g. 12.50.")
        raise CalcuttaError("bad_amount", message, field=field, value=str(value)[:40]) from None


def format_money(cents: int) -> str:
    """'1234.05' from 123405 (a minus sign in front when negative)."""
    return format_cents(cents)


def parse_percent(value: str | int | Decimal, *, field: str = "percent") -> Decimal:
    """A percentage between 0 and 100 as an exact Decimal (at most 4 decimals); refuses floats and NaN."""
    try:
        return parse_decimal(value, max_digits=7, decimal_places=4, min_value=0, max_value=HUNDRED)
    except NumberError as error:
        if error.code == "float":
            message = "Give a percentage as text or Decimal (e.g. '12.5'), not a float."
        elif error.code in ("invalid", "too_long"):
            message = f"'{value}' is not a percentage; write e.g. 12.5."
        elif error.code == "decimal_places":
            message = "A percentage has at most four decimals."
        else:
            message = f"A percentage lies between 0 and 100, not {value}."
        raise CalcuttaError("bad_percent", message, field=field, value=str(value)[:40]) from None


def parse_share(value: str | int | Decimal | Fraction, *, field: str = "share") -> Fraction:
    """An ownership fraction in (0, 1]: Fraction(1, 3), '1/3', '0.25' or '25%'; refuses floats."""
    try:
        share = parse_fraction(value)
    except NumberError as error:
        message = (
            "Give a share as text, Decimal or Fraction (e.g. '1/3'), not a float."
            if error.code == "float"
            else f"'{value}' is not a share; write e.g. 1/3, 0.25 or 25%."
        )
        raise CalcuttaError("bad_share", message, field=field, value=str(value)[:40]) from None
    if not 0 < share <= 1:
        raise CalcuttaError(
            "bad_share", f"A share lies above 0 and at most 1 (100%), not {value}.", field=field, value=str(value)[:40]
        )
    return share


def allocate_cents(total: int, weights: Sequence[tuple[K, Fraction]]) -> dict[K, int]:
    """Split `total` cents by `weights` (summing to 1) with the largest-remainder rule of this module's docstring.

    Recipients are served in the order given when their remainders are equal, so the result is deterministic.
    """
    if total < 0:
        raise ValueError("cannot allocate a negative total")
    if sum((weight for _, weight in weights), Fraction(0)) != ONE or any(weight < 0 for _, weight in weights):
        raise ValueError("weights must be non-negative and sum to 1")
    if len({key for key, _ in weights}) != len(weights):
        raise ValueError("each recipient may be listed once")
    exact = [(key, total * weight) for key, weight in weights]
    parts = {key: int(amount) for key, amount in exact}  # int() rounds a non-negative Fraction down
    left_over = total - sum(parts.values())
    by_remainder = sorted(range(len(exact)), key=lambda i: -(exact[i][1] - int(exact[i][1])))
    for index in by_remainder[:left_over]:
        parts[exact[index][0]] += 1
    return parts
