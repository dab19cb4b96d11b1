"""Web pages for match play: the list, the scoresheet at the board, the report form, my matches, and the
director's list. Views only call services and selectors."""

import uuid

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.paginator import Paginator
from django.http import Http404
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from base import panels
from base.errors import Invalid, NotAllowed
from base.idempotency import idempotent_page
from base.live import MAX_GROUPS, group_name
from base.web import attempt
from clubs import selectors as club_selectors
from games.matchplay import selectors, services
from games.matchplay.api import client_ip
from games.matchplay.forms import CommentForm, GameForm, LatenessForm, MatchForm, ReportForm
from games.models.matches import INVITATION_DAYS, Match, MatchOutcome, MatchStatus, ReportMethod, ReportSource
from games.records import selectors as record_selectors


def _match(request, pk) -> Match:
    try:
        return selectors.match_for_detail(user=request.user, pk=pk)
    except Match.DoesNotExist:
        raise Http404(_("No such match.")) from None


def match_list(request):
    matches = selectors.visible_matches(user=request.user).order_by("-created_at", "-id")
    status = request.GET.get("status")
    if status in MatchStatus.values:
        matches = matches.filter(status=status)
    page = Paginator(matches, 50).get_page(request.GET.get("page"))
    page.object_list = selectors.with_places(page.object_list)  # one query for the page's tournament matches
    return render(
        request, "games/matches/match_list.html", {"page": page, "statuses": MatchStatus.choices, "status": status}
    )


def match_detail(request, pk):
    match = _match(request, pk)
    selectors.with_places([match])  # a tournament match names its event, flight and round
    user = request.user
    games, reports, disputes = selectors.detail_rows(match)
    state = selectors.live_state(match)
    can_play = match.user_is_participant(user)
    can_direct = match.user_is_director(user)
    todo = selectors.next_steps(match, reports=reports, disputes=disputes, user=user, can_play=can_play)
    is_open = match.status in (MatchStatus.SCHEDULED, MatchStatus.IN_PROGRESS)
    invitation = match.is_invitation  # only its two players get here: nothing to play or report until accepted
    # While a version waits for confirmation the report forms stay hidden: the banner says what to do instead.
    # A finished match offers one "Correct the result" where corrections are still allowed.
    blocked = bool(todo.waiting) and not can_direct  # a director may always override
    can_report = (can_play or can_direct) and is_open and not blocked
    can_correct = (
        not is_open
        and not invitation
        and not blocked
        and (
            can_direct
            or (
                can_play
                and match.outcome != MatchOutcome.ANNULLED
                and not (todo.has_confirmed and services.later_match_started(match))
            )
        )
    )
    context = {
        "match": match,
        "invitation": invitation,
        "can_answer": invitation and match.user_is_invitee(user),
        "games": games,
        "state": state,
        "is_open": is_open,
        "reports": reports,
        "disputes": disputes,
        "todo": todo,
        "can_play": can_play,
        "can_direct": can_direct,
        "can_report": can_report,
        "can_correct": can_correct,
        # The scoresheet waits too while a version waits: the cards show the reported score instead of 0–0.
        "can_add_game": (can_play or can_direct) and is_open and not blocked,
        "reported": next((r for r in todo.waiting if r.score_a is not None), None) if is_open and not games else None,
        "game_form": GameForm(match=match, viewer=user),
        "report_form": ReportForm(
            match=match,
            records=_usable_records(request, match),
            initial={"idempotency_key": uuid.uuid4().hex},
            viewer=request.user,
        )
        if (can_report or can_correct)
        else None,
        # a version reported by a record links to it, for those who may open it (its players, its uploader)
        "record_ids": set(
            record_selectors.visible_records(user=user)
            .filter(pk__in=[r.game_record_id for r in reports if r.game_record_id])
            .values_list("pk", flat=True)
        ),
        "comment_form": CommentForm(),
        "lateness_form": LatenessForm(match=match, viewer=user),
        "can_record_lateness": can_direct and not games and is_open and not invitation,
        # what other apps say about this match (a tournament's clock rule), without games importing them
        "panels": panels.collect("match", request, match),
    }
    return render(request, "games/matches/match_detail.html", context)


def _usable_records(request, match: Match):
    """The verified game records the user may report this match with (services.reports._record_verdict decides)."""
    return record_selectors.records_for_report(user=request.user, match=match)


@require_POST
@login_required
def add_game(request, pk):
    match = _match(request, pk)
    form = GameForm(request.POST, match=match, viewer=request.user)
    if not form.is_valid():
        # a result the game does not have is named with those it has; anything else is a form sent half-filled
        wrong_kind = form.errors.get("kind")
        messages.error(
            request, " ".join(wrong_kind) if wrong_kind else _("Choose the winner, how the game ended and the cube.")
        )
    else:
        attempt(
            request,
            lambda: services.record_game(actor=request.user, match=match, **form.cleaned_data),
            _("Game added."),
        )
    return redirect(match)


@require_POST
@login_required
def undo_game(request, pk):
    match = _match(request, pk)
    attempt(request, lambda: services.undo_last_game(actor=request.user, match=match), _("Last game taken back."))
    return redirect(match)


@login_required
@idempotent_page
def report(request, pk):
    """The report form: final score, the scoresheet's games, a verified game record, or a result without play."""
    match = _match(request, pk)
    if not (match.user_is_participant(request.user) or match.user_is_director(request.user)):
        raise PermissionDenied(services.NOT_ALLOWED_TO_REPORT)
    if request.method == "POST":
        form = ReportForm(request.POST, match=match, records=_usable_records(request, match), viewer=request.user)
        if form.is_valid():
            data = form.cleaned_data
            has_score = data["score_a"] is not None and data["score_b"] is not None
            as_director = match.user_is_director(request.user) and not match.user_is_participant(request.user)
            done = attempt(
                request,
                lambda: services.submit_report(
                    actor=request.user,
                    match=match,
                    method=data["method"],
                    outcome=data["outcome"] or "played",
                    scores=(data["score_a"], data["score_b"])
                    if has_score and data["method"] != ReportMethod.GAMES
                    else None,
                    winner_side=data["winner_side"],
                    game_record_id=data["game_record"],
                    comment=data["comment"],
                    source=ReportSource.WEB,
                    ip_address=client_ip(request),
                    idempotency_key=data["idempotency_key"],
                    as_director=as_director,
                ),
                _("Result reported."),
            )
            if done:
                return redirect(match)
    else:
        form = ReportForm(
            match=match,
            records=_usable_records(request, match),
            initial={"idempotency_key": uuid.uuid4().hex},
            viewer=request.user,
        )
    return render(request, "games/matches/report_form.html", {"match": match, "form": form})


@require_POST
@login_required
@idempotent_page
def confirm(request, pk, version):
    match = _match(request, pk)
    attempt(
        request,
        lambda: services.confirm_report(actor=request.user, match=match, version=version),
        _("Result confirmed."),
    )
    return redirect(match)


@require_POST
@login_required
@idempotent_page
def dispute(request, pk, version):
    match = _match(request, pk)
    comment = request.POST.get("comment", "")
    attempt(
        request,
        lambda: services.dispute_report(actor=request.user, match=match, version=version, comment=comment),
        _("Your dispute was recorded; a director will decide.")
        if services.has_directors(match)
        else _(
            "Your dispute was recorded. Nobody directs this match, so it goes back to both of you: report the "
            "result again, and your opponent confirms it."
        ),
    )
    return redirect(match)


@require_POST
@login_required
def annul(request, pk):
    match = _match(request, pk)
    comment = request.POST.get("comment", "")
    attempt(
        request,
        lambda: services.annul_match(actor=request.user, match=match, comment=comment, ip_address=client_ip(request)),
        _("Match annulled."),
    )
    return redirect(match)


@require_POST
@login_required
def lateness(request, pk):
    match = _match(request, pk)
    form = LatenessForm(request.POST, match=match, viewer=request.user)
    if not form.is_valid():
        messages.error(request, _("Choose the late player and give the minutes (0 or more)."))
    else:
        attempt(
            request,
            lambda: services.record_lateness(actor=request.user, match=match, **form.cleaned_data),
            _("Lateness recorded."),
        )
    return redirect(match)


@login_required
def create_match(request):
    """Directors create matches at their clubs; players create casual matches they play in."""
    players = club_selectors.visible_players(user=request.user).order_by("name", "id")
    clubs = club_selectors.directed_clubs(user=request.user)
    own = club_selectors.player_for_user(request.user)
    if request.method == "POST":
        form = MatchForm(request.POST, players=players, clubs=clubs)
        if form.is_valid():
            try:
                match = services.create_match(actor=request.user, **form.cleaned_data)
            except (ValidationError, Invalid) as exc:
                messages.error(request, " ".join(exc.messages))
            except (PermissionDenied, NotAllowed) as exc:  # e.g. a club-night match with a non-member
                messages.error(request, str(exc))
            else:
                if match.is_invitation:
                    messages.success(request, _("Invitation sent: the match counts once your opponent accepts it."))
                else:
                    messages.success(request, _("Match created."))
                return redirect(match)
    else:
        form = MatchForm(players=players, clubs=clubs, initial={"player_a": own})
    return render(request, "games/matches/match_form.html", {"form": form})


@login_required
def my_matches(request):
    """The invitations to answer (or withdraw), then open matches (what is still to play or report), then the
    newest, each with its date."""
    player = club_selectors.player_for_user(request.user)
    page = Paginator(selectors.my_matches(user=request.user), 50).get_page(request.GET.get("page")) if player else None
    invitations = selectors.match_invitations(user=request.user) if player else None
    if page is not None:  # a tournament's match names its event, flight and round: one query for the page
        page.object_list = selectors.with_places(page.object_list)
    return render(
        request,
        "games/matches/my_matches.html",
        {"player": player, "page": page, "invitations": invitations, "invitation_days": INVITATION_DAYS},
    )


@require_POST
@login_required
def answer_invitation(request, pk, answer):
    """Accept or decline an invitation (the invited player), or withdraw it (the player who sent it). Back to
    where the buttons were (the home page or "My matches"); to the match itself once it is accepted."""
    match = _match(request, pk)
    if answer == "accept":
        done = attempt(
            request,
            lambda: services.accept_invitation(actor=request.user, match=match),
            _("Invitation accepted: the match is on."),
        )
        if done:
            return redirect(match)
    elif answer == "decline":
        attempt(
            request,
            lambda: services.decline_invitation(actor=request.user, match=match),
            _("Invitation declined: the match is gone."),
        )
    else:
        attempt(
            request,
            lambda: services.withdraw_invitation(actor=request.user, match=match),
            _("Invitation withdrawn: the match is gone."),
        )
    return redirect(_back(request))


def _back(request) -> str:
    """The page the buttons were on, when it is one of this site's (else "My matches")."""
    target = request.POST.get("next", "")
    if url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}, require_https=request.is_secure()):
        return target
    return reverse("games:my-matches")


@login_required
def director_queue(request):
    """The results this director decides, each naming its event, flight and round when a tournament's; the list
    refetches itself when a result of one of their clubs changes (its directors' desk, games.live)."""
    matches = selectors.with_places(selectors.director_queue(user=request.user))
    # one socket per page: the header's own group, and as many desks as fit beside it
    desks = [group_name("desk", club) for club in selectors.directed_clubs(user=request.user)[: MAX_GROUPS - 1]]
    return render(request, "games/matches/director_queue.html", {"matches": matches, "live_groups": desks})


def player_panel(request, player):
    """Recent matches on a player's page (registered by the games app's config)."""
    matches = list(selectors.player_matches(user=request.user, player=player).order_by("-created_at", "-id")[:10])
    if not matches:
        return None
    return render_to_string("games/matches/player_panel.html", {"player": player, "matches": matches}, request=request)
