"""Panels on the club page (its events' Calcuttas), an event page (its flights' Calcuttas, or where a director
starts one) and the player page (what the player holds and won)."""

from django.template.loader import render_to_string

from calcutta import selectors
from clubs import access


def club_panel(request, club):
    calcuttas = list(selectors.newest_calcuttas(user=request.user, club=club)[:10])
    if not calcuttas:
        return None
    return render_to_string("calcutta/club_panel.html", {"calcuttas": calcuttas}, request=request)


def player_panel(request, player):
    rows = selectors.player_holdings(user=request.user, player=player)
    if not rows:
        return None
    return render_to_string("calcutta/player_panel.html", {"rows": rows, "player": player}, request=request)


def event_panel(request, event):
    calcuttas = list(selectors.newest_calcuttas(user=request.user, event=event))
    can_start = access.can(request.user, "event.direct", event) and (
        selectors.flights_to_start(user=request.user).filter(event=event).exists()
    )
    if not calcuttas and not can_start:
        return None
    return render_to_string(
        "calcutta/event_panel.html", {"calcuttas": calcuttas, "can_start": can_start}, request=request
    )
