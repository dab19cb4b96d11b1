"""Rating confirmed results: incrementally when the match is the latest, by recompute otherwise."""

import pytest
from django.core.exceptions import PermissionDenied

from games.matchplay import services as matchplay
from ratings.core.fibs import rate
from ratings.models import PlayerRating, RatedMatch, RatingPool, RecomputeRequest
from ratings.selectors import player_ratings
from ratings.services import pools as services
from tests.clubs.factories import MembershipFactory
from tests.ratings.builders import correct, played

pytestmark = pytest.mark.django_db


@pytest.fixture
def people(club, director_user):
    players = [MembershipFactory(club=club).player for _ in range(4)]
    return director_user, players


def snapshot(pool):
    rows = list(
        RatedMatch.objects.filter(pool=pool)
        .order_by("played_at", "match_id")
        .values_list("match_id", "winner_id", "winner_rating", "loser_rating", "winner_change", "loser_change")
    )
    ratings = sorted(PlayerRating.objects.filter(pool=pool).values_list("player_id", "rating", "experience", "wins"))
    return rows, ratings


def test_a_confirmed_match_is_rated_in_the_overall_and_the_club_pool(club, people):
    director, (a, b, *_rest) = people
    match = played(director, club, a, b, length=7)
    expected = rate(winner_rating=1500, loser_rating=1500, winner_experience=0, loser_experience=0, length=7)
    assert player_ratings(player_ids=[a.pk, b.pk]) == pytest.approx(
        {a.pk: 1500 + expected.winner_change, b.pk: 1500 + expected.loser_change}
    )
    assert player_ratings(player_ids=[a.pk], club_id=club.pk)[a.pk] == pytest.approx(1500 + expected.winner_change)
    row = RatedMatch.objects.get(match=match, pool__club=club)
    assert (row.winner_id, row.loser_id, row.length, row.winner_k, row.upset_probability) == (a.pk, b.pk, 7, 5.0, 0.5)
    assert PlayerRating.objects.get(pool=row.pool, player=a).experience == 7


def test_forfeits_and_annulled_matches_are_not_rated(club, people, django_capture_on_commit_callbacks):
    director, (a, b, c, _d) = people
    forfeit = matchplay.create_match(actor=director, player_a=a, player_b=b, length=5, club=club)
    matchplay.submit_report(
        actor=director, match=forfeit, method="no_play", outcome="forfeit", winner_side=0, as_director=True
    )
    assert not RatedMatch.objects.filter(match=forfeit).exists()
    match = played(director, club, a, c)
    assert RatedMatch.objects.filter(match=match).count() == 2
    with django_capture_on_commit_callbacks(execute=True):
        matchplay.annul_match(actor=director, match=match, comment="wrong players")
    assert not RatedMatch.objects.filter(match=match).exists()
    assert player_ratings(player_ids=[a.pk, c.pk]) == {a.pk: 1500.0, c.pk: 1500.0}


def test_correcting_an_old_result_recomputes_from_that_point(club, people, django_capture_on_commit_callbacks):
    director, (a, b, c, d) = people
    first = played(director, club, a, b, day=1)
    played(director, club, b, c, day=2)
    played(director, club, a, c, day=3)
    played(director, club, d, a, day=4)
    pool = RatingPool.objects.get(club=club)
    rows_before, _ = snapshot(pool)
    with django_capture_on_commit_callbacks(execute=True):
        correct(director, first, winner_side=1)  # b won the first match after all
    pool.refresh_from_db()
    assert not pool.recompute_pending and pool.recompute_count == 1
    rows_after, ratings_after = snapshot(pool)
    assert rows_after[0][1] == b.pk and rows_after != rows_before
    # The same history replayed from scratch gives the same numbers: the partial recompute was right.
    services.request_recompute(pool=pool, since=None)
    assert services.recompute_pool(pool_id=pool.pk)
    assert snapshot(pool) == (rows_after, ratings_after)


def test_a_result_dated_before_rated_matches_triggers_a_recompute(club, people, django_capture_on_commit_callbacks):
    director, (a, b, c, _d) = people
    played(director, club, a, b, day=5)
    with django_capture_on_commit_callbacks(execute=True):
        early = played(director, club, c, a, day=1)
    pool = RatingPool.objects.get(club=club)
    order = list(RatedMatch.objects.filter(pool=pool).order_by("played_at").values_list("match_id", flat=True))
    assert order[0] == early.pk and pool.__class__.objects.get(pk=pool.pk).recompute_count == 1
    assert RatedMatch.objects.get(pool=pool, match=early).winner_rating == 1500.0


def test_recompute_twice_gives_the_same_numbers_and_a_second_claim_finds_nothing(club, people):
    director, (a, b, c, d) = people
    for day, (w, lo) in enumerate([(a, b), (b, c), (c, d), (d, a), (a, c), (b, d)]):
        played(director, club, w, lo, day=day, length=3 + 2 * (day % 3))
    pool = services.overall_pool()
    incremental = snapshot(pool)
    services.request_recompute(pool=pool, since=None)
    assert services.recompute_pool(pool_id=pool.pk) is True
    assert services.recompute_pool(pool_id=pool.pk) is False  # claimed once: nothing pending any more
    last = RatedMatch.objects.filter(pool=pool).order_by("-played_at").first()
    assert PlayerRating.objects.get(pool=pool, player_id=last.winner_id).last_played_at == last.played_at
    first = snapshot(pool)
    services.request_recompute(pool=pool, since=None)
    services.recompute_pool(pool_id=pool.pk)
    assert snapshot(pool) == first
    assert [r[:2] for r in first[0]] == [r[:2] for r in incremental[0]]
    for rebuilt, step_by_step in zip(first[1], incremental[1], strict=True):
        assert rebuilt[0] == step_by_step[0] and rebuilt[2:] == step_by_step[2:]
        assert rebuilt[1] == pytest.approx(step_by_step[1])


def test_a_corrected_score_with_the_same_winner_changes_nothing(club, people):
    director, (a, b, *_rest) = people
    match = played(director, club, a, b, length=5)
    before = snapshot(services.overall_pool())
    matchplay.submit_report(actor=director, match=match, method="final_score", scores=(5, 4), as_director=True)
    assert snapshot(services.overall_pool()) == before
    assert not RatingPool.objects.filter(recompute_pending=True).exists()


def test_only_a_club_admin_may_request_a_full_recompute(club, admin_user, member_user):
    pool = services.club_pool(club.pk)
    with pytest.raises(PermissionDenied):
        services.request_full_recompute(actor=member_user, pool=pool)
    services.request_full_recompute(actor=admin_user, pool=pool)
    assert RatingPool.objects.get(pk=pool.pk).recompute_pending


def test_k_rule_b_is_a_setting(club, people, settings):
    settings.RATINGS_FIBS_K_RULE = "b"
    director, (a, b, *_rest) = people
    match = played(director, club, a, b, length=7)
    row = RatedMatch.objects.get(match=match, pool__club=club)
    assert row.winner_k == pytest.approx(4.93) and row.loser_k == pytest.approx(4.93)
    settings.RATINGS_FIBS_K_RULE = "c"
    with pytest.raises(ValueError, match="RATINGS_FIBS_K_RULE"):
        services.k_rule()


def test_many_old_results_in_one_transaction_queue_one_recompute(club, people, django_capture_on_commit_callbacks):
    director, (a, b, c, d) = people
    played(director, club, a, b, day=30)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        for day, (w, lo) in enumerate([(b, c), (c, d), (d, a), (a, c)]):
            played(director, club, w, lo, day=day)
    # live pages are told after commit too (base.live); the recomputes are what this test counts
    recomputes = [callback for callback in callbacks if "notify_group" not in getattr(callback, "__qualname__", "")]
    assert len(recomputes) == 2  # one fold per pool (overall and the club's), not one per result
    with django_capture_on_commit_callbacks(execute=True):  # each fold queues its pool's recompute after commit
        for callback in recomputes:
            callback()
    assert RatedMatch.objects.filter(pool__club=club).count() == 5
    assert not RatingPool.objects.filter(recompute_pending=True).exists()


def test_recompute_command_rebuilds_every_pool_with_the_current_k_rule(club, people, settings, capsys):
    from django.core.management import CommandError, call_command

    director, (a, b, *_rest) = people
    match = played(director, club, a, b, length=7)
    settings.RATINGS_FIBS_K_RULE = "b"
    call_command("recompute_ratings")
    assert RatedMatch.objects.get(match=match, pool__club=club).winner_k == pytest.approx(4.93)
    assert RatedMatch.objects.get(match=match, pool__club__isnull=True).winner_k == pytest.approx(4.93)
    assert f"{club.name}: 1 rated matches" in capsys.readouterr().out
    with pytest.raises(CommandError, match="short name"):
        call_command("recompute_ratings", club="nope")


def test_a_changed_rated_result_asks_for_a_recompute_without_the_pool_lock_and_the_sweep_folds_it(
    club, people, django_capture_on_commit_callbacks
):
    """A correction of a rated result (as an override and what it voids) only inserts a request per pool; it is
    folded into the pool after commit, and by the sweep when that fold never ran."""
    director, (a, b, *_rest) = people
    match = played(director, club, a, b, length=5)
    with django_capture_on_commit_callbacks(execute=False):  # the folds after commit are lost (a crash)
        correct(director, match, winner_side=1)
    assert sorted(RecomputeRequest.objects.values_list("pool__club", flat=True), key=str) == [club.pk, None]
    assert not RatingPool.objects.filter(recompute_pending=True).exists()
    with django_capture_on_commit_callbacks(execute=True):
        services.sweep_pending_pools()
    assert not RecomputeRequest.objects.exists()
    assert not RatingPool.objects.filter(recompute_pending=True).exists()  # folded, sent and recomputed
    assert set(RatedMatch.objects.filter(match=match).values_list("winner_id", flat=True)) == {b.pk}
