"""Match play's sections of the signed-in user's home page (GamesConfig.panels["my_home"]): the invitations to
casual matches to answer (or withdraw), the results waiting for their confirmation, the disputes of their matches,
and their open matches outside a tournament bracket (the tournaments app lists those with their flight and
round)."""

from django.template.loader import render_to_string

from games.matchplay import selectors
from games.models.matches import MatchContext


def my_home(request, _obj):
    user = request.user
    to_confirm = list(selectors.reports_to_confirm(user=user)[:20])
    for report in to_confirm:
        report.reporter_name = selectors.reporter_name(report.match, report)
    request.to_confirm_count = len(to_confirm)  # the menu badge needs no query of its own
    disputes = list(selectors.open_disputes(user=user)[:20])
    open_matches, invitations = selectors.my_home_matches(user=user)
    open_matches = [m for m in open_matches if m.context != MatchContext.TOURNAMENT]
    # the cards of a tournament's matches name its event, flight and round: one query for all of them
    selectors.with_places([r.match for r in to_confirm] + [d.match for d in disputes])
    context = {"to_confirm": to_confirm, "disputes": disputes, "open_matches": open_matches, "invitations": invitations}
    return render_to_string("games/matches/_my_home.html", context, request)
