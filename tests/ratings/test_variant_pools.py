"""Ratings keep a pool per variant: a long nardy result never moves a backgammon rating, unless the club merges
every variant into its standard pool (then the club's pools are rebuilt)."""

import pytest
from django.core.exceptions import PermissionDenied

from ratings.core.fibs import rate
from ratings.models import PlayerRating, RatedMatch
from ratings.selectors import player_ratings, pool_for
from ratings.services import pools as services
from tests.clubs.factories import MembershipFactory
from tests.ratings.builders import played

pytestmark = pytest.mark.django_db


@pytest.fixture
def people(club, director_user):
    return director_user, [MembershipFactory(club=club).player for _ in range(2)]


def test_a_long_nardy_result_is_rated_in_the_long_nardy_pools_only(club, people):
    director, (a, b) = people
    match = played(director, club, a, b, length=5, variant="long_nardy")
    pools = {(row.pool.club_id, row.pool.variant) for row in RatedMatch.objects.filter(match=match)}
    assert pools == {(None, "long_nardy"), (club.pk, "long_nardy")}
    # The backgammon ratings (every page's "the rating") have not moved.
    assert player_ratings(player_ids=[a.pk, b.pk]) == {a.pk: 1500, b.pk: 1500}
    assert player_ratings(player_ids=[a.pk], club_id=club.pk) == {a.pk: 1500}
    expected = rate(winner_rating=1500, loser_rating=1500, winner_experience=0, loser_experience=0, length=5)
    nardy_pool = pool_for(club=club, variant="long_nardy")
    assert PlayerRating.objects.get(pool=nardy_pool, player=a).rating == pytest.approx(1500 + expected.winner_change)


def test_a_club_that_merges_variants_rates_them_in_its_standard_pool(
    club, people, admin_user, django_capture_on_commit_callbacks
):
    director, (a, b) = people
    standard = played(director, club, a, b, length=5, day=0)
    nardy = played(director, club, b, a, length=5, day=1, variant="long_nardy")
    with django_capture_on_commit_callbacks(execute=True):
        services.set_merge_variants(actor=admin_user, club=club, merge=True)
    club_standard = pool_for(club=club)
    assert club_standard.merge_variants is True
    rows = RatedMatch.objects.filter(pool__club=club)
    assert sorted(rows.values_list("match_id", "pool__variant")) == [(standard.pk, "standard"), (nardy.pk, "standard")]
    # One win each at equal lengths from 1500: the club rating reflects both, the overall standard pool only one.
    assert PlayerRating.objects.get(pool=club_standard, player=a).matches == 2
    assert player_ratings(player_ids=[a.pk])[a.pk] > 1500
    # A later nardy result goes straight into the merged pool.
    later = played(director, club, a, b, length=5, day=2, variant="long_nardy")
    assert RatedMatch.objects.get(match=later, pool__club=club).pool == club_standard
    with django_capture_on_commit_callbacks(execute=True):
        services.set_merge_variants(actor=admin_user, club=club, merge=False)
    assert set(RatedMatch.objects.filter(pool=club_standard).values_list("match_id", flat=True)) == {standard.pk}


def test_only_a_club_admin_merges_the_variants(club, member_user):
    with pytest.raises(PermissionDenied):
        services.set_merge_variants(actor=member_user, club=club, merge=True)


def test_a_club_admin_merges_the_variants_through_the_api(club, admin_user, member_user, api_as):
    url = f"/api/v1/ratings/clubs/{club.slug}/merge-variants/"
    refused = api_as(member_user).post(url, {"merge_variants": True}, format="json")
    assert refused.status_code == 403
    merged = api_as(admin_user).post(url, {"merge_variants": True}, format="json")
    assert merged.status_code == 200 and merged.json() == {"merge_variants": True}
    assert pool_for(club=club).merge_variants is True
