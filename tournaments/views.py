"""Web pages for events: the list, an event with its flights, the public bracket (phone and print), the
director's dashboard, overrides, the prize list and a player's next match. Views only call services and
selectors."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from base import panels
from base.web import attempt
from clubs import access
from clubs import selectors as club_selectors
from tournaments import selectors, services
from tournaments.forms import EventForm, FlightForm, OverrideForm, RegisterForm
from tournaments.models import DrawStatus, FeedRule


def _event(request, club, slug):
    event = selectors.event_for(user=request.user, club_slug=club, slug=slug)
    if event is None:
        raise Http404(_("No such event."))
    return event


def _flight(request, club, slug, flight):
    found = selectors.flight_for(event=_event(request, club, slug), slug=flight)
    if found is None:
        raise Http404(_("No such flight."))
    return found


def event_list(request):
    events = selectors.newest_events(user=request.user)[:100]
    clubs = list(club_selectors.directed_clubs(user=request.user))
    form = EventForm(request.POST or None, clubs=clubs) if clubs else None
    if request.method == "POST":
        if form is None:
            raise PermissionDenied(access.message_for("event.create"))
        if form.is_valid():
            data = form.cleaned_data
            club = next(c for c in clubs if c.slug == data["club"])
            created = {}

            def create():
                created["event"] = services.create_event(
                    actor=request.user,
                    club=club,
                    name=data["name"],
                    starts_on=data["starts_on"],
                    ends_on=data["ends_on"],
                    is_public=data["is_public"],
                    house_percent=data["house_percent"],
                )

            if attempt(request, create, _("Event created.")):
                return redirect(created["event"])
    return render(request, "tournaments/event_list.html", {"events": events, "form": form})


def event_detail(request, club, slug):
    event = _event(request, club, slug)
    flights = selectors.flights(event=event)
    is_director = access.can(request.user, "event.direct", event)
    own = club_selectors.player_for_user(request.user)
    entered = selectors.entered_flights(event=event, player=own)
    context = {
        "event": event,
        "flights": flights,
        "panels": panels.collect("event", request, event),
        "is_director": is_director,
        "own": own,
        "entered": entered,
        "flight_form": FlightForm(flights=flights) if is_director else None,
        "register_form": RegisterForm(players=[m.player for m in club_selectors.club_members(club=event.club)])
        if is_director
        else None,
    }
    return render(request, "tournaments/event_detail.html", context)


@login_required
@require_POST
def toggle_registration(request, club, slug):
    event = _event(request, club, slug)
    opening = not event.registration_open
    attempt(
        request,
        lambda: services.update_event(actor=request.user, event=event, registration_open=opening),
        _("Registration is open.") if opening else _("Registration is closed."),
    )
    return redirect(event)


@login_required
@require_POST
def add_flight(request, club, slug):
    event = _event(request, club, slug)
    flights = selectors.flights(event=event)
    form = FlightForm(request.POST, flights=flights)
    if not form.is_valid():
        messages.error(request, " ".join(f"{k}: {' '.join(v)}" for k, v in form.errors.items()))
        return redirect(event)
    data = form.cleaned_data
    source_slug = data.pop("source")
    source = next((f for f in flights if f.slug == source_slug), None)
    data["feed_rule"] = data["feed_rule"] or None
    attempt(
        request,
        lambda: services.add_flight(actor=request.user, event=event, source=source, **data),
        _("Flight added."),
    )
    return redirect(event)


def flight_bracket(request, club, slug, flight):
    found = _flight(request, club, slug, flight)
    event = found.event
    context = {
        "event": event,
        "flight": found,
        "rounds": selectors.bracket(flight=found) if found.draw_status == DrawStatus.RELEASED else [],
        "pairs": selectors.draft_pairs(flight=found)
        if found.draw_status in (DrawStatus.DRAFT, DrawStatus.CONFIRMED)
        else [],
        "is_director": access.can(request.user, "event.direct", event),
        "entries": selectors.flight_entries(flight=found),
    }
    return render(request, "tournaments/flight_bracket.html", context)


@login_required
@require_POST
def register(request, club, slug, flight):
    found = _flight(request, club, slug, flight)
    player = None
    if request.POST.get("player"):
        wanted = request.POST["player"]
        if wanted.isdigit() and len(wanted) < 12:
            player = selectors.club_member(club=found.event.club, player_id=int(wanted))
        if player is None:
            messages.error(request, _("Choose a member of the club."))
            return redirect(found.event)
    attempt(request, lambda: services.register(actor=request.user, flight=found, player=player), _("Registered."))
    return redirect(found.event)


@login_required
@require_POST
def draw_step(request, club, slug, flight, step):
    found = _flight(request, club, slug, flight)
    steps = {
        "draw": (lambda: services.draw_flight(actor=request.user, flight=found), _("Drawn (draft).")),
        "confirm": (lambda: services.confirm_draw(actor=request.user, flight=found), _("Draw confirmed.")),
        "release": (lambda: services.release_draw(actor=request.user, flight=found), _("Draw released.")),
    }
    if step not in steps:
        raise Http404(_("No such step."))
    attempt(request, *steps[step])
    return redirect(found)


def _entry(found, pk):
    entry = selectors.entry_in(flight=found, pk=pk)
    if entry is None:
        raise Http404(_("No such entry."))
    return entry


def _entry_action(request, club, slug, flight, pk, service, success):
    found = _flight(request, club, slug, flight)
    entry = _entry(found, pk)
    attempt(request, lambda: service(actor=request.user, entry=entry), success)
    return redirect(found)


@login_required
@require_POST
def withdraw(request, club, slug, flight, pk):
    return _entry_action(request, club, slug, flight, pk, services.withdraw, _("Withdrawn."))


@login_required
@require_POST
def check_in(request, club, slug, flight, pk):
    return _entry_action(request, club, slug, flight, pk, services.check_in, _("Checked in."))


@login_required
@require_POST
def reenter(request, club, slug, flight, pk):
    found = _flight(request, club, slug, flight)
    entry = _entry(found, pk)
    attempt(
        request,
        lambda: services.reenter(actor=request.user, flight=found, player=entry.player),
        _("%(player)s re-entered.") % {"player": entry.player.name},
    )
    return redirect(found)


@login_required
def dashboard(request, club, slug):
    event = _event(request, club, slug)
    access.require(request.user, "event.direct", event)
    flights = selectors.flights(event=event)
    context = {"event": event, "board": selectors.dashboard(event=event), "flights": flights, "FeedRule": FeedRule}
    return render(request, "tournaments/dashboard.html", context)


@login_required
def override(request, club, slug, flight, pk):
    found = _flight(request, club, slug, flight)
    slot = selectors.slot_in(flight=found, pk=pk)
    if slot is None or slot.match_id is None:
        raise Http404(_("No such match in this flight."))
    steps = services.override_preview(actor=request.user, slot=slot)
    form = OverrideForm(request.POST or None, slot=slot)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        scores = None
        if data["score_a"] is not None and data["score_b"] is not None:
            scores = (data["score_a"], data["score_b"])
        done = attempt(
            request,
            lambda: services.override_result(
                actor=request.user,
                slot=slot,
                winner_side=data["winner_side"],
                outcome=data["outcome"],
                scores=scores,
                comment=data["comment"],
            ),
            _("Result overridden; %(n)s later matches voided.") % {"n": len(steps)},
        )
        if done:
            return redirect(found)
    return render(request, "tournaments/override.html", {"flight": found, "slot": slot, "steps": steps, "form": form})


def prizes(request, club, slug):
    event = _event(request, club, slug)
    return render(request, "tournaments/prizes.html", {"event": event, "prizes": selectors.prize_list(event=event)})


@login_required
def next_match(request):
    player = club_selectors.player_for_user(request.user)
    slots = [] if player is None else selectors.next_matches(player=player)
    return render(request, "tournaments/next_match.html", {"player": player, "slots": slots})
