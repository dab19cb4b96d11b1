"""Pages of a flight played in rounds: the standings with their tie-break columns and a round's tables (phone,
print and projector), the signed-in player's own table, and the director's buttons to pair the next round and
to drop a player. Views only call services and selectors."""

from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from base.web import attempt
from clubs import access
from clubs import selectors as club_selectors
from tournaments import selectors, services
from tournaments.models import FlightFormat
from tournaments.selectors import robin as robin_selectors
from tournaments.selectors import rounds as round_selectors

MAX_ROUND = 999


def flight_rounds(request, flight):
    """The public page of a round-based flight (tournaments.views.flight_bracket hands it over)."""
    event = flight.event
    shown = request.GET.get("round", "")
    number = int(shown) if shown.isdigit() and len(shown) <= 3 else flight.current_round
    number = min(max(number, 1), max(flight.current_round, 1))
    player = club_selectors.player_for_user(request.user) if request.user.is_authenticated else None
    order = round_selectors.tiebreak_order(flight)
    context = {
        "event": event,
        "flight": flight,
        "standings": round_selectors.flight_standings(flight=flight),
        "groups": robin_selectors.group_tables(flight=flight) if flight.format == FlightFormat.GROUPS else [],
        "columns": [c for c in order if c != "wins"],
        "pairings": round_selectors.round_pairings(flight=flight, round_number=number) if flight.current_round else [],
        "round_number": number,
        "round_numbers": range(1, flight.current_round + 1),
        "mine": round_selectors.player_pairing(flight=flight, player_id=getattr(player, "pk", None)),
        "is_director": access.can(request.user, "event.direct", event),
        "projector": request.GET.get("projector") == "1",
        "now_date": date_format(timezone.localdate(), "DATE_FORMAT"),
    }
    return render(request, "tournaments/flight_rounds.html", context)


def _flight(request, club, slug, flight):
    event = selectors.event_or_404(user=request.user, club_slug=club, slug=slug)
    found = selectors.flight_for(event=event, slug=flight)
    if found is None:
        raise Http404(_("No such flight."))
    return found


@login_required
@require_POST
def start_round(request, club, slug, flight):
    found = _flight(request, club, slug, flight)
    attempt(
        request,
        lambda: services.start_round(actor=request.user, flight=found),
        lambda pairings: _("Round paired.") if pairings else _("The last round is played: the flight is finished."),
    )
    return redirect(found)


@login_required
@require_POST
def drop(request, club, slug, flight, pk):
    """The director drops a player: their open table forfeited to the opponent, or not scored."""
    found = _flight(request, club, slug, flight)
    entry = selectors.entry_in(flight=found, pk=pk)
    if entry is None:
        raise Http404(_("No such entry."))
    score = request.POST.get("score_remaining") != "0"
    attempt(
        request,
        lambda: services.drop(actor=request.user, entry=entry, score_remaining=score),
        _("Dropped: not paired again."),
    )
    return redirect(found)
