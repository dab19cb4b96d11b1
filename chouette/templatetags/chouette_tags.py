from django import template
from django.utils.formats import number_format

register = template.Library()


@register.filter
def money(cents) -> str:
    """Integer cents as a signed amount, e.g. -3500 -> "-35.00" (localised decimal separator)."""
    try:
        cents = int(cents)
    except (TypeError, ValueError):
        return ""
    sign = "-" if cents < 0 else "+" if cents > 0 else ""
    return sign + number_format(abs(cents) / 100, decimal_pos=2)


@register.filter
def plain_money(cents) -> str:
    try:
        return number_format(int(cents) / 100, decimal_pos=2)
    except (TypeError, ValueError):
        return ""


@register.filter
def points(value) -> str:
    """1.0 -> "+1", -0.5 -> "-0.5" (in German "-0,5": the active language's decimal separator)."""
    try:
        number = float(value)
    except (TypeError, ValueError):
        return ""
    if number == 0:
        return "0"
    whole = number == int(number)
    text = number_format(abs(number), decimal_pos=0 if whole else 1)
    return ("+" if number > 0 else "-") + text


@register.filter
def get(mapping, key):
    return mapping.get(key, "") if hasattr(mapping, "get") else ""
