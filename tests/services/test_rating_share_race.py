"""Results of two events confirmed at once on PostgreSQL: both are rated in the same pools (the club's and the
overall one), and neither waits for the other. A result shares its pools (FOR SHARE) and locks only its two
players' rating rows; a rebuild of a pool still has the pool to itself.

The first result is held open inside its transaction after everything it wrote, until the second is done: were
the second to wait on a lock of the first, it would still be waiting when the hold ends."""

import pytest

from ratings.models import PlayerRating, RatedMatch, RatingPool
from ratings.services import pools
from tests.clubs.factories import ClubFactory, MembershipFactory
from tests.services.concurrency import second_while_first_is_held
from tests.tournaments.builders import drawn_event, ready_slots, win

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

HOLD_SECONDS = 4  # below LOCK_TIMEOUT_MS (5 s): a second result that waited would not finish in time


def ratings_now() -> dict:
    return {
        (r.pool_id, r.player_id): (round(r.rating, 9), r.experience, r.matches, r.wins)
        for r in PlayerRating.objects.all()
    }


def test_results_of_two_events_are_rated_side_by_side_and_equal_a_rebuild():
    club = ClubFactory()
    director = MembershipFactory(club=club, role="director").player.user
    first = ready_slots(drawn_event(club, director, 8)[1]["main"])[0]
    second = ready_slots(drawn_event(club, director, 8)[1]["main"])[0]
    pools.overall_pool(), pools.club_pool(club.pk)  # a site's pools exist before its results
    took = second_while_first_is_held(
        lambda: win(director, first), lambda: win(director, second), hold_seconds=HOLD_SECONDS
    )
    assert took < HOLD_SECONDS - 1  # rated while the first still held its pools shared
    pools_of_club = RatingPool.objects.filter(club__isnull=True) | RatingPool.objects.filter(club=club)
    assert RatedMatch.objects.filter(pool__in=pools_of_club).count() == 4  # two results in two pools each
    assert not RatingPool.objects.filter(recompute_pending=True).exists()
    incremental = ratings_now()
    for pool in RatingPool.objects.all():
        pools.recompute_now(pool=pool)
    assert ratings_now() == incremental  # the same numbers as rating the history in date order
