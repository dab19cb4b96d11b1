"""Reads for match play, scoped to what the asking user may see."""

from __future__ import annotations

from django.db.models import Exists, OuterRef, Prefetch, Q, QuerySet

from clubs import access
from clubs.models import Membership, Player
from games.matchplay import state as core
from games.matchplay.services import scoresheet_state
from games.models.matches import Match, MatchDispute, MatchReport


def _list_queryset() -> QuerySet[Match]:
    return Match.objects.select_related("player_a", "player_b", "winner", "club")


def visible_matches(*, user) -> QuerySet[Match]:
    """Anonymous users see public matches (of public clubs); members also see their clubs' matches; players
    always see their own."""
    matches = _list_queryset()
    if access.is_site_staff(user):
        return matches
    public = Q(is_public=True) & (Q(club__isnull=True) | Q(club__is_public=True))
    if not getattr(user, "is_authenticated", False):
        return matches.filter(public)
    member = Membership.objects.filter(club=OuterRef("club"), player__user=user, is_active=True)
    own = Q(player_a__user=user) | Q(player_b__user=user)
    return matches.filter(public | own | Exists(member))


def match_for_detail(*, user, pk: int) -> Match:
    """One visible match with its games, reports and disputes loaded (raises Match.DoesNotExist)."""
    reports = MatchReport.objects.select_related("submitted_by", "confirmed_by", "winner").order_by("-version")
    disputes = MatchDispute.objects.select_related("raised_by", "report").order_by("-created_at")
    return (
        visible_matches(user=user)
        .prefetch_related("games", Prefetch("reports", queryset=reports), Prefetch("disputes", queryset=disputes))
        .get(pk=pk)
    )


def live_state(match: Match) -> dict:
    """The scoresheet view of the match: score, who is how many away, Crawford game / post-Crawford."""
    return core.describe(scoresheet_state(match, list(match.games.all())))


def player_matches(*, user, player: Player) -> QuerySet[Match]:
    return visible_matches(user=user).filter(Q(player_a=player) | Q(player_b=player))


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


def pending_reports(match: Match) -> list[MatchReport]:
    return [r for r in match.reports.all() if r.is_pending]
