"""Panels on the player page (lifetime chouette balance per club) and the club page (sessions)."""

from django.template.loader import render_to_string

from chouette import selectors
from clubs import access


def player_panel(request, player):
    balances = selectors.lifetime_balances(player=player, user=request.user)
    if not balances:
        return None
    return render_to_string("chouette/player_panel.html", {"balances": balances, "player": player}, request=request)


def club_panel(request, club):
    sessions = list(selectors.club_sessions(club=club)[:10])
    can_start = access.can(request.user, "chouette.start", club)
    if not sessions and not can_start:
        return None
    context = {
        "club": club,
        "sessions": sessions,
        "can_start": can_start,
        "balances": selectors.club_balances(club=club, user=request.user)[:20],
    }
    return render_to_string("chouette/club_panel.html", context, request=request)


def my_home(request, _obj):
    """The signed-in user's open chouette tables on their home page, with what waits for them there (an invitation
    to accept in one tap, join requests to approve on the table's page); nothing when there is none. One query."""
    tables = selectors.my_open_tables(user=request.user)
    if not tables:
        return None
    return render_to_string("chouette/_my_home.html", {"tables": tables}, request=request)
