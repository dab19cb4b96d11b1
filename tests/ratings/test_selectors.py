import pytest

from ratings.models import PlayerRating, RatingPool
from ratings.selectors import player_ratings
from tests.clubs.factories import ClubFactory, PlayerFactory

pytestmark = pytest.mark.django_db


def test_player_ratings_reads_the_overall_or_the_club_pool_and_defaults_to_1500(django_assert_num_queries):
    club = ClubFactory()
    rated, other, newcomer = PlayerFactory(), PlayerFactory(), PlayerFactory()
    overall = RatingPool.objects.create(club=None)
    at_club = RatingPool.objects.create(club=club)
    PlayerRating.objects.create(pool=overall, player=rated, rating=1612.5, experience=40, matches=6, wins=4)
    PlayerRating.objects.create(pool=at_club, player=rated, rating=1540.25, experience=10, matches=2, wins=1)
    PlayerRating.objects.create(pool=overall, player=other, rating=1433.0, experience=12, matches=3, wins=0)
    ids = [rated.pk, other.pk, newcomer.pk]
    with django_assert_num_queries(1):
        assert player_ratings(player_ids=ids) == {rated.pk: 1612.5, other.pk: 1433.0, newcomer.pk: 1500.0}
    with django_assert_num_queries(1):
        assert player_ratings(player_ids=ids, club_id=club.pk) == {
            rated.pk: 1540.25,
            other.pk: 1500.0,
            newcomer.pk: 1500.0,
        }
    assert player_ratings(player_ids=[]) == {}


def test_player_ratings_query_count_does_not_grow_with_players(django_assert_num_queries):
    pool = RatingPool.objects.create(club=None)
    players = [PlayerFactory() for _ in range(30)]
    PlayerRating.objects.bulk_create(PlayerRating(pool=pool, player=p, rating=1500 + i) for i, p in enumerate(players))
    with django_assert_num_queries(1):
        result = player_ratings(player_ids=(p.pk for p in players))
    assert result[players[29].pk] == 1529.0
