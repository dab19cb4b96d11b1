from decimal import Decimal

from django import template
from django.utils.formats import number_format

register = template.Library()


@register.filter
def cents(value) -> str:
    """12345 -> "123.45" (in German "123,45": the active language's decimal separator)."""
    try:
        value = int(value)
    except (TypeError, ValueError):
        return ""
    sign = "-" if value < 0 else ""
    return sign + number_format(Decimal(abs(value)) / 100, decimal_pos=2)
