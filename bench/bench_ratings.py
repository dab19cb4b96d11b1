"""Ratings: recompute a pool of 100,000 matches among 2,000 players (goal <= 10 s), including every write.

The matches are created in a throwaway test database (SQLite in memory, or a test database on the server
DATABASE_URL names) with bulk_create; the figure is the real recompute service: claim, load the match stream,
replay the FIBS core, delete the old rows and bulk-insert 100,000 explanation rows and 2,000 current ratings.
"""

import random
import time
from datetime import UTC, datetime, timedelta

from bench.scratch import scratch_database

PLAYERS = 2_000
MATCHES = 100_000
GOAL_SECONDS = 10.0


def _create(seed: int = 2026):
    from clubs.models import Club, Membership, Player
    from games.models.matches import Match, MatchContext, MatchOutcome, MatchStatus

    rng = random.Random(seed)
    # An approved club whose players accepted their membership: every director-decided club-night match counts
    # in both pools, and each is checked against the consent rule (ratings.services.pools.rateable_matches).
    club = Club.objects.create(name="Bench club", slug="bench-club", is_approved=True)
    players = Player.objects.bulk_create([Player(name=f"Bench {n}") for n in range(PLAYERS)], batch_size=1000)
    Membership.objects.bulk_create([Membership(club=club, player=p) for p in players], batch_size=1000)
    ids = [p.pk for p in players]
    strength = {pid: rng.gauss(0, 1) for pid in ids}
    start = datetime(2020, 1, 1, tzinfo=UTC)
    batch = []
    for n in range(MATCHES):
        a, b = rng.sample(ids, 2)
        length = rng.choice((1, 3, 5, 7, 9, 11))
        winner = a if rng.random() < 1 / (1 + 10 ** (strength[b] - strength[a])) else b
        at = start + timedelta(minutes=17 * n)
        batch.append(
            Match(
                player_a_id=a, player_b_id=b, length=length, context=MatchContext.CLUB_NIGHT, club=club,
                status=MatchStatus.FINISHED, outcome=MatchOutcome.PLAYED, winner_id=winner, rated=True,
                started_at=at - timedelta(minutes=40), finished_at=at,
                score_a=length if winner == a else 0, score_b=length if winner == b else 0,
            )
        )  # fmt: skip
        if len(batch) == 5000:
            Match.objects.bulk_create(batch)
            batch = []
    Match.objects.bulk_create(batch)
    return club, start


def _timed(pool, since=None) -> float:
    from ratings.models import RatingPool
    from ratings.services import pools as services

    # Marked as a correction would mark it (request_recompute would also run the task eagerly at once).
    RatingPool.objects.filter(pk=pool.pk).update(recompute_pending=True, recompute_from=since)
    begin = time.perf_counter()
    assert services.recompute_pool(pool_id=pool.pk)
    return time.perf_counter() - begin


def main() -> None:
    with scratch_database():
        from ratings.models import PlayerRating, RatedMatch
        from ratings.services import pools as services

        club, start = _create()
        pool = services.overall_pool()
        first = min(_timed(pool) for _ in range(2))  # the second run replaces the first run's rows
        rows = RatedMatch.objects.filter(pool=pool).count()
        ratings = PlayerRating.objects.filter(pool=pool).count()
        assert rows == MATCHES and ratings == PLAYERS, (rows, ratings)
        half = _timed(pool, since=start + timedelta(minutes=17 * MATCHES // 2))
        club_pool = _timed(services.club_pool(club.pk))
        print(f"ratings_recompute_100k_matches_2k_players: {first:.2f} s (goal <= {GOAL_SECONDS:g} s)")
        print(f"ratings_recompute_last_50k_of_100k: {half:.2f} s (goal <= {GOAL_SECONDS:g} s)")
        print(f"ratings_recompute_club_pool_100k: {club_pool:.2f} s (goal <= {GOAL_SECONDS:g} s)")
