"""The "next match" panel on a player's page, added through TournamentsConfig.panels."""

from django.template.loader import render_to_string

from tournaments import selectors


def player_panel(request, player):
    slots = selectors.next_matches(player=player)
    if not slots:
        return None
    return render_to_string("tournaments/_player_panel.html", {"player": player, "slots": slots}, request)
