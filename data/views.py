"""The data app's pages: export downloads, the member import, calendar feeds, a person's own data and leaving,
event templates."""

import datetime
import json

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import AnonymousUser
from django.core.serializers.json import DjangoJSONEncoder
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.clickjacking import xframe_options_exempt
from django.views.decorators.http import require_GET

from base.csp import header_value as csp_header
from base.errors import Conflict, DomainError, Invalid
from base.idempotency import idempotent_page
from base.web import attempt
from clubs import access
from clubs import selectors as club_selectors
from data import event_templates, exports, feeds, imports, rating_lists, selectors, services
from tournaments import selectors as tournament_selectors
from tournaments.models import FlightFormat, FlightKind
from tournaments.views import events as tournament_event_views
from tournaments.views import rounds as tournament_round_views


@require_GET
def export(request, key: str, workbook: bool = False, **names):
    """One export as a CSV (or, `workbook`, XLSX) download: `key` picks the class, the URL's names find its
    object (404/403 as its page)."""
    found = exports.EXPORTS[key](request.user, request.GET, **names)
    return exports.xlsx_response(found) if workbook else exports.csv_response(found)


# --- the member import -----------------------------------------------------------------------------------------


def _club_for(request, slug, rule: str, message: str):
    """The URL's club if the person sees it (else 404) and `rule` lets them act on it (else 403 with `message`)."""
    club = club_selectors.visible_club(user=request.user, slug=slug)
    if club is None:
        raise Http404(_("No such club."))
    access.require(request.user, rule, club, message)
    return club


def _directed_club(request, slug):
    return _club_for(request, slug, "club.direct", _("Only a director or admin of this club can import members."))


def _sent_text(request) -> str:
    """The list pasted, or the file uploaded (read no further than the size limit), as text; refused if too big
    or not UTF-8 (base.errors.Invalid)."""
    upload = request.FILES.get("file")
    if upload is not None:
        return imports.decode(upload.read(imports.MAX_BYTES + 1))
    return imports.decode(request.POST.get("text", "").encode("utf-8"))


@login_required
def import_members(request, slug):
    """Members from a CSV file or a pasted list: a preview row by row first (what each row will do and why),
    then, once confirmed, all of it in one transaction (data.services.import_members)."""
    club = _directed_club(request, slug)
    context = {"club": club, "max_rows": imports.MAX_ROWS}
    if request.method != "POST":
        return render(request, "data/import_members.html", context)
    try:
        text = _sent_text(request)
        if request.POST.get("confirm") == "1":
            return _apply(request, club, text)
        plan = imports.plan(club=club, text=text)
    except DomainError as refusal:
        messages.error(request, str(refusal))
        context["text"] = request.POST.get("text", "")
        return render(request, "data/import_members.html", context, status=400)
    context.update(plan=plan, text=plan.text)
    return render(request, "data/import_preview.html", context)


def _apply(request, club, text):
    digest = request.POST.get("digest", "")
    try:
        plan = services.import_members(actor=request.user, club=club, text=text, digest=digest)
    except Conflict as changed:
        messages.error(request, str(changed))
        plan = imports.plan(club=club, text=text)
        context = {"club": club, "max_rows": imports.MAX_ROWS, "plan": plan, "text": plan.text}
        return render(request, "data/import_preview.html", context, status=409)
    done = plan.count(imports.CREATE) + plan.count(imports.INVITE) + plan.count(imports.UPDATE)
    messages.success(
        request,
        ngettext("Import done: %(n)s row applied.", "Import done: %(n)s rows applied.", done) % {"n": done}
        + " "
        + _("%(new)s new, %(invited)s invited, %(updated)s updated, %(same)s unchanged, %(refused)s refused.")
        % {
            "new": plan.count(imports.CREATE),
            "invited": plan.count(imports.INVITE),
            "updated": plan.count(imports.UPDATE),
            "same": plan.count(imports.UNCHANGED),
            "refused": plan.count(imports.REFUSE),
        },
    )
    return redirect(club)


# --- calendar feeds --------------------------------------------------------------------------------------------


@require_GET
def club_feed(request, slug):
    """A club's events as iCalendar: what the visitor sees, or with `?token=` what the token's person sees (a
    calendar app signs in with nothing else); a private club's is a 404 to an outsider."""
    token = request.GET.get("token", "")
    user = selectors.user_of_feed_token(token) if token else request.user
    if token and user is None:
        raise Http404(_("This calendar link was revoked or never existed."))
    club = club_selectors.visible_club(user=user, slug=slug)
    if club is None:
        raise Http404(_("No such club."))
    calendar = feeds.club_calendar(
        club=club, events=selectors.club_feed_events(club=club, user=user), absolute=request.build_absolute_uri
    )
    return feeds.ics_response(calendar, private=bool(token) or user.is_authenticated)


@require_GET
def matches_feed(request, token):
    """A person's own tables (round paired, board called) as iCalendar, found by their feed token alone."""
    user = selectors.user_of_feed_token(token)
    if user is None:
        raise Http404(_("This calendar link was revoked or never existed."))
    tables = selectors.own_tables(user=user)
    return feeds.ics_response(
        feeds.matches_calendar(user=user, tables=tables, absolute=request.build_absolute_uri), private=True
    )


@login_required
def calendar_links(request):
    """The person's calendar links to copy, and the buttons to make a new one or revoke it."""
    if request.method == "POST":
        if request.POST.get("do") == "revoke":
            services.revoke_feed_token(actor=request.user)
            messages.success(request, _("Calendar link revoked: calendars subscribed to it get nothing more."))
        else:
            services.new_feed_token(actor=request.user)
            messages.success(request, _("New calendar link made; an older one no longer works."))
        return redirect("data:calendar")
    row = selectors.feed_token_of(user=request.user)
    context = {"token": row}
    if row is not None:
        context["matches_url"] = request.build_absolute_uri(reverse("data:matches-feed", args=[row.token]))
    context["club_feeds"] = [
        (
            membership.club,
            request.build_absolute_uri(reverse("data:club-feed", args=[membership.club.slug]))
            + (f"?token={row.token}" if row is not None and not membership.club.is_public else ""),
        )
        for membership in club_selectors.own_memberships(user=request.user)
    ]
    return render(request, "data/calendar.html", context)


# --- a person's own data: download it, or leave ------------------------------------------------------------------


@login_required
def my_data(request):
    """What is stored about the person: the download link and the way out."""
    return render(request, "data/my_data.html", {})


@login_required
@require_GET
def my_data_json(request):
    """Everything stored about the person as one JSON file."""
    body = json.dumps(selectors.personal_data(user=request.user), cls=DjangoJSONEncoder, ensure_ascii=False, indent=2)
    response = HttpResponse(body.encode("utf-8"), content_type="application/json; charset=utf-8")
    stamp = timezone.localdate().isoformat()
    response["Content-Disposition"] = f'attachment; filename="my-data-{stamp}.json"'
    response["Cache-Control"] = "private, no-store"
    return response


@login_required
def leave(request):
    """Delete one's own account, confirmed with the password (data.services.leave)."""
    if request.method != "POST":
        return render(request, "data/leave.html", {})
    try:
        former = services.leave(actor=request.user, password=request.POST.get("password", ""))
    except Invalid as refusal:
        messages.error(request, str(refusal))
        return render(request, "data/leave.html", {}, status=400)
    logout(request)
    messages.success(
        request,
        _("Your account is deleted. Your results stay in the clubs' records as %(former)s.") % {"former": former},
    )
    return redirect("home")


# --- the embeddable bracket or standings -----------------------------------------------------------------------

#: The embed pages' policy: the site's own, but any site may frame them (every other page: frame-ancestors 'none').
EMBED_POLICY = {**settings.CONTENT_SECURITY_POLICY, "frame-ancestors": ["*"]}


@require_GET
@xframe_options_exempt
def embed_flight(request, club, slug, flight):
    """A flight's bracket (or, played in rounds, its current round and standings) for another site's iframe:
    read-only, what an anonymous visitor sees whoever is signed in (a private club's or event's is a 404), with
    the same live updates as the public page. The one page any site may frame."""
    event = tournament_selectors.event_for(user=AnonymousUser(), club_slug=club, slug=slug)
    found = tournament_selectors.flight_for(event=event, slug=flight) if event is not None else None
    if found is None:
        raise Http404(_("No such flight, or it is not public."))
    if found.is_round_based:
        body = tournament_round_views.public_rounds_body(found, projector=False)
    else:
        body = tournament_event_views.public_bracket_body(found, projector=False)
    context = {"event": event, "flight": found, "body": body}
    response = render(request, "data/embed.html", context)
    response["Content-Security-Policy"] = csp_header(EMBED_POLICY)
    return response


@require_GET
def embed_snippet(request, club, slug, flight):
    """The page with the iframe snippet to copy (and a preview of it)."""
    event = tournament_selectors.event_or_404(user=request.user, club_slug=club, slug=slug)
    found = tournament_selectors.flight_for(event=event, slug=flight)
    if found is None:
        raise Http404(_("No such flight."))
    url = request.build_absolute_uri(reverse("data:embed", args=[club, slug, flight]))
    public = tournament_selectors.event_for(user=AnonymousUser(), club_slug=club, slug=slug) is not None
    snippet = f'<iframe src="{url}" width="100%" height="600" loading="lazy" title="{found.name}"></iframe>'
    return render(request, "data/embed_snippet.html", {"event": event, "flight": found, "snippet": snippet,
                                                       "url": url, "public": public})  # fmt: skip


# --- event templates -------------------------------------------------------------------------------------------


def _template_club(request, slug):
    return _club_for(request, slug, "event.create", _("Only a director or admin of the club can use templates."))


def _first_day(text: str):
    """The date a date field sent (ISO), or the text as it came: the service refuses what is not a date."""
    try:
        return datetime.date.fromisoformat((text or "").strip())
    except ValueError:
        return text


@login_required
@idempotent_page
def event_templates_page(request, slug):
    """The club's event templates (GET); POST saves an event of the club as a new one (the event page's form)."""
    club = _template_club(request, slug)
    if request.method == "POST":
        event = tournament_selectors.event_or_404(user=request.user, club_slug=club.slug,
                                                  slug=request.POST.get("event", ""))  # fmt: skip
        saved = {}

        def save():
            saved["template"] = services.save_event_template(
                actor=request.user, event=event, name=request.POST.get("name", "")
            )

        if attempt(request, save, _("Template saved: start the next event from it here.")):
            return redirect("data:event-template", slug=club.slug, pk=saved["template"].pk)
        return redirect(event)
    templates = [(t, event_templates.flight_names(t.setup)) for t in selectors.club_event_templates(club=club)]
    return render(request, "data/event_templates.html", {"club": club, "templates": templates})


@login_required
@idempotent_page
def event_template_page(request, slug, pk):
    """One template: its flights, and the forms to start an event from it (a name and a first day), to rename
    it and to delete it. Another club's template is a 404 here."""
    club = _template_club(request, slug)
    template = selectors.event_template(club=club, pk=pk)
    if template is None:
        raise Http404(_("The club has no such template."))
    if request.method == "POST":
        action = request.POST.get("action", "start")
        if action == "delete":
            if attempt(request, lambda: services.delete_event_template(actor=request.user, template=template),
                       _("Template deleted.")):  # fmt: skip
                return redirect("data:event-templates", slug=club.slug)
        elif action == "rename":
            attempt(request, lambda: services.rename_event_template(actor=request.user, template=template,
                                                                    name=request.POST.get("name", "")),
                    _("Template renamed."))  # fmt: skip
        else:
            started = {}

            def start():
                started["event"] = services.start_event_from_template(
                    actor=request.user,
                    template=template,
                    name=request.POST.get("event_name", ""),
                    starts_on=_first_day(request.POST.get("starts_on", "")),
                    slug=request.POST.get("event_slug", ""),
                )

            if attempt(request, start, _("Event started from the template: add the players.")):
                return redirect(started["event"])
        return redirect("data:event-template", slug=club.slug, pk=template.pk)
    context = {
        "club": club,
        "template": template,
        "flights": _flight_lines(template.setup),
        "days": template.setup.get("event", {}).get("days", 0) + 1,
        "next_week": timezone.localdate() + datetime.timedelta(days=7),
    }
    return render(request, "data/event_template.html", context)


def _flight_lines(setup: dict) -> list[dict]:
    """A template's flights as its page lists them: name, kind and format in words, match length, entry fee."""
    lines = []
    for row in setup.get("flights", []):
        kind = FlightKind(row["kind"]).label if row.get("kind") in FlightKind.values else row.get("kind", "")
        form = FlightFormat(row["format"]).label if row.get("format") in FlightFormat.values else row.get("format")
        lines.append({"name": row.get("name", ""), "kind": kind, "format": form, "length": row.get("length"),
                      "fee": row.get("entry_fee"), "source": row.get("source") or ""})  # fmt: skip
    return lines


# --- seeding ratings from a rating list ----------------------------------------------------------------------------


@login_required
def import_seeding_ratings(request, club, slug, flight):
    """A rating list (federation id, name, rating) as the flight's seeding ratings: a preview row by row, then,
    once confirmed, all of it (data.services.import_seeding_ratings). The event's directors only."""
    event = tournament_selectors.event_or_404(user=request.user, club_slug=club, slug=slug)
    found = tournament_selectors.flight_for(event=event, slug=flight)
    if found is None:
        raise Http404(_("No such flight."))
    access.require(request.user, "event.direct", event, _("Only a director of this event can import ratings."))
    context = {"event": event, "flight": found, "max_rows": imports.MAX_ROWS}
    if request.method != "POST":
        return render(request, "data/seeding_ratings.html", context)
    try:
        text = _sent_text(request)
        if request.POST.get("confirm") == "1":
            plan = services.import_seeding_ratings(
                actor=request.user, flight=found, text=text, digest=request.POST.get("digest", "")
            )
            messages.success(
                request,
                ngettext("Seeding rating set for %(n)s entry.", "Seeding ratings set for %(n)s entries.",
                         plan.count_set) % {"n": plan.count_set},
            )  # fmt: skip
            return redirect(found)
        plan = rating_lists.plan(flight=found, text=text)
    except Conflict as changed:
        messages.error(request, str(changed))
        plan = rating_lists.plan(flight=found, text=text)
        context.update(plan=plan, text=plan.text)
        return render(request, "data/seeding_ratings_preview.html", context, status=409)
    except DomainError as refusal:
        messages.error(request, str(refusal))
        context["text"] = request.POST.get("text", "")
        return render(request, "data/seeding_ratings.html", context, status=400)
    context.update(plan=plan, text=plan.text)
    return render(request, "data/seeding_ratings_preview.html", context)
