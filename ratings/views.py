"""Pages: a player's rating with its chart and explained matches, head-to-head, club leaderboard, seasons,
ladders (an event's points: points.views)."""

from datetime import date

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from base.errors import NotAllowed
from base.web import attempt
from clubs import access
from clubs import selectors as club_selectors
from games.analysis import selectors as analysis_selectors
from ratings import selectors
from ratings.models import PointsScheme
from ratings.services import ladders as ladder_services
from ratings.services import seasons


def _club_from_query(request):
    slug = request.GET.get("club")
    if not slug:
        return None
    return get_object_or_404(club_selectors.visible_clubs(user=request.user), slug=slug)


def rating_list(request):
    scheme = request.GET.get("scheme") or PointsScheme.GAMMONPOINTS
    if scheme not in PointsScheme.values:
        scheme = PointsScheme.GAMMONPOINTS
    return render(
        request,
        "ratings/rating_list.html",
        {
            "ratings": selectors.overall_top(user=request.user),
            "points": selectors.overall_points(user=request.user, scheme=scheme),
            "scheme": scheme,
            "schemes": PointsScheme.choices,
        },
    )


def player_rating(request, pk):
    player = get_object_or_404(club_selectors.visible_players(user=request.user), pk=pk)
    club = _club_from_query(request)
    current, history = selectors.rating_and_history(player=player, club=club, user=request.user)
    opponents = {h.opponent_id: h.opponent_name for h in history}
    errors = analysis_selectors.player_error_history(player=player, user=request.user)
    return render(
        request,
        "ratings/player_rating.html",
        {
            "player": player,
            "club": club,
            "current": current,
            "history": list(reversed(history)),
            "chart": selectors.history_chart(history),
            "pools": selectors.ratings_of_player(player=player, user=request.user),
            "opponents": sorted(opponents.items(), key=lambda item: item[1]),
            "errors": errors,
            "error_chart": selectors.error_chart(errors),
        },
    )


def head_to_head(request, pk, other):
    visible = club_selectors.visible_players(user=request.user)
    player_a = get_object_or_404(visible, pk=pk)
    player_b = get_object_or_404(visible, pk=other)
    club = _club_from_query(request)
    summary = selectors.head_to_head(
        player_a=player_a, player_b=player_b, pool=selectors.pool_for(club=club), user=request.user
    )
    return render(
        request,
        "ratings/head_to_head.html",
        {"player_a": player_a, "player_b": player_b, "club": club, **summary},
    )


def leaderboard(request, slug):
    club = get_object_or_404(club_selectors.visible_clubs(user=request.user), slug=slug)
    seasons = selectors.club_seasons(club=club)
    season = None
    if request.GET.get("season"):
        season = next((s for s in seasons if str(s.pk) == request.GET["season"]), None)
        if season is None:
            raise Http404(_("This club has no such season."))
    scheme = request.GET.get("scheme") or ""
    if scheme and scheme not in PointsScheme.values:
        scheme = ""
    order = request.GET.get("order") or "points"
    if order not in selectors.LEADERBOARD_ORDERS:
        order = "points"
    return render(
        request,
        "ratings/leaderboard.html",
        {
            "club": club,
            "seasons": seasons,
            "season": season,
            "schemes": PointsScheme.choices,
            "scheme": scheme,
            "order": order,
            "standings": selectors.leaderboard(club=club, season=season, scheme=scheme or None, order=order),
            "can_direct": access.can(request.user, "club.direct", club),
            "events": selectors.events_with_points(club=club, user=request.user),
        },
    )


def _day(text: str | None) -> date | None:
    try:
        return date.fromisoformat(text) if text else None
    except ValueError:
        raise Http404(_("Give dates as YYYY-MM-DD.")) from None


def error_ranking(request, slug):
    """The club's members ranked by error rate over a season or dates (games.analysis.selectors)."""
    club = get_object_or_404(club_selectors.visible_clubs(user=request.user), slug=slug)
    seasons = selectors.club_seasons(club=club)
    season, starts_on, ends_on = None, _day(request.GET.get("from")), _day(request.GET.get("to"))
    chosen = request.GET.get("season")
    if chosen:
        season = next((s for s in seasons if str(s.pk) == chosen), None)
        if season is None:
            raise Http404(_("This club has no such season."))
    elif chosen is None and starts_on is None and ends_on is None:  # first visit: the season running today
        today = date.today()
        season = next((s for s in seasons if s.starts_on <= today <= s.ends_on), None)
    if season is not None:
        starts_on, ends_on = season.starts_on, season.ends_on
    engine, plies = None, None
    kind = request.GET.get("kind") or ""
    if kind:
        engine, _sep, number = kind.partition(":")
        if not number.isdigit():
            raise Http404(_("No such engine and ply."))
        plies = int(number)
    ranking = analysis_selectors.club_error_ranking(
        club=club, starts_on=starts_on, ends_on=ends_on, engine=engine, plies=plies
    )
    return render(
        request,
        "ratings/error_ranking.html",
        {
            "club": club,
            "seasons": seasons,
            "season": season,
            "starts_on": starts_on,
            "ends_on": ends_on,
            "ranking": ranking,
            "can_edit": access.can(request.user, "club.edit", club),
        },
    )


def _ladder(request, slug, ladder_slug):
    club = get_object_or_404(club_selectors.visible_clubs(user=request.user), slug=slug)
    return get_object_or_404(selectors.club_ladders(club=club), slug=ladder_slug)


def ladder_list(request, slug):
    club = get_object_or_404(club_selectors.visible_clubs(user=request.user), slug=slug)
    return render(request, "ratings/ladder_list.html", {"club": club, "ladders": selectors.club_ladders(club=club)})


def ladder_detail(request, slug, ladder):
    ladder = _ladder(request, slug, ladder)
    return render(request, "ratings/ladder_detail.html", selectors.ladder_page(ladder=ladder, user=request.user))


def _act(request, action, done: str) -> None:
    """base.web.attempt, but a refusal is shown on the page the form came from rather than as a 403."""
    try:
        attempt(request, action, done)
    except (PermissionDenied, NotAllowed) as error:
        messages.error(request, str(error) or _("You may not do this."))


@require_POST
def ladder_join(request, slug, ladder):
    ladder = _ladder(request, slug, ladder)
    if not request.user.is_authenticated:
        return redirect_to_login(ladder.get_absolute_url())  # back to the ladder page, not to this POST-only URL
    _act(
        request,
        lambda: ladder_services.join_ladder(actor=request.user, ladder=ladder),
        _("You are on the ladder."),
    )
    return redirect(ladder)


@require_POST
def ladder_challenge(request, slug, ladder):
    ladder = _ladder(request, slug, ladder)
    if not request.user.is_authenticated:
        return redirect_to_login(ladder.get_absolute_url())  # back to the ladder page, not to this POST-only URL
    raw = request.POST.get("defender", "")
    defender = None
    if raw.isdigit():
        defender = selectors.ladder_position(ladder=ladder, player_id=int(raw))
    if defender is None:
        messages.error(request, _("Choose a player on the ladder to challenge."))
        return redirect(ladder)
    _act(
        request,
        lambda: ladder_services.challenge(actor=request.user, ladder=ladder, defender=defender.player),
        _("Challenge sent: the match is on the club's match list."),
    )
    return redirect(ladder)


@require_POST
def season_add(request, slug):
    club = get_object_or_404(club_selectors.visible_clubs(user=request.user), slug=slug)
    try:
        starts_on = date.fromisoformat(request.POST.get("starts_on", ""))
        ends_on = date.fromisoformat(request.POST.get("ends_on", ""))
    except ValueError:
        messages.error(request, _("Give both days as dates, e.g. 2026-01-01."))
        return redirect("ratings:leaderboard", slug=club.slug)
    _act(
        request,
        lambda: seasons.create_season(
            actor=request.user, club=club, name=request.POST.get("name", ""), starts_on=starts_on, ends_on=ends_on
        ),
        _("Season added."),
    )
    return redirect("ratings:leaderboard", slug=club.slug)
