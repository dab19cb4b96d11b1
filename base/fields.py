"""The one way numbers people type enter the site: API serializer fields and web form fields for decimals
and money, all parsing with base.numbers, which bounds digits, decimals and range before any arithmetic.

Use these instead of serializers.DecimalField / forms.DecimalField (a test greps for the plain ones), so that
"1e999999", "NaN" or forty nines answer a clear 400 or form error everywhere, never a 500 or a busy worker.
"""

from __future__ import annotations

from decimal import Decimal

from django import forms
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from base import numbers
from base.messages import translate

MESSAGES = {
    "float": _("Write the number as text, e.g. 12.50."),
    "invalid": _("Write a number, e.g. 12.50."),
    "too_long": _("A number has at most %(max)s characters."),
    "not_finite": _("A number must be finite (not NaN or infinity)."),
    "too_large": _("The number is too large: at most %(max)s."),
    "too_small": _("The number must be at least %(min)s."),
    "decimal_places": _("Use at most %(places)s decimal places."),
    "negative": _("An amount of money cannot be negative."),
    "cents": _("An amount has at most two decimals (whole cents)."),
    "thousands": _("Write %(text)s without a thousands separator, e.g. 1000 or 1000.00."),
    "out_of_range": _("A share is a number between 0 and 1 (or 0% and 100%)."),
}


def message(error: numbers.NumberError) -> str:
    """The translated message for a parse error, with its limits filled in (MESSAGES, registered by BaseConfig)."""
    return translate(error)


def _parse_decimal(field, data) -> Decimal:
    """Parse with the bounds a DRF or form DecimalField was declared with (both name them alike)."""
    return numbers.parse_decimal(
        data,
        max_digits=field.max_digits,
        decimal_places=field.decimal_places,
        min_value=field.min_value,
        max_value=field.max_value,
    )


class DecimalField(serializers.DecimalField):
    """DRF's DecimalField with the shared bounded parser (max_digits and decimal_places are required)."""

    def __init__(self, *, max_digits: int, decimal_places: int, **kwargs):
        super().__init__(max_digits=max_digits, decimal_places=decimal_places, **kwargs)

    def to_internal_value(self, data):
        if isinstance(data, float):  # a JSON number: its shortest text, then the same bounds as for text
            data = repr(data)
        try:
            return _parse_decimal(self, data)
        except numbers.NumberError as error:
            raise serializers.ValidationError(message(error), code=error.code) from None


@extend_schema_field({"type": "string", "format": "decimal", "example": "12.50"})
class MoneyField(serializers.CharField):
    """Money written as text, e.g. "12.50" (or "12,50"); read as integer cents, at most MAX_MONEY_CENTS."""

    def __init__(self, *, max_cents: int = numbers.MAX_MONEY_CENTS, **kwargs):
        super().__init__(**kwargs)  # no max_length: its validator would run on the cents; the parser bounds text
        self.max_cents = max_cents

    def to_internal_value(self, data):
        if isinstance(data, int) and not isinstance(data, bool):
            data = str(data)
        text = super().to_internal_value(data)
        try:
            return numbers.parse_money(text, max_cents=self.max_cents)
        except numbers.NumberError as error:
            raise serializers.ValidationError(message(error), code=error.code) from None

    def to_representation(self, value):
        return numbers.format_cents(int(value))


class DecimalFormField(forms.DecimalField):
    """Django's form DecimalField with the shared bounded parser; accepts "12,50" as well as "12.50"."""

    def __init__(self, *, max_digits: int, decimal_places: int, **kwargs):
        super().__init__(max_digits=max_digits, decimal_places=decimal_places, **kwargs)

    def to_python(self, value):
        if value in self.empty_values:
            return None
        text = str(value).strip().replace(",", ".") if not isinstance(value, Decimal) else value
        try:
            return _parse_decimal(self, text)
        except numbers.NumberError as error:
            raise forms.ValidationError(message(error), code=error.code) from None


class MoneyFormField(forms.CharField):
    """Money as people write it ("12.50" or "12,50"), cleaned to integer cents."""

    def __init__(self, *, max_cents: int = numbers.MAX_MONEY_CENTS, **kwargs):
        kwargs.setdefault("max_length", numbers.MAX_NUMBER_TEXT)
        kwargs.setdefault("widget", forms.TextInput(attrs={"inputmode": "decimal", "autocomplete": "off"}))
        super().__init__(**kwargs)
        self.max_cents = max_cents

    def clean(self, value):
        text = super().clean(value)
        if text in (None, ""):
            return None
        try:
            return numbers.parse_money(text, max_cents=self.max_cents)
        except numbers.NumberError as error:
            raise forms.ValidationError(message(error), code=error.code) from None


class ModelMultipleChoiceField(forms.ModelMultipleChoiceField):
    """Django's field, refusing ids past bigint before its `pk__in` query: SQLite cannot bind such a number
    (an OverflowError, a 500), and no row has one."""

    def _check_values(self, value):
        for pk in value if isinstance(value, list | tuple) else ():
            text = str(pk).strip()
            if text.isdigit() and numbers.parse_id(text) is None:
                raise forms.ValidationError(
                    self.error_messages["invalid_pk_value"], code="invalid_pk_value", params={"pk": text[:20]}
                )
        return super()._check_values(value)
