from django import template

from tournaments.calcutta.core import format_money

register = template.Library()


@register.filter
def money(cents):
    """Cents as money, e.g. 12345 → 123.45 (empty for None)."""
    if cents is None or cents == "":
        return ""
    return format_money(int(cents))
