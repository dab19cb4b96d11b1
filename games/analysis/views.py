"""Pages of engine analyses: the consent switches, and asking for a record's analysis."""

from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from base.idempotency import idempotent_page
from base.web import attempt
from clubs import selectors as club_selectors
from games.analysis import selectors, services
from games.records import selectors as record_selectors


@login_required
@idempotent_page
def analysis_settings(request):
    page = selectors.consent_page(user=request.user)
    if request.method == "POST":
        allowed = request.POST.get("allowed") == "on"
        slug = request.POST.get("club")
        if slug:
            club = club_selectors.visible_club(user=request.user, slug=slug)
            rank = request.POST.get("rank") == "on"
            if club is not None:
                attempt(
                    request,
                    lambda: services.set_club_consent(actor=request.user, club=club, allowed=allowed, rank=rank),
                    _("Saved."),
                )
        elif page["player"] is not None:
            player = page["player"]
            consent = request.POST.get("consent", "")
            attempt(
                request,
                lambda: services.set_player_consent(actor=request.user, player=player, consent=consent),
                _("Saved."),
            )
        return redirect("games:analysis-settings")
    return render(request, "games/analysis/settings.html", page)


@login_required
@require_POST
@idempotent_page
def analyse_record(request, pk):
    record = get_object_or_404(record_selectors.visible_records(user=request.user), pk=pk)
    plies = request.POST.get("plies", "")
    if plies:
        number = int(plies) if plies.isdigit() else -1
        attempt(
            request,
            lambda: services.request_deeper_analysis(actor=request.user, record=record, plies=number),
            _("The deeper analysis is queued."),
        )
    else:
        attempt(request, lambda: services.request_analysis(record=record), _("The analysis is queued."))
    return redirect(record.get_absolute_url() + "#analysis")
