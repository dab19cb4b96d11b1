"""Pages of a flight played in rounds: the standings with their tie-break columns, the crosstable and a round's
tables (phone, print sheet for the wall and projector), the signed-in player's own table, and the director's
pages: pair the next round, re-pair the current one (preview with the rematches, then confirm), correct an
earlier round's result (preview of what changes, then confirm) and drop a player. Views only call services and
selectors."""

from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from base import numbers, pagecache
from base.api import Conflict
from base.errors import DomainError
from base.web import attempt, refusal_text
from clubs import access
from clubs import selectors as club_selectors
from games.models import MatchStatus
from tournaments import formats as flight_formats
from tournaments import selectors, services
from tournaments.forms import CorrectionForm, FlightDayForm
from tournaments.models import EntryStatus, FlightStatus, PairingResult
from tournaments.selectors import crosstable as crosstable_selectors
from tournaments.selectors import rounds as round_selectors
from tournaments.selectors import stages as stage_selectors

MAX_ROUND = 999


def flight_rounds(request, flight):
    """The public page of a round-based flight (tournaments.views.events.flight_bracket hands it over). Its body
    (standings, the round's tables, the crosstable, check-in) is the same for every viewer but a director when it
    shows the current round, so it is rendered once per flight version, language, projector view and day and
    served from the cache; it is also the live fragment pushed to every open page (tournaments.live). What is the
    viewer's own (their table, above the body) and a director's body, with their forms, are rendered for them."""
    event = flight.event
    shown = request.GET.get("round", "")
    # parse_id, not str.isdigit: "²" passes isdigit and then int() refuses it
    number = numbers.parse_id(shown) or flight.current_round
    number = min(max(number, 1), max(flight.current_round, 1))
    if request.GET.get("print") == "1":
        # the wall sheet: the round's tables, the same players by name (to find one's table), the standings
        context = rounds_context(flight, number=number, is_director=False, projector=False)
        context["by_name"] = sorted(
            ((e.name, p) for p in context["pairings"] for e in (p.entry_a, p.entry_b) if e is not None),
            key=lambda item: item[0].casefold(),
        )
        return render(request, "tournaments/flight_rounds_print.html", context)
    projector = request.GET.get("projector") == "1"
    if pagecache.serves(request) and number == max(flight.current_round, 1):

        def readers_page() -> dict:
            body = public_rounds_body(flight, projector=projector)
            return {"event": event, "flight": flight, "projector": projector, "mine": None, "body": body}

        return anonymous_page(
            request, flight, projector=projector, template="tournaments/flight_rounds.html", context=readers_page
        )
    # the viewer's own parts, which the wall sheet does not show
    player = club_selectors.player_for_user(request.user) if request.user.is_authenticated else None
    is_director = access.can(request.user, "event.direct", event)
    mine = round_selectors.player_pairing(flight=flight, player_id=getattr(player, "pk", None))
    if is_director or number != max(flight.current_round, 1):  # the current round (round 1 before it is paired)
        context = rounds_context(flight, number=number, is_director=is_director, projector=projector) | {"mine": mine}
        body = render_to_string("tournaments/_rounds_body.html", context, request=request)
    else:
        body = public_rounds_body(flight, projector=projector)
    waiting = None
    if flight.cap is not None and player is not None:
        waiting = selectors.own_spot(flight=flight, player=player)
    page = {"event": event, "flight": flight, "projector": projector, "mine": mine, "body": body, "waiting": waiting}
    page["is_director"] = is_director
    return render(request, "tournaments/flight_rounds.html", page)


def anonymous_page(request, flight, *, projector: bool, template: str, context: Callable[[], dict]) -> HttpResponse:
    """A flight's public page for a reader who is not signed in (base.pagecache.serves): the whole page, the same
    for every such reader, rendered once per flight version, language, full path and day and then served from the
    cache. `context()` builds the page's context on a miss."""
    shown = pagecache.variant(request, projector, timezone.localdate(), flight.event.name, flight.name)

    def page() -> str:
        return render_to_string(template, context() | {"waiting": None, "is_director": False}, request=request)

    return HttpResponse(selectors.cached_rendering(flight=flight, kind="anonymous", build=page, variant=shown))


def public_rounds_body(flight, *, projector: bool) -> str:
    """The current round's body as every viewer but a director sees it, in the active language, from the cache
    (rendered once per flight version, language, projector view and day); the page and its live fragment are this
    one string, which names its variant and version for the page's script."""

    def body():
        context = rounds_context(flight, number=flight.current_round, is_director=False, projector=projector)
        context["live_fragment"] = {"variant": fragment_variant(projector), "version": selectors.version_of(flight)}
        return render_to_string("tournaments/_rounds_body.html", context)

    variant = f"{projector:d}:{timezone.localdate().isoformat()}"  # the sheet says when it was printed
    return selectors.cached_rendering(flight=flight, kind="rounds", build=body, variant=variant)


def fragment_variant(projector: bool) -> str:
    """A flight's public body as a page asks for its live fragment (bracket or rounds): the language and the
    projector view."""
    return f"{get_language()}.{projector:d}"


def rounds_context(flight, *, number: int, is_director: bool, projector: bool) -> dict:
    """What the body of a round-based flight's page shows of round `number`: nothing of the viewer's own but the
    director's forms when `is_director`."""
    number = min(max(number, 1), max(flight.current_round, 1))
    tiebreaks = round_selectors.tiebreaks_in_effect(flight)
    standings = round_selectors.flight_standings(flight=flight)
    form = flight_formats.format_of(flight)
    groups = form.standings_groups(flight)
    # the place chances, simulated by the format once per flight version (selectors.chances)
    chances = selectors.flight_chances(flight=flight) if flight.current_round else None
    tables = [g.rows for g in groups] if groups else [standings]
    crosstables = crosstable_selectors.crosstables(flight=flight, tables=tables) if flight.current_round else []
    pairings = round_selectors.round_pairings(flight=flight, round_number=number) if flight.current_round else []
    # before round 1: who is here (the standings of nobody-has-played would list the absent as well)
    checking_in = not flight.current_round and flight.status != FlightStatus.FINISHED
    check_ins = selectors.check_in_entries(flight=flight) if checking_in else []
    checked_in_count = sum(1 for e in check_ins if e.status == EntryStatus.CHECKED_IN)
    names = {row.entry.pk: row.entry.name for row in standings}
    paired_from = (
        round_selectors.paired_from(flight=flight, round_number=number, names=names) if flight.current_round else None
    )
    paired_tiebreaks = round_selectors.tiebreaks_named(paired_from.order) if paired_from else []
    return {
        "chances": chances,
        "check_ins": check_ins,
        "checked_in_count": checked_in_count,
        "not_checked_in": len(check_ins) - checked_in_count,
        "checking_in": checking_in,
        # the check-in deadline (and the clock) are set here too, as on a knockout's page
        "day_form": FlightDayForm.for_flight(flight) if is_director else None,
        "event": flight.event,
        "flight": flight,
        "standings": standings,
        # each group's standings with its crosstable (none before round 1)
        "groups": [(g, crosstables[i] if crosstables else None) for i, g in enumerate(groups)],
        "cross": crosstables[0] if crosstables and not groups else None,
        # the tie-break columns in the order in effect, and the whole order for the legend ("Ranked by: ...")
        "tiebreaks": tiebreaks,
        "columns": [t for t in tiebreaks if t.key != "wins"],
        # the standings this round was paired from, as they were then (kept when it was paired)
        "paired_from": paired_from,
        "paired_from_tiebreaks": paired_tiebreaks,
        "paired_from_columns": [t for t in paired_tiebreaks if t.key != "wins"],
        "pairings": pairings,
        "round_number": number,
        "round_numbers": range(1, flight.current_round + 1),
        "mine": None,
        "is_director": is_director,
        # the round's tables can be re-paired while nobody has begun (the service says so otherwise)
        "can_repair": is_director
        and number == flight.current_round
        and bool(pairings)
        and all(
            p.result in (PairingResult.PENDING, PairingResult.BYE)
            and (p.match is None or p.match.status == MatchStatus.SCHEDULED)
            for p in pairings
        ),
        "flight_line": form.describe(flight),
        "scheduled_games": form.scheduled_games,
        "last_round": form.last_round(flight),
        "stage": stage_selectors.next_stage(flight=flight),
        "projector": projector,
        "now_date": date_format(timezone.localdate(), "DATE_FORMAT"),
    }


def _flight(request, club, slug, flight):
    event = selectors.event_or_404(user=request.user, club_slug=club, slug=slug)
    found = selectors.flight_for(event=event, slug=flight)
    if found is None:
        raise Http404(_("No such flight."))
    return found


@login_required
@require_POST
def start_round(request, club, slug, flight):
    """Pair the next round. Round 1 that would withdraw players not checked in by the deadline first lists them
    and asks; nothing changes until the director confirms ("Withdraw them and pair round 1")."""
    found = _flight(request, club, slug, flight)
    confirmed = request.POST.get("confirm_no_shows") == "1"
    if not confirmed and access.can(request.user, "event.direct", found.event):
        absent = selectors.round_one_no_shows(flight=found)
        if absent:
            context = {"event": found.event, "flight": found, "no_shows": absent}
            return render(request, "tournaments/round_one_confirm.html", context)
    attempt(
        request,
        lambda: services.start_round(actor=request.user, flight=found, confirm_no_shows=confirmed),
        lambda pairings: _("Round paired.") if pairings else _("The last round is played: the flight is finished."),
    )
    return redirect(found)


@login_required
@require_POST
def decide_tie(request, club, slug, flight, pk):
    """The director separates a tie at the qualifying line: a lot drawn here ("Draw the lot"), or the one drawn
    at the club recorded by ticking who goes on."""
    found = _flight(request, club, slug, flight)
    tie = selectors.qualifying_tie_in(flight=found, pk=pk)
    if tie is None:
        raise Http404(_("No such tie."))
    chosen = [e for e in (numbers.parse_id(v) for v in request.POST.getlist("qualified")) if e]
    attempt(
        request,
        lambda: services.decide_by_lot(actor=request.user, tie=tie, qualified=chosen or None),
        _("The tie is decided; the knockout is drawn when every tie is."),
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


@login_required
@require_POST
def pairing_seed(request, club, slug, flight):
    """The director sets the seed the rounds are paired with, before round 1 (empty: a new one at round 1)."""
    found = _flight(request, club, slug, flight)
    seed = request.POST.get("pairing_seed", "").strip()[:40] or None
    attempt(
        request,
        lambda: services.update_flight(actor=request.user, flight=found, pairing_seed=seed),
        _("Pairing seed saved: round 1 will be paired with it."),
    )
    return redirect(found)


def _director_flight(request, club, slug, flight):
    found = _flight(request, club, slug, flight)
    access.require(request.user, "event.direct", found.event)
    return found


def _posted_pairs(post, count: int) -> list[list[int | None]]:
    """The page's table rows (a_1, b_1, …) as the service's pairs; a row left empty on both sides is skipped,
    anything not a number is left to the service to refuse."""
    pairs = []
    for i in range(1, count + 1):
        a, b = post.get(f"a_{i}", ""), post.get(f"b_{i}", "")
        if not a and not b:
            continue
        # parse_id, not str.isdigit: "²" or 5000 digits pass isdigit and then int() refuses them
        pairs.append([numbers.parse_id(a) or a, numbers.parse_id(b) or (None if b == "" else b)])
    return pairs


@login_required
def edit_round(request, club, slug, flight):
    """Re-pair the current round (nobody has begun): the director sets each table's players; the preview lists
    the rematches; only "Apply" changes the round (and pairs rematches when the preview showed them)."""
    found = _director_flight(request, club, slug, flight)
    current = round_selectors.round_pairings(flight=found)
    if not current:
        messages.error(request, _("No round is paired yet."))
        return redirect(found)
    seated = sorted(
        (e for p in current for e in (p.entry_a, p.entry_b) if e is not None), key=lambda e: e.name.casefold()
    )
    rows = [{"number": i, "a": p.entry_a_id, "b": p.entry_b_id} for i, p in enumerate(current, start=1)]
    context = {"event": found.event, "flight": found, "seated": seated, "rows": rows, "preview": None}
    if request.method == "POST":
        pairs = _posted_pairs(request.POST, len(current))
        rows = [{"number": i, "a": a, "b": b} for i, (a, b) in enumerate(pairs, start=1)]
        rows += [{"number": i, "a": None, "b": None} for i in range(len(rows) + 1, len(current) + 1)]
        context["rows"] = rows
        try:
            if request.POST.get("confirm") == "1":
                services.edit_pairings(actor=request.user, flight=found, pairs=pairs, confirm=True)
                messages.success(request, _("Round %(n)s paired again.") % {"n": found.current_round})
                return redirect(found)
            context["preview"] = services.edit_pairings_preview(actor=request.user, flight=found, pairs=pairs)
        except (ValidationError, Conflict, DomainError) as exc:
            context["error"] = refusal_text(exc)
    return render(request, "tournaments/round_edit.html", context)


@login_required
def correction(request, club, slug, flight, pk):
    """Correct a table's result after later rounds were paired: the page shows what would change (the
    standings before and after, the rounds paired since, which stay as they are) and applies it only on
    "Apply"."""
    found = _director_flight(request, club, slug, flight)
    pairing = round_selectors.pairing_in(flight=found, pk=pk)
    if pairing is None or pairing.entry_b_id is None:
        raise Http404(_("No such table in this flight."))
    form = CorrectionForm(request.POST or None, pairing=pairing)
    context = {"event": found.event, "flight": found, "pairing": pairing, "form": form, "preview": None}
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            if request.POST.get("confirm") == "1":
                services.correct_result(
                    actor=request.user,
                    pairing=pairing,
                    winner_side=data["winner_side"],
                    outcome=data["outcome"],
                    scores=form.scores,
                    comment=data["comment"],
                )
                messages.success(request, _("Result corrected: the standings changed, the rounds paired stay."))
                return redirect(found)
            preview = services.correction_preview(actor=request.user, pairing=pairing, winner_side=data["winner_side"])
            context["form"] = _as_read(form, pairing)
            context["preview"] = preview
            context["changes"] = _standing_changes(preview)
            context["columns"] = [c for c in round_selectors.tiebreak_order(found) if c != "wins"]
        except (ValidationError, Conflict, DomainError) as exc:
            context["error"] = refusal_text(exc)
    return render(request, "tournaments/round_correction.html", context)


def _as_read(form, pairing):
    """The form again with the winner it was read as (the higher score, nobody for a double forfeit), so the
    radio buttons show what the preview assumed."""
    posted = form.data.copy()
    side = form.cleaned_data["winner_side"]
    posted["winner_side"] = "none" if side is None else str(side)
    again = CorrectionForm(posted, pairing=pairing)
    again.is_valid()
    return again


def _standing_changes(preview) -> list[dict]:
    """The standings after the correction, each line with its rank and wins before, so the page marks what moved."""
    before = {row.entry.pk: row.line for row in preview.before}
    return [{"row": row, "before": before.get(row.entry.pk)} for row in preview.after]
