"""Reads for ratings, standings and ladders."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.db.models import Count, Q, QuerySet, Sum
from django.utils import timezone
from django.utils.formats import date_format

from clubs import access, names
from clubs import selectors as club_selectors
from clubs.models import Membership
from games.models.variants import GameVariant
from ratings.core import chart
from ratings.core.chart import Chart
from ratings.core.fibs import START_RATING
from ratings.models import (
    ChallengeStatus,
    ClubSeason,
    EventPoints,
    Ladder,
    LadderChallenge,
    LadderPosition,
    PlayerRating,
    PointsAward,
    PointsScheme,
    RatedMatch,
    RatingPool,
)


def player_ratings(*, player_ids: Iterable[int], club_id: int | None = None) -> dict[int, float]:
    """Each player's current FIBS rating in the overall pool (club_id None) or that club's pool; START_RATING (1500) for
    a player with no rated match there. One query whatever the number of players."""
    ids = list(player_ids)
    result = dict.fromkeys(ids, START_RATING)
    if not ids:
        return result
    rows = PlayerRating.objects.filter(player_id__in=ids, pool__variant=GameVariant.STANDARD)
    rows = rows.filter(pool__club__isnull=True) if club_id is None else rows.filter(pool__club_id=club_id)
    result.update(rows.values_list("player_id", "rating"))
    return result


def ratings_of_player(*, player, user) -> list[PlayerRating]:
    """The player's rating in every pool they have played in that the user may see: overall first, then the
    clubs by name (a private club's pool only for its members)."""
    visible = Q(pool__club__isnull=True) | Q(pool__club__in=club_selectors.visible_clubs(user=user))
    rows = PlayerRating.objects.filter(visible, player=player).select_related("pool__club")
    return sorted(
        rows,
        key=lambda r: (r.pool.club_id is not None, r.pool.club.name if r.pool.club_id else "", r.pool.variant),
    )


def club_top_ratings(*, club, limit: int = 5) -> list[PlayerRating]:
    return list(
        PlayerRating.objects.filter(pool__club=club, pool__variant=GameVariant.STANDARD)
        .select_related("player", "pool__club")
        .order_by("-rating", "player__name")[:limit]
    )


# --- a player's history ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class HistoryRow:
    """One rated match seen from one player's side, with what explains the change."""

    row: RatedMatch
    won: bool
    opponent_id: int
    opponent_name: str
    rating_before: float
    opponent_rating: float
    experience_before: int
    k: float
    change: float
    rating_after: float
    win_probability: float  # this player's chance before the match

    @property
    def match_id(self) -> int:
        return self.row.match_id


def pool_for(*, club=None, variant: str = GameVariant.STANDARD) -> RatingPool | None:
    """The overall pool (club None) or the club's, of one variant (the standard one by default)."""
    pools = RatingPool.objects.filter(variant=variant)
    pools = pools.filter(club__isnull=True) if club is None else pools.filter(club=club)
    return pools.first()


def _visible_rows(rows, user):
    """Rows of public matches at clubs the user can see (or at no club), plus the viewer's own matches."""
    if access.is_site_staff(user):
        return rows
    in_visible_club = Q(match__club__isnull=True) | Q(match__club__in=club_selectors.visible_clubs(user=user))
    visible = Q(match__is_public=True) & in_visible_club
    own = club_selectors.player_for_user(user)
    if own is not None:
        visible |= Q(winner=own) | Q(loser=own)
    return rows.filter(visible)


def rating_history(*, player, pool: RatingPool | None, user) -> list[HistoryRow]:
    if pool is None:
        return []
    rows = (
        RatedMatch.objects.filter(Q(winner=player) | Q(loser=player), pool=pool)
        .select_related("winner", "loser", "match")
        .order_by("played_at", "match_id")
    )
    history = []
    shown: dict[int, str] = {}  # the opponent's name as the viewer sees it (clubs.names), once per opponent

    def name_of(opponent) -> str:
        if not opponent.display_name:
            return opponent.name  # no club to read
        if opponent.pk not in shown:
            club = pool.club if pool.club_id is not None else None
            shown[opponent.pk] = names.shown_name(opponent, viewer=user, club=club)
        return shown[opponent.pk]

    for row in _visible_rows(rows, user):
        won = row.winner_id == player.pk
        p_win = row.win_probability if won else 1.0 - row.win_probability
        if won:
            values = (row.loser_id, name_of(row.loser), row.winner_rating, row.loser_rating, row.winner_experience)
            k, change = row.winner_k, row.winner_change
        else:
            values = (row.winner_id, name_of(row.winner), row.loser_rating, row.winner_rating, row.loser_experience)
            k, change = row.loser_k, row.loser_change
        opponent_id, opponent_name, before, opponent_rating, experience = values
        history.append(
            HistoryRow(row, won, opponent_id, opponent_name, before, opponent_rating, experience, k, change,
                       before + change, p_win)
        )  # fmt: skip
    return history


def rating_and_history(*, player, club, user) -> tuple[float, list[HistoryRow]]:
    """The player's current rating in the club's pool (overall when club is None) and the rated matches there
    the user may see, oldest first: what the rating page and the API show."""
    history = rating_history(player=player, pool=pool_for(club=club), user=user)
    rating = player_ratings(player_ids=[player.pk], club_id=club.pk if club else None)[player.pk]
    return rating, history


def history_chart(history: list[HistoryRow]) -> Chart | None:
    """The rating chart, its dates labelled in the page's language with the site's one date format (they were
    German "08.09." on every page)."""
    local = timezone.get_current_timezone()
    return chart.history_chart(
        [(date_format(h.row.played_at.astimezone(local).date(), "DATE_FORMAT"), h.rating_after) for h in history]
    )


def error_chart(errors) -> Chart | None:
    """The running error rate after each analysed match (games.analysis.selectors.ErrorHistory, newest first),
    oldest on the left, as the rating chart draws it: no start value, the axis from 0 up when the rates are low."""
    if errors is None:
        return None
    local = timezone.get_current_timezone()
    values = [
        (date_format(row.analysis.finished_at.astimezone(local).date(), "DATE_FORMAT"), running)
        for row, running in reversed(errors.rows)
        if row.analysis.finished_at is not None
    ]
    return chart.history_chart(values, start=None, min_span=4)


def head_to_head(*, player_a, player_b, pool: RatingPool | None, user) -> dict:
    """The rated matches between two players in a pool, with wins and the rating points that changed hands."""
    if pool is None:
        rows = []
    else:
        pair = (Q(winner=player_a) & Q(loser=player_b)) | (Q(winner=player_b) & Q(loser=player_a))
        rows = list(_visible_rows(RatedMatch.objects.filter(pair, pool=pool), user).order_by("-played_at", "-match_id"))
    wins_a = sum(1 for r in rows if r.winner_id == player_a.pk)
    net_a = sum(r.winner_change if r.winner_id == player_a.pk else r.loser_change for r in rows)
    return {
        "rows": rows,
        "wins_a": wins_a,
        "wins_b": len(rows) - wins_a,
        "net_rating_a": net_a,
        "ratings": player_ratings(
            player_ids=[player_a.pk, player_b.pk], club_id=None if pool is None else pool.club_id
        ),
    }


# --- leaderboard -------------------------------------------------------------------------------------------


@dataclass
class Standing:
    player: object
    rating: float = START_RATING
    points: float = 0.0
    matches: int = 0
    wins: int = 0
    events: int = 0

    @property
    def win_share(self) -> float | None:
        return self.wins / self.matches if self.matches else None


#: The points schemes a leaderboard can be limited to (its page's and its export's `?scheme=`).
POINTS_SCHEMES = frozenset(PointsScheme.values)

LEADERBOARD_ORDERS = {
    "points": lambda s: (-s.points, -s.rating, s.player.name),
    "rating": lambda s: (-s.rating, s.player.name),
    "matches": lambda s: (-s.matches, -s.rating, s.player.name),
    "win_share": lambda s: (-(s.win_share or 0), -s.matches, s.player.name),
}


def club_seasons(*, club) -> list[ClubSeason]:
    return list(ClubSeason.objects.filter(club=club))


def club_season(*, club, pk: int) -> ClubSeason | None:
    """The club's season `pk`, None for another club's or none."""
    return ClubSeason.objects.filter(club=club, pk=pk).first()


def leaderboard(*, club, season: ClubSeason | None = None, scheme: str | None = None, order: str = "points"):
    """Standings of a club: club-pool rating, event points (by season and scheme), matches and win share in the
    season. Five queries whatever the number of players."""
    standings: dict[int, Standing] = {}
    members = Membership.objects.filter(club=club, is_active=True).select_related("player")
    for membership in members:
        standings[membership.player_id] = Standing(player=membership.player)
    standard = Q(pool__variant=GameVariant.STANDARD)
    for rating in PlayerRating.objects.filter(standard, pool__club=club).select_related("player"):
        standing = standings.setdefault(rating.player_id, Standing(player=rating.player))
        standing.rating = rating.rating
    rows = RatedMatch.objects.filter(standard, pool__club=club)
    awards = PointsAward.objects.filter(club=club)
    if season is not None:
        rows = rows.filter(played_at__date__gte=season.starts_on, played_at__date__lte=season.ends_on)
        awards = awards.filter(awarded_on__gte=season.starts_on, awarded_on__lte=season.ends_on)
    if scheme:
        awards = awards.filter(scheme=scheme)
    wins = rows.values("winner_id").annotate(n=Count("id")).values_list("winner_id", "n")
    losses = rows.values("loser_id").annotate(n=Count("id")).values_list("loser_id", "n")
    for player_id, n in wins:
        if player_id in standings:
            standings[player_id].wins += n
            standings[player_id].matches += n
    for player_id, n in losses:
        if player_id in standings:
            standings[player_id].matches += n
    totals = awards.values("player_id").annotate(total=Sum("points"), n=Count("id"))
    for total in totals.values_list("player_id", "total", "n"):
        if total[0] in standings:
            standings[total[0]].points += total[1] or 0.0
            standings[total[0]].events += total[2]
    return sorted(standings.values(), key=LEADERBOARD_ORDERS.get(order, LEADERBOARD_ORDERS["points"]))


def overall_top(*, user, limit: int = 100) -> list[PlayerRating]:
    visible = club_selectors.visible_players(user=user)
    return list(
        PlayerRating.objects.filter(pool__club__isnull=True, pool__variant=GameVariant.STANDARD, player__in=visible)
        .select_related("player", "pool__club")
        .order_by("-rating", "player__name")[:limit]
    )


# --- ladders -----------------------------------------------------------------------------------------------


def club_ladders(*, club) -> QuerySet[Ladder]:
    """The club's ladders with their club loaded: the one place pages and the API look a ladder up by slug."""
    return Ladder.objects.filter(club=club).select_related("club")


def ladder_challenges(*, ladder) -> QuerySet[LadderChallenge]:
    return ladder.challenges.all()


def ladder_position(*, ladder, player_id: int) -> LadderPosition | None:
    """The player's place on the ladder, None if they are not on it."""
    return ladder.positions.filter(player_id=player_id).select_related("player").first()


def club_member(*, club, player_id: int):
    """The player `player_id` if they have an active or past membership of the club, else None (the API's
    "a member to add" check)."""
    membership = club.memberships.filter(player_id=player_id).select_related("player").first()
    return None if membership is None else membership.player


def ladder_positions(*, ladder) -> list:
    return list(ladder.positions.select_related("player").order_by("position"))


def open_challenges(*, ladder) -> list:
    return list(ladder.challenges.filter(status=ChallengeStatus.OPEN).select_related("challenger", "defender", "match"))


def ladder_page(*, ladder, user) -> dict:
    """The ladder with who the viewer may challenge (up to `reach` places above their own)."""
    positions = ladder_positions(ladder=ladder)
    challenges = open_challenges(ladder=ladder)
    recent = list(ladder.challenges.exclude(status=ChallengeStatus.OPEN).select_related("challenger", "defender")[:10])
    own = club_selectors.player_for_user(user)
    mine = next((p for p in positions if own is not None and p.player_id == own.pk), None)
    busy = {c.challenger_id for c in challenges} | {c.defender_id for c in challenges}
    can_challenge = []
    if mine is not None and mine.player_id not in busy:
        can_challenge = [
            p
            for p in positions
            if mine.position - ladder.reach <= p.position < mine.position and p.player_id not in busy
        ]
    is_member = own is not None and Membership.objects.filter(club=ladder.club, player=own, is_active=True).exists()
    return {
        "ladder": ladder,
        "club": ladder.club,
        "positions": positions,
        "open_challenges": challenges,
        "recent": recent,
        "mine": mine,
        "can_challenge": can_challenge,
        "can_join": is_member and mine is None,
    }


def event_points(*, event, limit: int | None = None) -> tuple[EventPoints | None, list[PointsAward]]:
    """An event's points scheme (None before a director chose one) and its awards by place."""
    scheme = EventPoints.objects.filter(event=event).first()
    awards = PointsAward.objects.filter(event=event).select_related("player").order_by("place", "player__name")
    return scheme, list(awards if limit is None else awards[:limit])


def events_with_points(*, club, user) -> list:
    """The club's events that have a points scheme (public ones, or all for its directors), newest first."""
    rows = EventPoints.objects.filter(event__club=club).select_related("event")
    if not access.can(user, "club.direct", club):
        rows = rows.filter(event__is_public=True)
    return [row.event for row in rows.order_by("-event__ends_on", "event__name")[:20]]


def overall_points(*, user, scheme: str | None = None, year: int | None = None, limit: int = 50) -> list[dict]:
    """Event points summed across every club the user can see (the overall ranking next to each club's)."""
    awards = PointsAward.objects.filter(club__in=club_selectors.visible_clubs(user=user))
    if scheme:
        awards = awards.filter(scheme=scheme)
    if year:
        awards = awards.filter(awarded_on__year=year)
    return list(
        awards.annotate(shown=names.shown_name_of("player__", viewer=user))
        .values("player_id", "shown")
        .annotate(points=Sum("points"), events=Count("event", distinct=True))
        .order_by("-points", "shown")[:limit]
    )


def my_overall_rating(*, user):
    """The signed-in user's rating in the overall pool (None before their first rated match)."""
    return (
        PlayerRating.objects.filter(player__user=user, pool__club__isnull=True, pool__variant=GameVariant.STANDARD)
        .select_related("player")
        .first()
    )


def club_rated_matches(*, club, user) -> list[RatedMatch]:
    """The club pools' rated matches the user may see (public matches, and the user's own), oldest first, with
    both players: the club's rated-matches export. One query."""
    rows = RatedMatch.objects.filter(pool__club=club).select_related("winner", "loser", "pool")
    return list(_visible_rows(rows, user).order_by("played_at", "match_id"))
