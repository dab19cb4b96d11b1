"""Web pages for events: the list, an event with its flights, the public bracket (phone and print), the
director's dashboard, overrides, the prize list and a player's next match. Views only call services and
selectors."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from base import pagecache, panels
from base.errors import Conflict, DomainError, Invalid
from base.idempotency import idempotent_page
from base.web import attempt, refusal_text
from clubs import access
from clubs import selectors as club_selectors
from tournaments import selectors, services
from tournaments.forms import (
    ClosingTimeForm,
    EntryListForm,
    EventCapForm,
    EventForm,
    FlightDayForm,
    FlightForm,
    OverrideForm,
    SwapForm,
    WithdrawalRefundForm,
    checklist,
)
from tournaments.models import DrawStatus, EntryStatus, FeedRule, FlightKind, WaitingSpot
from tournaments.views import rounds as views_rounds


def _event(request, club, slug):
    return selectors.event_or_404(user=request.user, club_slug=club, slug=slug)


def _flight(request, club, slug, flight):
    return selectors.flight_or_404(user=request.user, club_slug=club, event_slug=slug, slug=flight)


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
    registers = []
    if is_director:  # one query for every entry of the event: the register boxes and the director's own entries
        entries = selectors.event_entries(event=event)
        registers = _register_boxes(event, flights, entries)
        by_id = {f.pk: f for f in flights}
        mine = [e for e in entries if own is not None and e.player_id == own.pk]
        for entry in mine:
            entry.flight = by_id[entry.flight_id]
    else:
        mine = selectors.own_entries(event=event, player=own)
    entered = {e.flight_id for e in mine}
    context = {
        "event": event,
        "flights": flights,
        "panels": panels.collect("event", request, event),
        "is_director": is_director,
        "own": own,
        "entered": entered,
        "own_entries": [e for e in mine if e.status != EntryStatus.WITHDRAWN],
        "registers": registers,
        "open_register": request.GET.get("register", ""),
    }
    return render(request, "tournaments/event_detail.html", context)


def _register_boxes(event, flights, entries) -> list[dict]:
    """For each flight players register for: who is entered and the checklist of the members it offers, those
    entered shown as such (ticked, disabled) so nobody is entered twice; a side pool offers only the players of
    the flight it follows. Two queries (the members; the event's entries, passed in) whatever the flights."""
    members = [m.player for m in club_selectors.club_members(club=event.club)]
    by_flight: dict[int, list] = {}
    for entry in entries:
        by_flight.setdefault(entry.flight_id, []).append(entry)
    return [
        _register_box(flight, members, by_flight)
        for flight in flights
        if flight.feed_rule == FeedRule.DRAW or flight.kind == FlightKind.SIDE_POOL
    ]


def _register_box(flight, members, by_flight) -> dict:
    own_entries = by_flight.get(flight.pk, [])
    taken = {e.player_id for e in own_entries}
    offered = members
    if flight.kind == FlightKind.SIDE_POOL:
        allowed = {e.player_id for e in by_flight.get(flight.source_id, [])}
        offered = [p for p in members if p.pk in allowed]
    return {
        "flight": flight,
        "entries": own_entries,
        "taken": taken,
        "offered": offered,
        "checklist": checklist(offered, taken),
        "others": [p for p in offered if p.pk not in taken],
    }


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
def add_flight(request, club, slug):
    """The "new flight" page: the format and its options, the knockout options apart. A refusal of the service
    (0 rounds, a group of one, a tie-break that does not exist) is shown on its field with everything the
    director typed kept, so the fix is one change, not a new form."""
    event = _event(request, club, slug)
    access.require(request.user, "event.direct", event)
    flights = selectors.flights(event=event)
    form = FlightForm(request.POST or None, flights=flights)
    if request.method == "POST" and form.is_valid():
        data = dict(form.cleaned_data)
        source_slug = data.pop("source")
        source = next((f for f in flights if f.slug == source_slug), None)
        awarded = data.pop("awards_entry_to")
        data["awards_entry_to"] = next((f for f in flights if f.slug == awarded), None)
        data["feed_rule"] = data["feed_rule"] or None
        try:
            services.add_flight(actor=request.user, event=event, source=source, **data)
        except (ValidationError, Conflict, DomainError) as exc:
            _refusal_on_fields(form, exc)
        else:
            messages.success(request, _("Flight added."))
            return redirect(event)
    return render(request, "tournaments/flight_new.html", {"event": event, "form": form})


def _refusal_on_fields(form, exc) -> None:
    """A service's refusal on the form: each message on the field it names (else above the form)."""
    if (isinstance(exc, ValidationError) and hasattr(exc, "error_dict")) or (isinstance(exc, Invalid) and exc.errors):
        for field, errors in exc.message_dict.items():
            for message in errors:
                form.add_error(field if field in form.fields else None, message)
        return
    field = getattr(exc, "field", None)
    form.add_error(field if field in form.fields else None, refusal_text(exc))


def flight_bracket(request, club, slug, flight):
    """The public bracket (also what static/js/live.js refetches after every change). Its body is the same for
    every viewer but a director, so it is rendered once per flight version, language, projector view and day
    and then served from the cache (two queries: the event and the flight); a director's body carries their
    own forms and CSRF token and is always rendered for them."""
    found = _flight(request, club, slug, flight)
    if found.is_round_based:
        return views_rounds.flight_rounds(request, found)
    event = found.event
    projector = request.GET.get("projector") == "1"
    if pagecache.serves(request):  # the whole page, the same for every anonymous reader: rendered once per version

        def readers_page() -> dict:
            body = public_bracket_body(found, projector=projector)
            return {"event": event, "flight": found, "projector": projector, "mine": [], "body": body}

        return views_rounds.anonymous_page(
            request, found, projector=projector, template="tournaments/flight_bracket.html", context=readers_page
        )
    is_director = access.can(request.user, "event.direct", event)
    if is_director:
        now_date = date_format(timezone.localdate(), "DATE_FORMAT")
        context = _bracket_context(found, is_director=True, projector=projector, now_date=now_date)
        html = render_to_string("tournaments/_bracket_body.html", context, request=request)
    else:
        html = public_bracket_body(found, projector=projector)
    mine, waiting = [], None
    if request.user.is_authenticated and not projector:  # the signed-in player's own table, never cached
        mine = selectors.player_tables(user=request.user, flight=found, limit=1)
        waiting = own_waiting_spot(request, found)
    context = {
        "event": event,
        "flight": found,
        "projector": projector,
        "body": html,
        "mine": mine,
        "waiting": waiting,
        "is_director": is_director,
    }
    return render(request, "tournaments/flight_bracket.html", context)


def own_waiting_spot(request, flight):
    """The signed-in player's place on a capped flight's waiting list (no query for a flight without a cap)."""
    if flight.cap is None or not request.user.is_authenticated:
        return None
    return selectors.own_spot(flight=flight, player=club_selectors.player_for_user(request.user))


def public_bracket_body(flight, *, projector: bool) -> str:
    """The bracket's body as every viewer but a director sees it, in the active language: rendered once per
    flight version, language, projector view and day, then served from the cache. The page and its live fragment
    (tournaments.live, pushed over the socket to every open public bracket) are this one string, so a reload and
    a push show the same; it names its variant and version (data-live-fragment, data-live-version) for the
    page's script to ask for and to order fragments by."""
    now_date = date_format(timezone.localdate(), "DATE_FORMAT")

    def body():
        context = _bracket_context(flight, is_director=False, projector=projector, now_date=now_date)
        variant = views_rounds.fragment_variant(projector)
        context["live_fragment"] = {"variant": variant, "version": selectors.version_of(flight)}
        return render_to_string("tournaments/_bracket_body.html", context)

    variant = f"{projector:d}:{timezone.localdate().isoformat()}"  # the sheet says when it was printed
    return selectors.cached_rendering(flight=flight, kind="page", build=body, variant=variant)


def _bracket_context(flight, *, is_director: bool, projector: bool, now_date: str) -> dict:
    drawn = selectors.bracket(flight=flight) if flight.draw_status == DrawStatus.RELEASED else []
    rounds = [r for r in drawn if r.section not in ("t", "p")]
    entries = list(selectors.flight_entries(flight=flight))
    chances = selectors.flight_chances(flight=flight, bracket=rounds, entries=entries) if rounds else None
    if chances is not None:
        for r in rounds:
            for slot in r.slots:
                slot.chances = chances.matches.get(slot.pk)
    return {
        "event": flight.event,
        "chances": chances,
        "flight": flight,
        "rounds": rounds,
        # below the tree, which they are not part of: the playoff for 2nd, the third-place match
        "third_place": [r for r in drawn if r.section in ("p", "t")],
        # a single-elimination tree is drawn with connector lines, later rounds between their feeders
        "tree": bool(rounds) and all(r.section == "w" for r in rounds),
        "projector": projector,
        "now_date": now_date,
        "pairs": selectors.draft_pairs(flight=flight)
        if flight.draw_status in (DrawStatus.DRAFT, DrawStatus.CONFIRMED)
        else [],
        "is_director": is_director,
        "entries": entries,
        # before the draw: how many are here ("7 of 9 checked in"); the draw settles it
        "checked_in_count": sum(1 for e in entries if e.status == EntryStatus.CHECKED_IN)
        if flight.draw_status == DrawStatus.NONE
        else None,
        "no_shows": selectors.no_shows(flight=flight) if flight.draw_status != DrawStatus.NONE else [],
        # "payment required before the draw": whom the draw would leave out (a query only with the setting)
        "unpaid_left_out": selectors.unpaid_left_out(flight=flight)
        if is_director and flight.draw_status in (DrawStatus.NONE, DrawStatus.DRAFT)
        else [],
        "day_form": FlightDayForm.for_flight(flight) if is_director else None,
        "swap_form": SwapForm() if is_director and flight.draw_status == DrawStatus.DRAFT else None,
        "pods": selectors.jackpot_pods(flight=flight),
    }


@login_required
@require_POST
def flight_day_settings(request, club, slug, flight):
    """The director sets a flight's check-in deadline and clock on the flight's page."""
    found = _flight(request, club, slug, flight)
    form = FlightDayForm(request.POST)
    if not form.is_valid():
        messages.error(request, " ".join(f"{k}: {' '.join(v)}" for k, v in form.errors.items()))
        return redirect(found)
    data = form.cleaned_data
    attempt(request, lambda: services.update_flight(actor=request.user, flight=found, **data), _("Saved."))
    return redirect(found)


def _dashboard_setting(request, club, slug, form_class, save):
    """One of the dashboard's event settings posted: `save(event, cleaned_data)` when the form is valid (the
    service's refusal shown as a message), the form's errors otherwise; back to the dashboard either way."""
    event = _event(request, club, slug)
    form = form_class(request.POST)
    if form.is_valid():
        data = form.cleaned_data
        attempt(request, lambda: save(event, data), _("Saved."))
    else:
        messages.error(request, " ".join(" ".join(v) for v in form.errors.values()))
    return redirect("tournaments:dashboard", club=event.club.slug, slug=event.slug)


@login_required
@require_POST
def closing_time(request, club, slug):
    """The director sets when the venue closes; the dashboard's forecast warns against it."""
    return _dashboard_setting(
        request,
        club,
        slug,
        ClosingTimeForm,
        lambda event, data: services.update_event(actor=request.user, event=event, closes_at=data["closes_at"]),
    )


@login_required
@require_POST
def event_cap(request, club, slug):
    """The director sets the event's cap across its flights on the dashboard; a cap below the entries in is
    refused, naming the lowest that works."""
    return _dashboard_setting(
        request,
        club,
        slug,
        EventCapForm,
        lambda event, data: services.set_event_cap(actor=request.user, event=event, cap=data["cap"]),
    )


@login_required
@require_POST
def withdrawal_refund(request, club, slug):
    """The director sets how much of a paid fee a withdrawal before the draw refunds, on the dashboard."""
    return _dashboard_setting(
        request,
        club,
        slug,
        WithdrawalRefundForm,
        lambda event, data: services.update_event(
            actor=request.user, event=event, withdrawal_refund_percent=data["withdrawal_refund_percent"]
        ),
    )


def _entry_list_form(request, found) -> tuple[EntryListForm, dict]:
    """The director's list (ticked members, pasted names) read against the flight's checklist. The old single
    `player` field (a form of an older page) counts as one ticked member."""
    entries = selectors.event_entries(event=found.event)
    by_flight: dict[int, list] = {}
    for entry in entries:
        by_flight.setdefault(entry.flight_id, []).append(entry)
    members = [m.player for m in club_selectors.club_members(club=found.event.club)]
    box = _register_box(found, members, by_flight)
    data = request.POST.copy()
    data.setlist("players", request.POST.getlist("players") + request.POST.getlist("player"))
    return EntryListForm(data, members=box["offered"], entered=box["taken"]), box


def _wants_a_list(request) -> bool:
    """A director's list (ticked or pasted), as against a player entering themself (nothing sent)."""
    post = request.POST
    return bool(post.getlist("players") or post.getlist("player") or post.get("names", "").strip())


def _signed_up(result) -> str:
    """A sign-up's message: entered, or the place on the waiting list of a full flight."""
    if isinstance(result, WaitingSpot):
        spot = selectors.own_spot(flight=result.flight, player=result.player)
        message = _("%(flight)s is full: you are number %(n)s on its waiting list.")
        return message % {"flight": result.flight.name, "n": spot.place if spot else "?"}
    return _("You are entered.")


@login_required
@require_POST
def register(request, club, slug, flight):
    """Enter players: yourself (nothing sent), or — a director — club members ticked on the checklist or pasted
    as names. A list is first shown back on a preview page (who matched, who is entered already, which names
    fit several members or none, and after the draw which byes the late entries take); only its "Enter these
    N players" button enters them, all or none (services.register_all)."""
    found = _flight(request, club, slug, flight)
    back = f"{found.event.get_absolute_url()}?register={found.slug}#register-{found.slug}"
    late = found.draw_status != DrawStatus.NONE and found.kind != FlightKind.SIDE_POOL
    if not _wants_a_list(request):
        if late and request.POST.get("confirmed") != "1":
            preview = services.late_entry_preview(flight=found, count=1)
            context = {"flight": found, "event": found.event, "players": [], "preview": preview}
            return render(request, "tournaments/register_confirm.html", context)
        attempt(request, lambda: services.sign_up(actor=request.user, flight=found), _signed_up)
        return redirect(found.event)
    access.require(request.user, "event.direct", found.event)
    form, box = _entry_list_form(request, found)
    if not form.is_valid():
        messages.error(request, " ".join(" ".join(errors) for errors in form.errors.values()))
        return redirect(back)
    matching = form.matching
    by_id = {p.pk: p for p in box["offered"]}
    if found.is_team_event:  # the players ticked or pasted are one pair or team, in order (the captain first)
        return _register_team(request, found, matching, by_id, back)
    if request.POST.get("confirmed") == "1":
        # the ids the preview sent; one entered meanwhile is refused by the service, and then nobody is entered
        players = [by_id[pk] for pk in matching.ids + [pk for _name, pk in matching.already]]
        attempt(
            request,
            lambda: services.register_all(actor=request.user, flight=found, players=players),
            lambda entered: (
                ngettext(
                    "%(n)s player entered in %(flight)s: %(names)s.",
                    "%(n)s players entered in %(flight)s: %(names)s.",
                    len(entered),
                )
                % {"n": len(entered), "flight": found.name, "names": ", ".join(e.player.name for e in entered)}
            ),
        )
        return redirect(back)
    players = [by_id[pk] for pk in matching.ids]
    context = {
        "flight": found,
        "event": found.event,
        "players": players,
        "already": [by_id[pk] for _name, pk in matching.already],
        "ambiguous": [(name, [by_id[pk] for pk in ids]) for name, ids in matching.ambiguous],
        "unknown": matching.unknown,
        "late": late,
        "preview": services.late_entry_preview(flight=found, count=len(players)) if late and players else [],
        "names": form.cleaned_data.get("names", ""),
        "ticked": form.cleaned_data.get("players", []),
    }
    return render(request, "tournaments/register_preview.html", context)


def _register_team(request, found, matching, by_id, back):
    if not matching.is_clean:
        unclear = [name for name, _ids in matching.ambiguous] + matching.unknown
        message = _("Not one member of the club each: %(names)s. Nobody was entered.")
        messages.error(request, message % {"names": ", ".join(unclear)})
        return redirect(back)
    order = matching.matched + matching.already
    players = [by_id[pk] for _name, pk in order]
    team_name = request.POST.get("team_name", "")
    attempt(
        request,
        lambda: services.sign_up(actor=request.user, flight=found, players=players, team_name=team_name),
        _team_signed_up,
    )
    return redirect(back)


def _team_signed_up(result) -> str:
    """A pair's or team's sign-up: entered, or its place on the waiting list of a full flight."""
    if isinstance(result, WaitingSpot):
        spot = selectors.own_spot(flight=result.flight, player=result.player)
        message = _("%(flight)s is full: %(name)s is number %(n)s on its waiting list.")
        return message % {"flight": result.flight.name, "name": result.team_name, "n": spot.place if spot else "?"}
    return _("%(name)s entered in %(flight)s.") % {"name": result.name, "flight": result.flight.name}


@login_required
@require_POST
def draw_step(request, club, slug, flight, step):
    found = _flight(request, club, slug, flight)
    steps = {
        "draw": (lambda: services.draw_flight(actor=request.user, flight=found), _("Drawn (draft).")),
        "confirm": (lambda: services.confirm_draw(actor=request.user, flight=found), _("Draw confirmed.")),
        "release": (lambda: services.release_draw(actor=request.user, flight=found), _("Draw released.")),
        "swap": (lambda: _swap(request, found), _("Places swapped.")),
    }
    if step not in steps:
        raise Http404(_("No such step."))
    if step == "release" and request.POST.get("confirmed") != "1":
        pairs = selectors.draft_pairs(flight=found)
        context = {
            "flight": found,
            "event": found.event,
            "pairs": pairs,
            "matches": sum(1 for a, b in pairs if a and b),
            "byes": [a or b for a, b in pairs if bool(a) != bool(b)],
        }
        return render(request, "tournaments/release_confirm.html", context)
    attempt(request, *steps[step])
    return redirect(found)


def _swap(request, found):
    form = SwapForm(request.POST)
    if not form.is_valid():
        raise ValidationError(form.errors)
    a, b = form.cleaned_data["a"] - 1, form.cleaned_data["b"] - 1
    return services.swap_draft_positions(actor=request.user, flight=found, a=a, b=b)


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
@idempotent_page
def withdraw(request, club, slug, flight, pk):
    """After the release a withdrawal hands the opponent a walkover: the page says so and asks first."""
    found = _flight(request, club, slug, flight)
    entry = _entry(found, pk)
    preview = services.withdraw_preview(entry=entry)
    if preview and request.POST.get("confirmed") != "1":
        context = {"flight": found, "event": found.event, "entry": entry, "withdrawal": preview, "reentry": None}
        return render(request, "tournaments/entry_confirm.html", context)
    return _entry_action(request, club, slug, flight, pk, services.withdraw, _("Withdrawn."))


@login_required
@require_POST
@idempotent_page
def check_in(request, club, slug, flight, pk):
    """One tap, from the flight's list (a director), the event page or the personal home (the player): the
    player's tap goes back where it came from."""
    response = _entry_action(request, club, slug, flight, pk, services.check_in, _("Checked in."))
    back = request.POST.get("next", "")
    if url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()}, require_https=request.is_secure()):
        return redirect(back)
    return response


@login_required
@require_POST
def undo_check_in(request, club, slug, flight, pk):
    """A director's tick undone, from the flight's list, before the draw or round 1."""
    return _entry_action(request, club, slug, flight, pk, services.undo_check_in, _("Check-in undone."))


@login_required
@require_POST
def reenter(request, club, slug, flight, pk):
    found = _flight(request, club, slug, flight)
    entry = _entry(found, pk)
    if request.POST.get("confirmed") != "1":  # a re-entry always reshapes the bracket: show how, then ask
        preview = services.reentry_preview(flight=found, player=entry.player)
        context = {"flight": found, "event": found.event, "entry": entry, "withdrawal": None, "reentry": preview}
        return render(request, "tournaments/entry_confirm.html", context)
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
    times = selectors.event_forecast(event=event, now=timezone.now())
    context = {
        "event": event,
        "board": selectors.dashboard(event=event),
        "flights": flights,
        "FeedRule": FeedRule,
        "forecasts": times,
        "late": [t for t in times if t.late],
        "fees": selectors.event_fees(event=event, flights=flights),
        "closing_form": ClosingTimeForm(
            initial={"closes_at": timezone.localtime(event.closes_at).strftime("%Y-%m-%dT%H:%M")}
            if event.closes_at
            else None
        ),
        "cap_form": EventCapForm(initial={"cap": event.cap}),
        "refund_form": WithdrawalRefundForm(initial={"withdrawal_refund_percent": event.withdrawal_refund_percent}),
        "event_places": selectors.event_places(event=event) if event.cap is not None else None,
    }
    return render(request, "tournaments/dashboard.html", context)


@login_required
@idempotent_page
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


@login_required
def next_match(request):
    player = club_selectors.player_for_user(request.user)
    tables = [] if player is None else selectors.next_matches(player=player)
    return render(request, "tournaments/next_match.html", {"player": player, "tables": tables})
