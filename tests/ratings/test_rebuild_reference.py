"""A pool's rebuild — raw rows streamed from the database, the inlined FIBS loop, rows written back in bulk (COPY on
PostgreSQL, executemany on SQLite) — gives exactly what rating the same matches one by one with the reference
formula gives: every explanation row and every player's rating, experience, matches and wins."""

import random
from datetime import UTC, datetime, timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from base.bulk import insert_rows
from clubs.models import Club, Membership, Player
from games.models.matches import Match, MatchContext, MatchOutcome, MatchStatus
from ratings.core import fibs
from ratings.models import PlayerRating, RatedMatch, RatingPool
from ratings.services import pools

pytestmark = pytest.mark.django_db

START = datetime(2024, 3, 1, 18, 0, tzinfo=UTC)


def _random_matches(count: int, players: int, seed: int):
    club = Club.objects.create(name="Reference club", slug="reference-club", is_approved=True)
    made = Player.objects.bulk_create([Player(name=f"R{n}") for n in range(players)])
    Membership.objects.bulk_create([Membership(club=club, player=p) for p in made])
    ids = [p.pk for p in made]
    rng = random.Random(seed)
    Match.objects.bulk_create(
        Match(
            player_a_id=a, player_b_id=b, length=length, context=MatchContext.CLUB_NIGHT, club=club,
            status=MatchStatus.FINISHED, outcome=MatchOutcome.PLAYED, winner_id=a if rng.random() < 0.5 else b,
            rated=True, finished_at=START + timedelta(minutes=7 * n),
        )
        for n, (a, b), length in ((n, rng.sample(ids, 2), rng.choice((1, 3, 5, 7, 11))) for n in range(count))
    )  # fmt: skip
    return club


def _reference(club):
    """Rate the club's matches one at a time in date order with fibs.rate."""
    current: dict[int, list] = {}
    rows = {}
    for m in Match.objects.filter(club=club).order_by("finished_at", "id"):
        loser = m.player_b_id if m.winner_id == m.player_a_id else m.player_a_id
        w = current.setdefault(m.winner_id, [fibs.START_RATING, 0, 0, 0])
        lo = current.setdefault(loser, [fibs.START_RATING, 0, 0, 0])
        r = fibs.rate(winner_rating=w[0], loser_rating=lo[0], winner_experience=w[1], loser_experience=lo[1],
                      length=m.length)  # fmt: skip
        rows[m.pk] = (m.winner_id, loser, m.finished_at, r.winner_rating, r.loser_rating, r.winner_change,
                      r.loser_change, r.winner_k, r.loser_k)  # fmt: skip
        w[:] = [w[0] + r.winner_change, w[1] + m.length, w[2] + 1, w[3] + 1]
        lo[:] = [lo[0] + r.loser_change, lo[1] + m.length, lo[2] + 1, lo[3]]
    return rows, current


def _stored(pool):
    rows = {
        r.match_id: (
            r.winner_id,
            r.loser_id,
            r.played_at,
            r.winner_rating,
            r.loser_rating,
            r.winner_change,
            r.loser_change,
            r.winner_k,
            r.loser_k,
        )  # fmt: skip
        for r in RatedMatch.objects.filter(pool=pool)
    }
    ratings = {r.player_id: [r.rating, r.experience, r.matches, r.wins] for r in PlayerRating.objects.filter(pool=pool)}
    return rows, ratings


def test_a_rebuild_of_three_thousand_random_matches_equals_the_reference_formula_exactly():
    club = _random_matches(3000, 60, seed=11)
    pool = pools.club_pool(club.pk)
    pools.recompute_now(pool=pool)
    expected_rows, expected_ratings = _reference(club)
    rows, ratings = _stored(pool)
    assert rows == expected_rows
    assert ratings == expected_ratings
    last = {r.player_id: r.last_played_at for r in PlayerRating.objects.filter(pool=pool)}
    latest: dict[int, datetime] = {}
    for m in Match.objects.filter(club=club):
        for player in (m.player_a_id, m.player_b_id):
            latest[player] = max(latest.get(player, m.finished_at), m.finished_at)
    assert last == latest  # each player's own last match, whichever side of it they sat


def test_a_rebuild_from_the_middle_equals_the_full_rebuild():
    club = _random_matches(1200, 30, seed=12)
    pool = pools.club_pool(club.pk)
    pools.recompute_now(pool=pool)
    full = _stored(pool)
    pools.request_recompute(pool=pool, since=START + timedelta(minutes=7 * 600))
    assert pools.recompute_pool(pool_id=pool.pk)
    assert _stored(pool) == full


def test_insert_rows_writes_raw_values_into_the_models_columns():
    player = Player.objects.create(name="Raw")
    club = Club.objects.create(name="Raw club", slug="raw-club")
    pool = pools.club_pool(club.pk)
    insert_rows(PlayerRating, ("pool", "player", "rating", "experience", "matches", "wins", "last_played_at"),
                [(pool.pk, player.pk, 1612.25, 33, 7, 4, START)])  # fmt: skip
    stored = PlayerRating.objects.get(pool=pool, player=player)
    assert (stored.rating, stored.experience, stored.matches, stored.wins, stored.last_played_at) == (
        1612.25, 33, 7, 4, START,
    )  # fmt: skip


def test_insert_rows_writes_every_row_of_a_stream_longer_than_one_batch():
    """SQLite writes several rows per INSERT: a stream of full batches and a shorter last one (given as a
    generator, as the rebuild gives it) arrives whole, each row with its own values."""
    club = Club.objects.create(name="Batch club", slug="batch-club")
    pool = pools.club_pool(club.pk)
    made = Player.objects.bulk_create([Player(name=f"B{n}") for n in range(1000)])
    fields = ("pool", "player", "rating", "experience", "matches", "wins", "last_played_at")
    rows = ((pool.pk, p.pk, 1000.0 + n, n, n + 1, n // 2, START + timedelta(hours=n)) for n, p in enumerate(made))
    insert_rows(PlayerRating, fields, rows)
    stored = {r.player_id: r for r in PlayerRating.objects.filter(pool=pool)}
    assert len(stored) == 1000
    for n, p in enumerate(made):
        row = stored[p.pk]
        assert (row.rating, row.experience, row.matches, row.wins, row.last_played_at) == (
            1000.0 + n, n, n + 1, n // 2, START + timedelta(hours=n),
        )  # fmt: skip


def _rated_match_constraints() -> dict:
    with connection.cursor() as cursor:
        return connection.introspection.get_constraints(cursor, RatedMatch._meta.db_table)


def test_an_explanation_row_refers_to_its_pool_match_and_players_without_a_database_constraint():
    """The rows are derived (a rebuild writes them from the matches): each constraint cost the rebuild a query per
    row, the match's a lock of the match row besides (RatedMatch's docstring)."""
    assert [c for c in _rated_match_constraints().values() if c["foreign_key"]] == []


def test_a_match_or_pool_deleted_through_the_orm_still_takes_its_explanation_rows_with_it():
    club = _random_matches(20, 6, seed=13)
    pool = pools.club_pool(club.pk)
    pools.recompute_now(pool=pool)
    match = Match.objects.filter(club=club).order_by("finished_at").last()
    assert RatedMatch.objects.filter(match=match).count() == 1
    match.delete()
    assert not RatedMatch.objects.filter(match_id=match.pk).exists()
    assert RatedMatch.objects.filter(pool=pool).count() == 19
    RatingPool.objects.filter(pk=pool.pk).delete()
    assert not RatedMatch.objects.filter(pool_id=pool.pk).exists()


def _index_statements(pool, since=None) -> list[str]:
    pools.request_recompute(pool=pool, since=since)
    with CaptureQueriesContext(connection) as captured:
        assert pools.recompute_pool(pool_id=pool.pk)
    return [q["sql"] for q in captured.captured_queries if "INDEX" in q["sql"].upper()]


def test_a_rebuild_of_most_of_the_table_sets_the_player_indexes_aside_on_sqlite_only_and_makes_them_again(
    monkeypatch,
):
    club = _random_matches(400, 20, seed=14)
    pool = pools.club_pool(club.pk)
    assert _index_statements(pool) == []  # too few rows to count the table for
    monkeypatch.setattr(pools, "SET_ASIDE_FROM_ROWS", 10)
    statements = _index_statements(pool)
    if connection.vendor == "sqlite":
        assert [s.split()[0] for s in statements] == ["DROP", "DROP", "CREATE", "CREATE"], statements
    else:  # DROP INDEX would lock the table against every reader until the commit
        assert statements == []
    constraints = _rated_match_constraints()
    for name in RatedMatch.PLAYER_INDEXES:
        assert constraints[name]["index"]
    assert {constraints[n]["columns"][0] for n in RatedMatch.PLAYER_INDEXES} == {"winner_id", "loser_id"}
    # A rebuild of the last tenth beside the whole history writes into the indexes instead.
    assert _index_statements(pool, since=START + timedelta(minutes=7 * 360)) == []
    expected_rows, expected_ratings = _reference(club)
    assert _stored(pool) == (expected_rows, expected_ratings)


def test_insert_rows_writes_text_columns_too():
    """PostgreSQL copies in binary only when every column is a number, boolean or date-time; a table with text
    (the benchmarks' matches) is copied as text."""
    insert_rows(
        Player, ("name", "country", "created_at"), [("Copied as text", "DE", START), ("Zweite Zeile", "", START)]
    )
    assert set(Player.objects.values_list("name", flat=True)) == {"Copied as text", "Zweite Zeile"}
