"""`{% shown_name player club %}`: the name the page's viewer sees for a player (clubs.names), so templates ask
one helper instead of deciding about display names themselves. Without a club (a page of no one club), the
player's clubs decide."""

from django import template

from clubs import names

register = template.Library()


@register.simple_tag(takes_context=True)
def shown_name(context, player, club=None) -> str:
    if not player:  # no player (a variable that is not there renders as "")
        return ""
    if not player.display_name:
        return player.name  # the common case: nothing to decide
    request = context.get("request")
    viewer = getattr(request, "user", None) or context.get("user")
    if club:  # a club variable that is not there renders as ""
        return names.shown_name(player, viewer=viewer, club=club)
    # A page of no one club asks the player's clubs (a query): once per player and rendering.
    memo = context.render_context.setdefault("shown_names", {})
    if player.pk not in memo:
        memo[player.pk] = names.shown_name_anywhere(player, viewer=viewer)
    return memo[player.pk]


@register.filter
def public_name_at(player, club) -> str:
    """What everyone sees for a player on a page of `club` that is the same for every viewer (a cached
    bracket): the display name only where the club allows it."""
    return player.public_name_at(club or None) if player else ""
