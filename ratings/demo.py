"""Demo data for ratings: twelve weeks of club nights (36 confirmed matches, created through the match-play
services), a season and a club ladder (the finished demo event's points: points.demo). Runs after the games and
tournaments demos; running it again creates nothing new."""

import random
from datetime import datetime, time, timedelta

from django.utils import timezone

from games.matchplay import services as matchplay
from games.models.matches import Match, MatchContext
from ratings.models import ClubSeason, Ladder
from ratings.selectors import player_ratings
from ratings.services import ladders as ladder_services
from ratings.services import pools

WEEKS = 12
MATCHES_PER_NIGHT = 3
LADDER_SLUG = "club-ladder"


def _club_nights(context) -> int:
    club, director, players = context.club, context.director, context.players
    # The demo ladder is created last: when it exists, the club nights were created by an earlier run.
    if Ladder.objects.filter(club=club, slug=LADDER_SLUG).exists() or len(players) < 2:
        return 0
    rng = random.Random(2026)
    strength = {p.pk: rng.gauss(0, 1) + (0.8 if i < 4 else 0) for i, p in enumerate(players)}
    today = timezone.localdate()
    created = 0
    for week in range(WEEKS, 0, -1):
        night = today - timedelta(days=7 * week + (today.weekday() - 1) % 7)  # Tuesdays
        start = timezone.make_aware(datetime.combine(night, time(19, 0)))
        for number in range(MATCHES_PER_NIGHT):
            a, b = rng.sample(players, 2)
            length = rng.choice((5, 7))
            a_wins = rng.random() < 1 / (1 + 10 ** ((strength[b.pk] - strength[a.pk]) / 2))
            match = matchplay.create_match(
                actor=director, player_a=a, player_b=b, length=length, context=MatchContext.CLUB_NIGHT, club=club,
                scheduled_at=start,
            )  # fmt: skip
            finished = start + timedelta(minutes=50 * (number + 1))
            Match.objects.filter(pk=match.pk).update(started_at=start, finished_at=finished)
            match.refresh_from_db()
            loser_score = rng.randrange(length)
            scores = (length, loser_score) if a_wins else (loser_score, length)
            matchplay.submit_report(actor=director, match=match, method="final_score", scores=scores, as_director=True)
            created += 1
    return created


def _ladder(context) -> Ladder:
    ladder = Ladder.objects.filter(club=context.club, slug=LADDER_SLUG).first()
    if ladder is None:
        ladder = ladder_services.create_ladder(actor=context.director, club=context.club, name="Club ladder")
    ratings = player_ratings(player_ids=[p.pk for p in context.players], club_id=context.club.pk)
    for player in sorted(context.players, key=lambda p: -ratings[p.pk]):
        ladder_services.join_ladder(actor=context.director, ladder=ladder, player=player)
    return ladder


def load(context) -> None:
    club = context.club
    created = _club_nights(context)
    if created:
        # The club nights lie before the matches rated a moment ago, so each asked for a recompute: run it now,
        # so the demo shows numbers even without a worker.
        for pool in (pools.overall_pool(), pools.club_pool(club.pk)):
            pools.recompute_now(pool=pool)
    year = timezone.localdate().year
    ClubSeason.objects.get_or_create(
        club=club,
        name=str(year),
        defaults={"starts_on": timezone.localdate().replace(year=year, month=1, day=1),
                  "ends_on": timezone.localdate().replace(year=year, month=12, day=31)},
    )  # fmt: skip
    ladder = _ladder(context)
    context.lines.append(
        f"Ratings: {created or 'no new'} club-night matches rated; leaderboard /clubs/{club.slug}/leaderboard/, "
        f"ladder {ladder.get_absolute_url()}"
    )
