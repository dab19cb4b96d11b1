"""Ratings: recompute a pool of 100,000 matches among 2,000 players (goal <= 10 s) and a federation's history of
1,000,000 matches among 20,000 players (goal <= 20 s), including every write.

The matches are created in a throwaway test database (SQLite in memory, or a test database on the server
DATABASE_URL names). They are inserted as raw rows (one executemany per 20,000) whose columns come from the Match
model itself, so a field added later with a default needs no change here; the generation time is printed on its
own line. The figure is the real recompute service: claim, load the match stream, replay the FIBS core, delete the
old rows and bulk-insert one explanation row per match and one current rating per player.
"""

import random
import time
from datetime import UTC, datetime, timedelta

from bench.scratch import scratch_database

GOAL_100K_SECONDS = 10.0
GOAL_1M_SECONDS = 20.0
MINUTES_APART = 1  # matches one minute apart: a million of them span about two years
BATCH = 20_000


def _match_rows(club, ids, count, rng, start):
    """Raw column values of `count` finished, rated club-night matches between random pairs of `ids`, the
    stronger player (a hidden Gaussian strength) winning more often."""
    from django.db import connection

    from games.models.matches import Match, MatchContext, MatchOutcome, MatchStatus

    template = Match(
        player_a_id=ids[0], player_b_id=ids[1], length=1, context=MatchContext.CLUB_NIGHT, club=club,
        status=MatchStatus.FINISHED, outcome=MatchOutcome.PLAYED, winner_id=ids[0], rated=True,
        started_at=start, finished_at=start, score_a=1, score_b=0, created_at=start,
    )  # fmt: skip
    fields = [f for f in Match._meta.concrete_fields if not f.primary_key]
    base = [f.get_db_prep_save(f.pre_save(template, add=False), connection) for f in fields]
    slot = {f.attname: n for n, f in enumerate(fields)}
    varying = ("player_a_id", "player_b_id", "length", "winner_id", "started_at", "finished_at", "score_a", "score_b")
    at_field = Match._meta.get_field("finished_at")
    strength = {pid: rng.gauss(0, 1) for pid in ids}
    lengths = (1, 3, 5, 7, 9, 11)
    batch = []
    for n in range(count):
        a, b = rng.sample(ids, 2)
        length = rng.choice(lengths)
        winner = a if rng.random() < 1 / (1 + 10 ** (strength[b] - strength[a])) else b
        at = start + timedelta(minutes=MINUTES_APART * n)
        row = list(base)
        values = (a, b, length, winner, at - timedelta(minutes=40), at, length if winner == a else 0,
                  length if winner == b else 0)  # fmt: skip
        for name, value in zip(varying, values, strict=True):
            row[slot[name]] = at_field.get_db_prep_save(value, connection) if name.endswith("_at") else value
        batch.append(row)
        if len(batch) == BATCH:
            yield fields, batch
            batch = []
    if batch:
        yield fields, batch


def _create(players: int, matches: int, seed: int = 2026):
    """An approved club whose players accepted their membership: every director-decided club-night match counts
    in both pools, and each is checked against the consent rule (ratings.services.pools.rateable_matches)."""
    from django.db import transaction

    from base.bulk import insert_rows
    from clubs.models import Club, Membership, Player
    from games.models.matches import Match

    rng = random.Random(seed)
    start = datetime(2020, 1, 1, tzinfo=UTC)
    with transaction.atomic():
        club = Club.objects.create(name=f"Bench club {players}", slug=f"bench-club-{players}", is_approved=True)
        made = Player.objects.bulk_create([Player(name=f"Bench {n}") for n in range(players)], batch_size=5000)
        Membership.objects.bulk_create([Membership(club=club, player=p) for p in made], batch_size=5000)
        ids = [p.pk for p in made]
        for fields, rows in _match_rows(club, ids, matches, rng, start):
            insert_rows(Match, [f.name for f in fields], rows)
    return club, start


def _timed(pool, since=None) -> float:
    from ratings.models import RatingPool
    from ratings.services import pools as services

    # Marked as a correction would mark it (request_recompute would also run the task eagerly at once).
    RatingPool.objects.filter(pk=pool.pk).update(recompute_pending=True, recompute_from=since)
    begin = time.perf_counter()
    assert services.recompute_pool(pool_id=pool.pk)
    return time.perf_counter() - begin


def _counts(pool):
    from ratings.models import PlayerRating, RatedMatch

    return RatedMatch.objects.filter(pool=pool).count(), PlayerRating.objects.filter(pool=pool).count()


def main() -> None:
    from django.db import connection

    from ratings.services import pools as services

    with scratch_database():
        print(f"ratings_database: {connection.vendor}")
        club, start = _create(2_000, 100_000)
        pool = services.overall_pool()
        first = min(_timed(pool) for _ in range(2))  # the second run replaces the first run's rows
        assert _counts(pool) == (100_000, 2_000), _counts(pool)
        half = _timed(pool, since=start + timedelta(minutes=MINUTES_APART * 50_000))
        club_pool = _timed(services.club_pool(club.pk))
        print(f"ratings_recompute_100k_matches_2k_players: {first:.2f} s (goal <= {GOAL_100K_SECONDS:g} s)")
        print(f"ratings_recompute_last_50k_of_100k: {half:.2f} s (goal <= {GOAL_100K_SECONDS:g} s)")
        print(f"ratings_recompute_club_pool_100k: {club_pool:.2f} s (goal <= {GOAL_100K_SECONDS:g} s)")
    with scratch_database():
        begin = time.perf_counter()
        club, start = _create(20_000, 1_000_000, seed=2027)
        print(f"ratings_generate_1m_matches: {time.perf_counter() - begin:.1f} s (input, not timed below)")
        pool = services.club_pool(club.pk)
        seconds = _timed(pool)
        assert _counts(pool) == (1_000_000, 20_000), _counts(pool)
        print(f"ratings_recompute_1m_matches_20k_players: {seconds:.2f} s (goal <= {GOAL_1M_SECONDS:g} s)")
        overall = _timed(services.overall_pool())
        print(f"ratings_recompute_overall_pool_1m: {overall:.2f} s (goal <= {GOAL_1M_SECONDS:g} s)")
