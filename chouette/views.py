"""Web pages for chouette: the history of sessions, a new table, the live table a phone at the board drives
(it polls a small JSON state and swaps in fresh HTML when another phone changes something), corrections, and
the settlement page. Views only call services and selectors."""

import hashlib
import json
import uuid

import segno
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.paginator import Paginator
from django.db import DatabaseError
from django.http import Http404, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from base import idempotency
from base.errors import DomainError
from base.idempotency import idempotent_page
from base.locks import BUSY_MESSAGE, is_busy
from base.web import attempt, refusal_text, settle_up_step
from chouette import entries, selectors, services
from chouette import permissions as access
from chouette.core.order import due_to_roll
from chouette.core.table_options import Rules
from chouette.forms import KIND_CHOICES, OWN_RESULT_CHOICES, JoinCodeForm, SessionForm
from chouette.models import ChouetteSession, RequestStatus, SessionStatus
from chouette.templatetags.chouette_tags import points as points_text
from clubs import access as club_access
from clubs import names as club_names
from clubs import paycodes
from clubs import selectors as club_selectors


def _session(request, slug, pk) -> ChouetteSession:
    try:
        return selectors.session_for_detail(user=request.user, slug=slug, pk=pk)
    except ChouetteSession.DoesNotExist:
        raise Http404(_("No such chouette session.")) from None


def _int(value):
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def session_list(request):
    """The history of sessions at the clubs the visitor can see."""
    sessions = selectors.visible_sessions(user=request.user).order_by("-created_at", "-id")
    club = request.GET.get("club")
    if club:
        sessions = sessions.filter(club__slug=club)
    page = Paginator(sessions, 30).get_page(request.GET.get("page"))
    my_clubs = selectors.clubs_to_start_at(user=request.user)
    requests = list(selectors.requests_for(user=request.user)[:20])
    return render(request, "chouette/session_list.html", {"page": page, "my_clubs": my_clubs, "requests": requests})


@login_required
def session_create(request, slug):
    """A new table. A director seats players at once (and may set the order); a member sits down themselves and
    invites the others, who accept on their own phones (services.joining)."""
    club = get_object_or_404(club_selectors.visible_clubs(user=request.user), slug=slug)
    club_access.require(request.user, "chouette.start", club)
    seats_others = access.directs(request.user, club)
    form = SessionForm(
        request.POST or None,
        players=selectors.seatable_players(user=request.user, club=club),
        invitees=selectors.club_members_to_invite(user=request.user, club=club),
        seats_others=seats_others,
    )
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        chosen = list(data.get("players") or [])
        stakes = {p.pk: _int(request.POST.get(f"stake_{p.pk}")) for p in chosen}
        stakes = {pid: value for pid, value in stakes.items() if value is not None}
        session = None

        def create():
            nonlocal session
            session = services.create_session(
                actor=request.user,
                club=club,
                players=chosen,
                invite=list(data.get("invite") or []),
                stake_cents=data["stake_cents"],
                stakes=stakes,
                rules=form.rules(),
                name=data["name"],
                order=[p.pk for p in chosen] if data.get("order_by") == "hand" else None,
                stake_form=data["stake_form"],
                dave_progression=data["dave_progression"],
            )

        if attempt(request, create, _("The table is open.")):
            return redirect(session)
    return render(request, "chouette/session_form.html", {"club": club, "form": form, "seats_others": seats_others})


def _team_rows(team, names, initial=None) -> list[dict]:
    initial = initial or {}
    return [
        {
            "pid": pid,
            "name": names.get(pid, ""),
            "steps": initial.get(f"cube_{pid}", ""),
            "result": initial.get(f"result_{pid}", ""),
            "dave_stake": initial.get(f"dave_{pid}", 1),
            "gave_up": initial.get(f"gave_up_{pid}", ""),
            "deal": initial.get(f"deal_{pid}", ""),
        }
        for pid in team
    ]


def _rotation_preview(order, names) -> dict:
    """Who sits where next, both ways, so the table sees the rotation before entering the game (the usual case:
    the captain plays the game out; a dropped captain goes to the bottom whatever happens)."""
    named = [names.get(pid, "") for pid in order]
    if len(named) < 2:
        return {}
    return {
        "box": named[0],
        "captain": named[1],
        "crew": ", ".join(named[2:]),
        "next": named[2] if len(named) > 2 else named[0],
    }


def _last_rotation(session, names, games, can_edit) -> dict | None:
    """The last game's points and who was box and captain before and after it: the "after" half of the rotation,
    shown where the next game is entered, with its correction one tap away (read from the ledger lines already
    loaded, so the live table costs no extra query)."""
    if not session.games_played or not games or games[0]["number"] != session.games_played:
        return None
    lines = games[0]["lines"]
    roles = {line.role: names.get(line.player_id, line.player.public_name_at(session.club)) for line in lines}
    order = list(session.order)
    return {
        "number": session.games_played,
        "points": " · ".join(
            f"{names.get(line.player_id, line.player.public_name_at(session.club))} {points_text(line.points)}"
            for line in lines
        ),
        "box_before": roles.get("box", ""),
        "captain_before": roles.get("captain", ""),
        "box_after": names.get(order[0], "") if order else "",
        "captain_after": names.get(order[1], "") if len(order) > 1 else "",
        "editable": can_edit,
    }


def _table_context(request, session) -> dict:
    standings = selectors.standings(session)
    # the names as this viewer sees them (a display name where the club allows it: clubs.names)
    names = {
        row["player"].pk: club_names.shown_name(row["player"], viewer=request.user, club=session.club)
        for row in standings
    }
    rules = Rules.from_dict(session.rules)
    seated = [row for row in standings if row["position"] is not None]
    can_play = access.may_play(request.user, session)
    games = selectors.game_rows(session, last=20)
    is_open = session.status == SessionStatus.OPEN
    context = {
        "session": session,
        "rules": rules,
        "standings": standings,
        "seated": seated,
        "games": games,
        "cash_outs": list(selectors.cash_outs(session)),
        "can_play": can_play,
        "show_money": access.may_see_money(request.user, session),
        "is_open": is_open,
        "own_result_choices": OWN_RESULT_CHOICES,
        "kind_choices": KIND_CHOICES,
        "idempotency_key": uuid.uuid4().hex,
        "partner_allowed": rules.partner_allowed(len(seated)),
        "partner_needed": rules.partner_needed(len(seated)),
        "sitting_out": [row for row in standings if row["seat"].status == "sitting_out"],
        "others": [],
        "team": _team_rows(session.order[1:], names),
        "initial": {"kind": "single"},
        "preview": _rotation_preview(session.order, names),
        # the seating this form is for, for the phone's offline queue (static/chouette/offline.js) to work out the
        # next game's from, with no request of its own that going offline could cut short
        "seating": json.dumps(
            {
                "games_played": session.games_played,
                "order": [str(pid) for pid in session.order],
                "names": {str(pid): name for pid, name in names.items()},
            }
        ),
        "last_rotation": _last_rotation(session, names, games, can_play and is_open) if is_open else None,
    }
    if session.status == SessionStatus.SEATING:
        rolls = {row["player"].pk: list(row["seat"].rolls) for row in standings}
        context["due_to_roll"] = [(pid, names[pid]) for pid in due_to_roll(rolls)]
    if session.status != SessionStatus.FINISHED:
        context["others"] = selectors.members_to_seat(session, user=request.user)
    return context


def session_detail(request, slug, pk):
    """The live table."""
    session = _session(request, slug, pk)
    context = {**_table_context(request, session), **joining_context(request, session)}
    return render(request, "chouette/session_detail.html", context)


def session_fragment(request, slug, pk):
    """The live part of the table page, for the poller to swap in without a reload."""
    session = _session(request, slug, pk)
    html = render_to_string("chouette/_live.html", _table_context(request, session), request=request)
    return JsonResponse({"revision": session.revision, "html": html})


def session_state(request, slug, pk):
    """The small JSON a phone polls every few seconds."""
    session = _session(request, slug, pk)
    return JsonResponse(
        selectors.live_state(session, show_money=access.may_see_money(request.user, session), viewer=request.user)
    )


@require_POST
@login_required
@idempotent_page
def add_game(request, slug, pk):
    session = _session(request, slug, pk)
    team = list(session.order[1:])

    def enter():
        return services.record_game(
            actor=request.user,
            session=session,
            game=entries.entry_from_form(request.POST, team),
            expected_number=_int(request.POST.get("expected_number")),
            idempotency_key=(request.POST.get("idempotency_key") or "")[:80],
        )

    if request.headers.get("Accept") == "application/json":
        return _queued_game_answer(request, session, enter)
    attempt(request, enter, _("Game entered."))
    return redirect(session)


def _queued_game_answer(request, session, enter) -> JsonResponse:
    """The same form sent by the phone's queue (static/chouette/offline.js) answers in JSON, so the phone can tell
    "entered" (200: the number, also for a retry with the same key) from "refused" (400/403/404/409: the reason,
    shown beside the kept entry) from "try again later" (503 busy; a lost connection never reaches here). A
    refusal wrote nothing (its key is not kept). The success message also goes into the page's messages, as the
    plain form's does, for the page the phone reloads after its queue is sent."""
    try:
        event, _created = enter()
    except DomainError as exc:
        idempotency.refused(request)
        return JsonResponse({"code": exc.code, "detail": refusal_text(exc)}, status=exc.status_code)
    except ValidationError as exc:
        idempotency.refused(request)
        return JsonResponse({"code": "invalid", "detail": refusal_text(exc)}, status=400)
    except PermissionDenied as exc:  # no longer a player here: not worth sending again
        idempotency.refused(request)
        return JsonResponse({"code": "not_allowed", "detail": str(exc)}, status=403)
    except DatabaseError as exc:
        if not is_busy(exc):
            raise
        idempotency.refused(request)
        return JsonResponse({"code": "busy", "detail": str(BUSY_MESSAGE)}, status=503, headers={"Retry-After": "2"})
    return JsonResponse({"number": event.game_number, "message": _("Game entered.")})


@login_required
@idempotent_page
def undo_game(request, slug, pk):
    """Take back the last game, in two steps: this page says which game and what leaves the ledger (points per
    player), then its "Yes, take back" (a POST with `confirm`) does it. A POST without `confirm` (an old page, a
    script) shows the page too: a stray tap never takes a game back, with or without JavaScript."""
    session = _session(request, slug, pk)
    access.require_play(request.user, session)
    data = request.POST if request.method == "POST" else request.GET
    expected = _int(data.get("expected_number"))
    confirmed = request.method == "POST" and data.get("confirm")
    if confirmed and attempt(
        request,
        lambda: services.undo_last_game(actor=request.user, session=session, expected_number=expected),
        _("Game %(n)s taken back.") % {"n": expected} if expected else _("Last game taken back."),
    ):
        return redirect(session)
    found = selectors.last_game(session) if session.status == SessionStatus.OPEN else None
    refusal = ""
    if found is None:
        refusal = _("There is no game to take back while the session is open.")
    elif expected is not None and expected != found["number"]:
        refusal = _(
            "Game %(expected)s is not the last game (the last is game %(n)s): only the last game can be taken back. "
            "Correct game %(expected)s instead; the correction shows what changes before it is saved."
        ) % {"expected": expected, "n": found["number"]}
    elif not access.may_take_back(request.user, found["take_back"]):
        refusal = _(
            "Only %(entered)s (who entered game %(n)s), %(box)s (the box of that game) or a club director can take "
            "it back. Ask one of them, or correct game %(n)s instead."
        ) % {"entered": found["entered_by"], "box": found["box"], "n": found["number"]}
    context = {
        "session": session,
        "found": found,
        "correct_number": expected if refusal and expected else (found["number"] if found else None),
        "refusal": refusal,
        "show_money": access.may_see_money(request.user, session),
    }
    return render(request, "chouette/take_back.html", context)


@login_required
def correct_game(request, slug, pk, number):
    session = _session(request, slug, pk)
    access.require_play(request.user, session)
    event = selectors.current_game(session, number)
    if event is None:
        raise Http404(_("No such game."))
    order = selectors.seating_before(session, number)
    if request.method == "POST":
        done = attempt(
            request,
            lambda: services.correct_game(
                actor=request.user,
                session=session,
                number=number,
                game=entries.entry_from_form(request.POST, order[1:]),
                reason=request.POST.get("reason", ""),
            ),
            _("Game %(n)s corrected; the games after it were replayed.") % {"n": number},
        )
        if done:
            return redirect(session)
    names = selectors.seat_names(session)
    initial = entries.form_from_payload(event.payload)
    context = {
        "session": session,
        "number": number,
        "event": event,
        "box": (order[0], names.get(order[0])),
        "team": _team_rows(order[1:], names, initial),
        "initial": initial,
        "own_result_choices": OWN_RESULT_CHOICES,
        "has_own_results": any(key.startswith("result_") for key in initial),
        # the stored game had cube action or a deal: show it open, as it will be saved
        "cube_open": any(key.startswith(("cube_", "deal_")) and initial[key] != "" for key in initial),
        "kind_choices": KIND_CHOICES,
        "rules": Rules.from_dict(session.rules),
    }
    return render(request, "chouette/correct_game.html", context)


@require_POST
@login_required
def seat_action(request, slug, pk):
    session = _session(request, slug, pk)
    player = selectors.club_player(club=session.club, player_id=_int(request.POST.get("player")))
    action = request.POST.get("action", "join")
    if player is None:
        messages.error(request, _("Choose a member of this club."))
        return redirect(session)
    calls = {
        "join": (
            lambda: services.join(
                actor=request.user, session=session, player=player, stake_cents=_int(request.POST.get("stake_cents"))
            ),
            _("%(name)s sits down."),
        ),
        "sit_out": (
            lambda: services.sit_out(actor=request.user, session=session, player=player),
            _("%(name)s sits out."),
        ),
        "come_back": (
            lambda: services.come_back(actor=request.user, session=session, player=player),
            _("%(name)s is back at the table."),
        ),
        "leave": (
            lambda: services.leave(actor=request.user, session=session, player=player),
            _("%(name)s left and was cashed out."),
        ),
    }
    if action not in calls:
        messages.error(request, _("Choose join, sit out, come back or leave."))
        return redirect(session)
    call, success = calls[action]
    attempt(request, call, success % {"name": player.name})
    return redirect(session)


@require_POST
@login_required
def set_order(request, slug, pk):
    """The starting order: one round of dice, or the order by hand."""
    session = _session(request, slug, pk)
    if request.POST.get("by") == "hand":
        order = [_int(v) for v in request.POST.getlist("order")]
        attempt(
            request,
            lambda: services.set_order(actor=request.user, session=session, order=[p for p in order if p]),
            _("The order is set; play!"),
        )
        return redirect(session)
    rolls = {}
    for key, value in request.POST.items():
        if key.startswith("roll_") and value.strip():
            player, roll = _int(key[5:]), _int(value)
            if player is None or roll is None:
                messages.error(request, _("A roll is a number from 1 to 12 (one die or both)."))
                return redirect(session)
            rolls[player] = roll
    attempt(
        request, lambda: services.roll_for_order(actor=request.user, session=session, rolls=rolls), _("Rolls noted.")
    )
    return redirect(session)


@require_POST
@login_required
def finish(request, slug, pk):
    session = _session(request, slug, pk)
    if attempt(request, lambda: services.finish_session(actor=request.user, session=session), _("Settled.")):
        return redirect("chouette:session-settlement", slug=slug, pk=pk)
    return redirect(session)


def settlement(request, slug, pk):
    """Totals, cash-outs and settlement transfers, the games and the audit trail: for the players of the table
    and the club's directors only (it is all about money)."""
    session = _session(request, slug, pk)
    if not access.may_see_money(request.user, session):
        raise PermissionDenied(_("Only the players of this table and the club's directors see its money."))
    transfers = selectors.settlement(session)
    return render(
        request,
        "chouette/settlement.html",
        {
            "session": session,
            "standings": selectors.standings(session),
            "transfers": transfers,
            "transfer_rows": _with_codes(transfers, *transfer_codes(request.user, session, transfers)),
            "mine": _own_player_id(request.user),
            "directs": club_access.is_director(request.user, session.club),
            "open_transfers": [t for t in transfers if t.confirmed_at is None],
            "games": selectors.game_rows(session),
            "history": selectors.history(session),
        },
    )


def _with_codes(transfers, codes: dict, links: dict) -> list[tuple]:
    return [(t, codes.get(t.pk), links.get(t.pk)) for t in transfers]


def _own_player_id(user) -> int | None:
    own = club_access.player_of(user)
    return own.pk if own is not None else None


def transfer_codes(user, session, transfers) -> tuple[dict, dict]:
    """A GiroCode for each open transfer the viewer pays, receives or (as a club director) oversees, when the payee
    has stored their bank account; nobody else sees a payee's IBAN. And a payment link from the payee's stored
    handle for each the viewer pays, to the payer only. One query, none without such transfers."""
    own = _own_player_id(user)
    directs = club_access.is_director(user, session.club)
    shown = [t for t in transfers if t.paid_at is None and (directs or own in (t.payer_id, t.payee_id))]
    if not shown:
        return {}, {}
    accounts = club_selectors.bank_accounts(player_ids={t.payee_id for t in shown})
    text = _("Chouette %(table)s, %(date)s") % {"table": session, "date": session.created_at.date().isoformat()}
    codes, links = {}, {}
    for t in shown:
        account = accounts.get(t.payee_id)
        code = paycodes.transfer_code(account, t.cents, text, session.currency)
        if code is not None:
            codes[t.pk] = code
        link = paycodes.pay_link(account, t.cents, session.currency) if own == t.payer_id else None
        if link is not None:
            links[t.pk] = link
    return codes, links


@login_required
@require_POST
@idempotent_page
def settle_transfer(request, slug, pk, transfer, step):
    """The payer marks a transfer paid; the payee confirms it arrived."""
    session = _session(request, slug, pk)
    settle_up_step(
        request,
        step,
        paid=services.mark_transfer_paid,
        received=services.confirm_transfer_received,
        actor=request.user,
        session=session,
        transfer_id=transfer,
    )
    return redirect("chouette:session-settlement", slug=slug, pk=pk)


# --- opening and joining a table: join code and QR, invitations, join requests --------------------------------


def _join_url(request, code: str) -> str:
    return request.build_absolute_uri(reverse("chouette:join-code", kwargs={"code": code}))


def joining_context(request, session) -> dict:
    """The table page's joining panel: the code and its QR for whoever may invite, the invitations and join
    requests waiting (approve/refuse for the opener and the club's directors), the viewer's own invitation."""
    if session.status == SessionStatus.FINISHED:
        return {"joining": None}
    pending = selectors.pending_requests(session)
    may_invite = access.may_invite(request.user, session)
    mine = next((r for r in pending if r.player.user_id == request.user.pk), None)
    context = {
        "pending": pending,
        "may_invite": may_invite,
        "may_approve": access.may_approve(request.user, session),
        "my_request": mine,
        "code": None,
        "qr": "",
        "to_invite": [],
    }
    if may_invite and session.join_code:
        url = _join_url(request, session.join_code)
        title = _("Join code %(code)s") % {"code": session.join_code}
        context.update(
            code=session.join_code,
            join_url=url,
            qr=mark_safe(segno.make(url, error="m").svg_inline(scale=4, title=title, light="#fff")),  # noqa: S308 - segno's own SVG
            to_invite=selectors.members_to_invite(session, user=request.user),
        )
    return {"joining": context}


@require_POST
@login_required
@idempotent_page
def invite(request, slug, pk):
    """Someone at the table (or a director) invites members; each accepts on their own phone."""
    session = _session(request, slug, pk)
    ids = [i for i in (_int(v) for v in request.POST.getlist("players")[:20]) if i is not None]
    players = list(selectors.active_members(club=session.club).filter(pk__in=ids))
    if len(players) != len(set(ids)) or not players:
        messages.error(request, _("Choose members of this club to invite."))
        return redirect(session)
    names = ", ".join(p.name for p in players)
    attempt(
        request,
        lambda: services.invite(actor=request.user, session=session, players=players),
        _("Invited: %(names)s. Each one accepts on their own phone (a director's walk-ins sit down at once).")
        % {"names": names},
    )
    return redirect(session)


# answer -> (the service, its yes/no argument, whether it is yes, the message), translated when shown.
ANSWERS = {
    "accept": (services.answer_invitation, "accept", True, gettext_lazy("You sit at the table.")),
    "decline": (services.answer_invitation, "accept", False, gettext_lazy("You declined the invitation.")),
    "approve": (services.answer_join_request, "approve", True, gettext_lazy("%(name)s sits at the table.")),
    "refuse": (services.answer_join_request, "approve", False, gettext_lazy("%(name)s's request was refused.")),
}


@require_POST
@login_required
@idempotent_page
def answer_request(request, pk, answer):
    """One tap: accept or decline an invitation (the invited player), approve or refuse a join request (the
    table's opener or a director of the club)."""
    found = selectors.request_for(user=request.user, pk=pk)
    if found is None or answer not in ANSWERS:
        raise Http404(_("No such invitation or join request."))
    call, argument, yes, success = ANSWERS[answer]
    attempt(
        request,
        lambda: call(actor=request.user, request=found, **{argument: yes}),
        str(success) % {"name": found.player.name} if "%(name)s" in str(success) else str(success),
    )
    if answer == "decline":
        return redirect("chouette:session-list")
    return redirect(found.session)


@login_required
@idempotent_page
def join_by_code(request, code=""):
    """Ask for a seat at a table by its code (typed, or the link its QR code carries): the table's opener or a
    director approves. Sign-in only; every refusal for a code that names no table the user may join reads the
    same, and too many of them in a row stop the guessing for a while (services.joining)."""
    form = JoinCodeForm(request.POST or None, initial={"code": code})
    if request.method == "POST" and form.is_valid():
        try:
            row, _new = services.join_by_code(actor=request.user, code=form.cleaned_data["code"])
        except DomainError as exc:
            idempotency.refused(request)
            messages.error(request, refusal_text(exc))
        else:
            if row.status == RequestStatus.ACCEPTED:
                messages.success(request, _("You were invited already: you sit at the table."))
            else:
                messages.success(
                    request,
                    _("You asked to join %(table)s; the player who opened it or a director lets you sit down.")
                    % {"table": row.session},
                )
            return redirect(row.session)
    return render(request, "chouette/join.html", {"form": form})


#: What the live table page loads, kept on the phone by the service worker so a reload offline still works.
OFFLINE_ASSETS = (
    "css/site.css",
    "js/site.js",
    "js/live.js",
    "chouette/chouette.css",
    "chouette/live.js",
    "chouette/entry.js",
    "chouette/offline.js",
    "favicon.svg",
    "chouette/icons/icon-192.png",
)


def service_worker(request):
    """The service worker that keeps the live table usable offline (static/chouette/offline.js registers it).
    Served from the site's root, not /static/, so its scope covers the table pages and it sees the sign-in and
    sign-out posts (on which it empties its page cache). Rendered, so it names the assets' current (hashed)
    URLs: a new release changes its text, and the browser then installs the new worker. Never cached by HTTP."""
    assets = [static(name) for name in OFFLINE_ASSETS]
    context = {
        "version": hashlib.sha256(" ".join(assets).encode()).hexdigest()[:16],
        "assets": json.dumps(assets),
        "sign_in_out": json.dumps([reverse("login"), reverse("logout")]),
    }
    response = render(request, "chouette/sw.js", context, content_type="text/javascript; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    response["Service-Worker-Allowed"] = "/"
    return response


def manifest(request):
    """The web app manifest: the site installs as an app on a phone's home screen, opening at the chouette
    tables (the page most used at a board)."""
    data = {
        "name": _("Backgammon club"),
        "short_name": _("Backgammon"),
        "start_url": reverse("chouette:session-list"),
        "scope": "/",
        "display": "standalone",
        "background_color": "#ffffff",
        "theme_color": "#0b5d3b",
        "icons": [
            {"src": static("chouette/icons/icon-192.png"), "sizes": "192x192", "type": "image/png"},
            {"src": static("chouette/icons/icon-512.png"), "sizes": "512x512", "type": "image/png"},
            {"src": static("favicon.svg"), "sizes": "any", "type": "image/svg+xml"},
        ],
    }
    response = JsonResponse(data, content_type="application/manifest+json", json_dumps_params={"ensure_ascii": False})
    response["Cache-Control"] = "public, max-age=3600"
    return response
