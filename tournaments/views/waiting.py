"""A capped flight's waiting list page: a player sees their place and answers an offered place; the director sees
the list, sets the cap and the hours to accept, moves a player up with a reason and closes the list. Views only
call services and selectors."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from base.idempotency import idempotent_page
from base.numbers import parse_id
from base.web import attempt
from clubs import access
from clubs import selectors as club_selectors
from tournaments import selectors, services
from tournaments.views.money import flight_of


def _spot(request, flight):
    spot = selectors.spot_in(flight=flight, pk=parse_id(request.POST.get("spot")) or 0)
    if spot is None:
        raise Http404(_("No such place on this waiting list."))
    return spot


def _number(text: str) -> int | None:
    return parse_id(text) if (text or "").strip() else None


def _post(request, flight) -> None:
    action, user = request.POST.get("action", ""), request.user
    if action == "join":
        attempt(
            request, lambda: services.join_waiting_list(actor=user, flight=flight), _("You are on the waiting list.")
        )
    elif action == "accept":
        attempt(request, lambda: services.accept_place(actor=user, spot=_spot(request, flight)), _("You are entered."))
    elif action == "decline":
        attempt(request, lambda: services.decline_place(actor=user, spot=_spot(request, flight)), _("Done."))
    elif action == "move":
        spot = _spot(request, flight)
        attempt(
            request,
            lambda: services.move_up(
                actor=user,
                spot=spot,
                to_place=_number(request.POST.get("to_place", "")) or 0,
                reason=request.POST.get("reason", ""),
            ),
            _("Moved up."),
        )
    elif action == "close":
        attempt(
            request, lambda: services.close_waiting_list(actor=user, flight=flight), _("The waiting list is closed.")
        )
    elif action == "cap":
        cap_text = request.POST.get("cap", "").strip()
        cap = _number(cap_text)
        if cap_text and cap is None:
            cap = -1  # not a whole number: the service refuses it with what works
        attempt(
            request,
            lambda: services.set_cap(
                actor=user, flight=flight, cap=cap, offer_hours=_number(request.POST.get("offer_hours", "")) or None
            ),
            _("Saved."),
        )


@login_required
@idempotent_page
def waiting_list(request, club, slug, flight):
    found = flight_of(request, club, slug, flight)
    if request.method == "POST":
        _post(request, found)
        return redirect("tournaments:flight-waiting-list", club=club, slug=slug, flight=flight)
    directs = access.can(request.user, "event.direct", found.event)
    player = club_selectors.player_for_user(request.user)
    listed = selectors.waiting_list(flight=found) if directs else None
    places = listed.places if listed else selectors.flight_places(flight=found)
    event_places = listed.event_places if listed else selectors.event_places_of(flight=found)
    context = {
        "event": found.event,
        "flight": found,
        "directs": directs,
        "mine": selectors.own_spot(flight=found, player=player),
        "places": places,
        "event_places": event_places,  # None: no event cap this flight counts against
        "full": places.full or bool(event_places and event_places.full),
        "list": listed,
    }
    return render(request, "tournaments/waiting_list.html", context)
