"""Reads for match play, scoped to what the asking user may see."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import (
    Case,
    Count,
    Exists,
    F,
    IntegerField,
    OuterRef,
    Prefetch,
    Q,
    QuerySet,
    Subquery,
    Value,
    When,
    Window,
)
from django.db.models.functions import Coalesce, RowNumber

from base.compiled import CompiledRead
from base.numbers import parse_id
from clubs import access
from clubs.models import Membership, Player
from games.matchplay import hooks
from games.matchplay import state as core
from games.matchplay.services import has_directors, scoresheet_state
from games.models.matches import Match, MatchDispute, MatchGame, MatchReport, MatchStatus, invitation_cutoff


def _list_queryset() -> QuerySet[Match]:
    return Match.objects.select_related("player_a", "player_b", "winner", "club")


def visible_matches(*, user) -> QuerySet[Match]:
    """Anonymous users see public matches (of public clubs); members also see their clubs' matches; players
    always see their own. An invitation (a casual match not yet accepted) only its two players see, and nobody
    once it has expired, site staff included: until accepted it is nobody's match. `visible_match` applies the
    same rule to one match: change both."""
    matches = _list_queryset()
    invitation = Q(status=MatchStatus.INVITED)
    if not getattr(user, "is_authenticated", False):
        public = Q(is_public=True) & (Q(club__isnull=True) | Q(club__is_public=True))
        return matches.filter(public & ~invitation)
    own = Q(player_a__user=user) | Q(player_b__user=user)
    open_invitation = invitation & own & Q(invited_at__gt=invitation_cutoff())
    if access.is_site_staff(user):
        return matches.filter(~invitation | open_invitation)
    public = Q(is_public=True) & (Q(club__isnull=True) | Q(club__is_public=True))
    member = Membership.objects.filter(club=OuterRef("club"), player__user=user, is_active=True)
    return matches.filter((~invitation & (public | own | Exists(member))) | open_invitation)


# visible_match's read by id, compiled once per process (base.compiled).
_MATCH_BY_ID = CompiledRead(lambda pk: _list_queryset().filter(pk=pk)[:1])


def visible_match(*, user, pk: object) -> Match | None:
    """One match as `visible_matches(user=user).filter(pk=pk)` would find it (None when there is no such match or
    the visitor may not see it), decided on the row itself: the match is read by its id with the list's related
    rows, then visible_matches' rule is applied to it here, so the two must change together (a test holds them
    equal for every kind of visitor). Only a visitor who neither plays in it nor sees it as public is asked about
    their membership of its club, in a query of its own.

    Why: every action on one match (a report, a confirmation) built the list's OR of an EXISTS through the ORM
    and had it planned, to find the one row it names: about 1.5 ms of CPU of each request."""
    number = parse_id(pk)
    if number is None:
        return None
    match = _MATCH_BY_ID.first(number)
    if match is None:
        return None
    signed_in = getattr(user, "is_authenticated", False)
    plays_in_it = signed_in and user.pk in (match.player_a.user_id, match.player_b.user_id)
    if match.status == MatchStatus.INVITED:
        open_invitation = match.invited_at is not None and match.invited_at > invitation_cutoff()
        return match if plays_in_it and open_invitation else None
    if access.is_site_staff(user) or (match.is_public and (match.club_id is None or match.club.is_public)):
        return match
    if not signed_in:
        return None
    if plays_in_it:
        return match
    member = Membership.objects.filter(club=match.club_id, player__user=user, is_active=True)
    return match if match.club_id is not None and member.exists() else None


def match_for_detail(*, user, pk: int) -> Match:
    """One visible match with its games, reports and disputes loaded (raises Match.DoesNotExist)."""
    reports = MatchReport.objects.select_related("submitted_by", "confirmed_by", "winner").order_by("-version")
    disputes = MatchDispute.objects.select_related("raised_by", "report").order_by("-created_at")
    return (
        visible_matches(user=user)
        .prefetch_related("games", Prefetch("reports", queryset=reports), Prefetch("disputes", queryset=disputes))
        .get(pk=pk)
    )


def detail_rows(match: Match) -> tuple[list[MatchGame], list[MatchReport], list[MatchDispute]]:
    """The games, reports (newest first) and disputes of a match from `match_for_detail`, read from what it
    loaded (no further query)."""
    return list(match.games.all()), list(match.reports.all()), list(match.disputes.all())


def live_state(match: Match) -> dict:
    """The scoresheet view of the match: score, who is how many away, Crawford game / post-Crawford."""
    form = core.Form(variant=match.variant, stakes=match.stakes, progression=match.dave_progression)
    return core.describe(scoresheet_state(match, list(match.games.all())), form)


def player_matches(*, user, player: Player) -> QuerySet[Match]:
    """The player's record (their page): no invitation, not even to the two players themselves."""
    own = visible_matches(user=user).filter(Q(player_a=player) | Q(player_b=player))
    return own.exclude(status=MatchStatus.INVITED)


def director_queue(*, user) -> QuerySet[Match]:
    """Matches the user directs that wait for a decision: an open dispute, or a report nobody confirmed yet."""
    matches = _list_queryset()
    if not getattr(user, "is_authenticated", False):
        return matches.none()
    if not access.is_site_staff(user):
        directs = Membership.objects.filter(
            club=OuterRef("club"), player__user=user, is_active=True, role__in=["director", "admin"]
        )
        matches = matches.filter(Exists(directs))
    open_dispute = MatchDispute.objects.filter(match=OuterRef("pk"), resolved_at__isnull=True)
    pending = MatchReport.objects.filter(match=OuterRef("pk"), confirmed=False, retired=False)
    return (
        matches.annotate(has_dispute=Exists(open_dispute), has_pending=Exists(pending))
        .filter(Q(has_dispute=True) | Q(has_pending=True))
        .order_by("-has_dispute", "-created_at")
    )


def with_places(matches):
    """The matches, each with `place`: where it belongs (games.matchplay.hooks.MatchPlace: "Friday Swiss · Main ·
    Round 3" for a tournament match), or None for a casual or club match. One query for the whole list whatever
    its length, none when no match of it was placed by a tournament."""
    matches = list(matches)
    found = hooks.places(matches)
    for match in matches:
        match.place = found.get(match.pk)
    return matches


def directed_clubs(*, user) -> list[int]:
    """The clubs whose results this user decides (director or admin there): their "to decide" list watches those
    clubs' directors' desks (games.live). From the user's roles, which the page's rights checks load anyway."""
    return sorted(club for club, role in access.roles_of(user).items() if role in ("director", "admin"))


def match_games(match: Match) -> QuerySet[MatchGame]:
    """The match's games in play order (the model's ordering)."""
    return match.games.all()


def match_reports(match: Match) -> QuerySet[MatchReport]:
    """Every report version of the match, newest first, with who sent and who confirmed it."""
    return match.reports.select_related("submitted_by", "confirmed_by").order_by("-version")


def match_disputes(match: Match) -> QuerySet[MatchDispute]:
    """The match's disputes, newest first, with the report disputed and who raised it."""
    return match.disputes.select_related("report", "raised_by").order_by("-created_at", "-id")


def pending_reports(match: Match) -> list[MatchReport]:
    return [r for r in match.reports.all() if r.is_pending]


# --- what a player has to do next ----------------------------------------------------------------------------


def _own(user, prefix: str = "") -> Q:
    return Q(**{f"{prefix}player_a__user": user}) | Q(**{f"{prefix}player_b__user": user})


def reports_to_confirm(*, user) -> QuerySet[MatchReport]:
    """Versions waiting for this user's confirmation: pending reports of their own matches that somebody else
    submitted and nobody disputed yet, newest first. One query (the menu badge counts it on every page)."""
    if not getattr(user, "is_authenticated", False):
        return MatchReport.objects.none()
    open_dispute = MatchDispute.objects.filter(report=OuterRef("pk"), resolved_at__isnull=True)
    return (
        MatchReport.objects.filter(_own(user, "match__"), confirmed=False, retired=False)
        .exclude(submitted_by=user)
        .exclude(Exists(open_dispute))
        .select_related("match__player_a", "match__player_b", "match__club", "submitted_by", "winner")
        .order_by("-created_at", "-pk")
    )


def open_disputes(*, user) -> QuerySet[MatchDispute]:
    """Open disputes of the user's own matches: a director decides a club's match; a casual match without a
    club went back to both players to report again (services.dispute_report)."""
    if not getattr(user, "is_authenticated", False):
        return MatchDispute.objects.none()
    return (
        MatchDispute.objects.filter(_own(user, "match__"), resolved_at__isnull=True)
        .select_related("match__player_a", "match__player_b", "match__club", "report", "raised_by")
        .order_by("-created_at", "-pk")
    )


def to_confirm_count_subquery():
    """reports_to_confirm's count for the user of the outer query (accounts.backends loads it with the user)."""
    user = OuterRef("pk")
    open_dispute = MatchDispute.objects.filter(report=OuterRef("pk"), resolved_at__isnull=True)
    waiting = (
        MatchReport.objects.filter(Q(match__player_a__user=user) | Q(match__player_b__user=user))
        .filter(confirmed=False, retired=False)
        .exclude(submitted_by=user)
        .exclude(Exists(open_dispute))
        .order_by()
        .values("confirmed")
        .annotate(n=Count("pk"))
        .values("n")
    )
    return Coalesce(Subquery(waiting, output_field=IntegerField()), 0)


def to_decide_count_subquery():
    """How many open disputes wait at the clubs the user of the outer query directs (their "Results to decide"
    list; the menu shows it beside the to-confirm badge, loaded with the user like it)."""
    directs = Membership.objects.filter(
        club=OuterRef("match__club"), player__user=OuterRef(OuterRef("pk")), is_active=True,
        role__in=["director", "admin"],
    )  # fmt: skip
    disputes = (
        MatchDispute.objects.filter(resolved_at__isnull=True)
        .filter(Exists(directs))
        .order_by()
        .values("resolved_at")
        .annotate(n=Count("pk"))
        .values("n")
    )
    return Coalesce(Subquery(disputes, output_field=IntegerField()), 0)


OPEN_STATUSES = ("scheduled", "in_progress")


def my_matches(*, user) -> QuerySet[Match]:
    """The user's own matches, open ones (scheduled, in progress) first, then the newest (by when they were
    played, scheduled or created). Invitations are listed apart (`match_invitations`)."""
    return (
        _list_queryset()
        .filter(_own(user))
        .exclude(status=MatchStatus.INVITED)
        .annotate(
            is_open=Case(When(status__in=OPEN_STATUSES, then=Value(0)), default=Value(1), output_field=IntegerField()),
            played_on=Coalesce("finished_at", "started_at", "scheduled_at", "created_at"),
        )
        .order_by("is_open", "-played_on", "-id")
    )


@dataclass
class Invitations:
    """The user's open invitations to casual matches: those waiting for their answer, and those they sent."""

    received: list[Match] = field(default_factory=list)
    sent: list[Match] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.received or self.sent)


def match_invitations(*, user, limit: int = 50) -> Invitations:
    """Open (not expired) invitations of the user's own matches, newest first, split by who answers them. One
    query; the user's home page and "My matches" show them with their accept, decline or withdraw buttons."""
    if not getattr(user, "is_authenticated", False):
        return Invitations()
    rows = list(
        _list_queryset()
        .filter(_own(user), status=MatchStatus.INVITED, invited_at__gt=invitation_cutoff())
        .order_by("-invited_at", "-id")[:limit]
    )
    return _split(rows, user)


def _split(rows: list[Match], user) -> Invitations:
    return Invitations(
        received=[m for m in rows if m.user_is_invitee(user)], sent=[m for m in rows if m.user_is_inviter(user)]
    )


def my_home_matches(*, user, limit: int = 5, invitations: int = 20) -> tuple[list[Match], Invitations]:
    """What the user's home page lists of their matches, in one query: their scheduled and running matches, the
    soonest scheduled first (`has_pending` says a result was reported and waits for confirmation: then there is
    nothing to play), at most `limit`; and their open invitations (`match_invitations`), at most `invitations`.

    Each kind is ranked within itself (a window), so however many invitations come in, none pushes an open match
    off the page, nor the other way round; asking twice cost the home page a query over its bound."""
    if not getattr(user, "is_authenticated", False):
        return [], Invitations()
    pending = MatchReport.objects.filter(match=OuterRef("pk"), confirmed=False, retired=False)
    invited = Q(status=MatchStatus.INVITED)
    kind = Case(When(invited, then=Value(1)), default=Value(0), output_field=IntegerField())
    order = [F("scheduled_at").asc(nulls_last=True), F("created_at").desc(), F("id").desc()]
    rows = list(
        _list_queryset()
        .filter(_own(user))
        .filter(Q(status__in=OPEN_STATUSES) | (invited & Q(invited_at__gt=invitation_cutoff())))
        .annotate(has_pending=Exists(pending), rank=Window(RowNumber(), partition_by=[kind], order_by=order))
        .filter(rank__lte=Case(When(invited, then=Value(invitations)), default=Value(limit)))
        .order_by(*order)
    )
    waiting = sorted((m for m in rows if m.status == MatchStatus.INVITED), key=lambda m: m.invited_at, reverse=True)
    return [m for m in rows if m.status != MatchStatus.INVITED], _split(waiting, user)


def reporter_name(match: Match, report: MatchReport) -> str:
    """Who reported a version, by the player's name when a player did (the opponent knows "Anna", not "anna")."""
    if report.submitted_by_id is not None:
        if report.submitted_by_id == match.player_a.user_id:
            return match.player_a.name
        if report.submitted_by_id == match.player_b.user_id:
            return match.player_b.name
        if report.submitted_by is not None:
            return report.submitted_by.get_username()
    return "—"


@dataclass
class NextSteps:
    """What the match page's banner says to the user: a version to confirm, their own version waiting for the
    opponent, open disputes. `waiting` lists every version still waiting (the report forms hide meanwhile)."""

    to_confirm: MatchReport | None = None
    mine: MatchReport | None = None
    waiting: list[MatchReport] = field(default_factory=list)
    open_disputes: list[MatchDispute] = field(default_factory=list)
    has_confirmed: bool = False
    has_directors: bool = True


def next_steps(match: Match, *, reports: list[MatchReport], disputes: list[MatchDispute], user, can_play: bool):
    """Read from the match's already loaded reports (newest first) and disputes: no query."""
    disputed = {d.report_id for d in disputes if d.resolved_at is None}
    steps = NextSteps(
        open_disputes=[d for d in disputes if d.resolved_at is None],
        has_confirmed=any(r.confirmed for r in reports),
        has_directors=has_directors(match),
    )
    signed_in = getattr(user, "is_authenticated", False)
    for report in reports:
        report.reporter_name = reporter_name(match, report)
        report.is_disputed = report.pk in disputed
        if not report.is_pending:
            continue
        steps.waiting.append(report)
        if report.is_disputed or not signed_in:
            continue
        if report.submitted_by_id == user.pk:
            steps.mine = steps.mine or report
        elif (can_play or match.user_is_director(user)) and steps.to_confirm is None:
            steps.to_confirm = report
    return steps
