from decimal import Decimal

from django import template
from django.utils.formats import number_format
from django.utils.translation import gettext

from tournaments.core.groups import label

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


@register.filter
def percent(chance) -> str:
    """A chance 0.4567 -> "46 %" (below 1 % but not 0: "<1 %"), in the reader's number format."""
    try:
        value = float(chance)
    except (TypeError, ValueError):
        return ""
    if 0 < value < 0.005:
        return "<1 %"
    return f"{number_format(round(value * 100), decimal_pos=0)} %"


@register.filter
def place_chance(entrant, place) -> float:
    """An entrant's chance of a place (tournaments.selectors.chances.EntrantChances)."""
    return entrant.places.get(int(place), 0.0)


@register.filter
def tiebreak_value(row, tiebreak) -> int | str:
    """A standings line's number for a tie-break column: a live line (tournaments.core.standings.Standing) or a
    kept one (a RoundStandings row, a dict)."""
    if isinstance(row, dict):
        return row.get(tiebreak.key, "")
    return getattr(row, tiebreak.key, "")


@register.simple_tag
def ranked_by(tiebreaks) -> str:
    """ "Ranked by: Wins, then Buchholz, then …" in the reader's language, for the legend under a standings table."""
    names = [gettext(t.name) for t in tiebreaks]
    return gettext("Ranked by: %(order)s.") % {"order": gettext(", then ").join(names)} if names else ""


@register.filter
def group_label(number) -> str:
    """A group's number (1 is the first) as its letter: 1 -> "A"."""
    return label(int(number) - 1) if number else ""


@register.filter
def opponent_for(table, user) -> str | None:
    """The name across the table from the signed-in user (None when they do not play at it)."""
    return table.opponent_of_user(getattr(user, "pk", None))
