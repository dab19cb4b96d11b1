from decimal import Decimal

from django import template
from django.utils.formats import number_format

register = template.Library()


@register.filter
def money(cents):
    """Cents as money in the reader's language, e.g. 12345 → 123.45 (English) or 123,45 (German); empty for None."""
    if cents is None or cents == "":
        return ""
    return number_format(Decimal(int(cents)) / 100, decimal_pos=2)


@register.filter
def profit(net_cents):
    """An owner's result as the owner reads it: won − paid in, a gain positive ("+12.00"), a loss negative. The
    stored and API `net` is paid in − won (what the owner is out of pocket); this shows its opposite."""
    if net_cents is None or net_cents == "":
        return ""
    value = -int(net_cents)
    sign = "+" if value > 0 else "−" if value < 0 else ""
    return sign + number_format(Decimal(abs(value)) / 100, decimal_pos=2)


@register.simple_tag
def expected_value(fair, holding) -> str:
    """A holding's share of its lot's fair value (calcutta.selectors.fair_values), as money."""
    row = (fair or {}).get("lots", {}).get(holding.lot_id)
    if row is None:
        return ""
    return money(round(row["value"] * holding.numerator / holding.denominator))
