"""Bounded parsing of numbers people type: decimals, money and shares, checked BEFORE any arithmetic.

Pure: no Django import, so pure cores (Calcutta money, payouts) and services parse with the same rules as
the API serializers and web forms (base/fields.py wraps these functions).

Why bounded first: Python's Decimal reads "1e999997" in an instant (a coefficient of 1 and an exponent), but
the first multiplication, quantize or int() of it builds a number of a million digits, holding a worker for
tens of seconds, and "1e999999" * 100 overflows the context (a 500). Fraction("1e999999999") tries to build
10**999999999. So the text is limited in length, NaN and infinities are refused, and the size of the number
is judged from its exponent alone, before anything computes with it.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation
from fractions import Fraction

from base.errors import DomainError

# No number anyone types into this site needs more characters than this (sign, digits, point, exponent).
MAX_NUMBER_TEXT = 40
# Money: integer cents up to just under ten million in whole units, far above any pool: the most a money column
# (numeric(9, 2): 9,999,999.99) and every integer column hold.
MAX_MONEY_CENTS = 999_999_999
MONEY_DECIMAL_PLACES = 2
# A number as people and programs write it: ASCII digits, one point, an optional exponent. Python's Decimal also
# reads "1_000" and digits of other scripts ("１５"), which nobody means as an amount on this site.
_PLAIN_NUMBER = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
# "1,000" or "1.500": a thousands separator (English or German), or a decimal point with three decimals? An amount
# that would be read so is refused rather than guessed (a comma is otherwise the decimal point, as Germans write
# it); "12.505", which no reading takes as whole cents, keeps its own refusal.
_GROUPED = re.compile(r"[+-]?[0-9]{1,3}(?:[.,][0-9]{3})+")
# The largest id a row can have (a bigint): a larger number in a filter reaches SQLite as an OverflowError.
MAX_ID = 2**63 - 1


class NumberError(DomainError):
    """Why a text is not an acceptable number: a stable code, its parameters and an English message.

    The message is written with `{name}` placeholders and filled from the params here; the API, forms and web
    views translate by code (base.messages); pure cores use `message` as it is. All of it is bad input (400).
    """

    def __init__(self, code: str, message: str, field: str | None = None, **params: object) -> None:
        super().__init__(code, message.format(**params), field, **params)


def read_decimal(value: object) -> Decimal:
    """A finite Decimal from text, an int or a Decimal, refusing floats, NaN, infinities and over-long text.

    Only bounds the text and the kind; `parse_decimal` bounds the value.
    """
    if isinstance(value, bool | float):
        raise NumberError("float", "Give the number as text (e.g. 12.50), not as a floating-point number.")
    if isinstance(value, Decimal):
        number = value
    elif isinstance(value, int):
        if abs(value) >= 10**MAX_NUMBER_TEXT:
            raise NumberError("too_long", "A number has at most {max} characters.", max=MAX_NUMBER_TEXT)
        number = Decimal(value)
    elif isinstance(value, str):
        text = value.strip()
        if len(text) > MAX_NUMBER_TEXT:
            raise NumberError("too_long", "A number has at most {max} characters.", max=MAX_NUMBER_TEXT)
        if not text:
            raise NumberError("invalid", "Write a number, e.g. 12.50.")
        try:
            number = Decimal(text)
        except (InvalidOperation, ValueError):
            raise NumberError("invalid", "'{text}' is not a number; write e.g. 12.50.", text=text) from None
    else:
        raise NumberError("invalid", "Write a number, e.g. 12.50.")
    if not number.is_finite():
        raise NumberError("not_finite", "A number must be finite (not NaN or infinity).")
    if isinstance(value, str) and not _PLAIN_NUMBER.fullmatch(value.strip()):
        raise NumberError("invalid", "Write a number, e.g. 12.50.")
    if len(number.as_tuple().digits) > MAX_NUMBER_TEXT:
        raise NumberError("too_long", "A number has at most {max} characters.", max=MAX_NUMBER_TEXT)
    return number


def parse_decimal(
    value: object,
    *,
    max_digits: int,
    decimal_places: int,
    min_value: Decimal | int | None = None,
    max_value: Decimal | int | None = None,
) -> Decimal:
    """The number as an exact Decimal with at most `decimal_places` decimals and `max_digits` digits in all,
    within [min_value, max_value]. Raises NumberError; never computes with an unbounded number."""
    number = read_decimal(value)
    whole_digits = max_digits - decimal_places
    if not number.is_zero() and number.adjusted() >= whole_digits:
        # adjusted() is the power of ten of the leading digit, known without expanding the number.
        bound = max_value if max_value is not None else Decimal(10) ** whole_digits
        raise NumberError("too_large", "The number is too large: at most {max}.", max=bound)
    if number.as_tuple().exponent < -decimal_places:  # type: ignore[operator]  # finite: an int exponent
        trimmed = number.normalize() if not number.is_zero() else Decimal(0)
        if trimmed.as_tuple().exponent < -decimal_places:  # type: ignore[operator]
            raise NumberError("decimal_places", "Use at most {places} decimal places.", places=decimal_places)
        number = trimmed
    if min_value is not None and number < Decimal(min_value):
        raise NumberError("too_small", "The number must be at least {min}.", min=min_value)
    if max_value is not None and number > Decimal(max_value):
        raise NumberError("too_large", "The number is too large: at most {max}.", max=max_value)
    return number + 0  # a plain copy, -0 made 0


def parse_money(value: object, *, max_cents: int = MAX_MONEY_CENTS) -> int:
    """Integer cents from '12.50', '12,50', 12 or Decimal('12.5'): never negative, at most two decimals,
    at most `max_cents`. A comma is read as the decimal point, as people write it in Germany."""
    typed = value.strip() if isinstance(value, str) else None
    if typed is not None:
        value = typed.replace(",", ".")
    whole_digits = len(str(max_cents // 100))
    try:
        amount = parse_decimal(
            value,
            max_digits=whole_digits + MONEY_DECIMAL_PLACES,
            decimal_places=MONEY_DECIMAL_PLACES,
            min_value=0,
            max_value=Decimal(max_cents) / 100,
        )
    except NumberError as error:
        if error.code == "too_small":
            raise NumberError("negative", "An amount of money cannot be negative.") from None
        if error.code == "decimal_places":
            raise NumberError("cents", "An amount has at most two decimals (whole cents).") from None
        if error.code == "too_large":
            raise NumberError(
                "too_large", "The amount is too large: at most {max}.", max=format_cents(max_cents)
            ) from None
        raise
    if typed is not None and _GROUPED.fullmatch(typed):  # read as 1.00 or 1.50, perhaps meant as 1000 or 1500
        raise NumberError("thousands", "Write {text} without a thousands separator, e.g. 1000 or 1000.00.", text=typed)
    return int(amount * 100)


def format_cents(cents: int) -> str:
    """'1234.05' from 123405 (a minus sign in front when negative)."""
    sign = "-" if cents < 0 else ""
    whole, part = divmod(abs(cents), 100)
    return f"{sign}{whole}.{part:02d}"


_FRACTION = re.compile(r"^\s*(\d{1,12})\s*/\s*(\d{1,12})\s*$")


def parse_fraction(value: object) -> Fraction:
    """An exact fraction from '1/3', '0.25', '25%' (a hundredth each), a Decimal, an int or a Fraction.

    Typed numerators and denominators are at most 12 digits, decimals go through `read_decimal`'s bounds:
    Fraction() on text would expand '1e999999999' into a number with a billion digits.
    """
    if isinstance(value, Fraction):
        return value  # already exact: a computed share, not text someone typed
    if isinstance(value, str):
        text = value.strip()
        found = _FRACTION.match(text)
        if found:
            numerator, denominator = int(found.group(1)), int(found.group(2))
            if denominator == 0:
                raise NumberError("invalid", "'{text}' divides by zero.", text=text)
            return Fraction(numerator, denominator)
        if text.endswith("%"):
            return _bounded_fraction(read_decimal(text[:-1])) / 100
    return _bounded_fraction(read_decimal(value))


def _bounded_fraction(number: Decimal) -> Fraction:
    if not number.is_zero() and not -12 <= number.adjusted() <= 12:
        raise NumberError("out_of_range", "A share is a number between 0 and 1 (or 0% and 100%).")
    return Fraction(number)


def parse_id(text: object) -> int | None:
    """A row id from a query parameter, or None when it is not one: only digits, at most MAX_ID (int() of a
    5,000-digit text raises, and a number past bigint breaks the query on SQLite)."""
    if isinstance(text, int) and not isinstance(text, bool):
        return text if 0 < text <= MAX_ID else None
    if not isinstance(text, str) or not text.isascii() or not text.isdigit() or len(text) > len(str(MAX_ID)):
        return None
    number = int(text)
    return number if 0 < number <= MAX_ID else None
