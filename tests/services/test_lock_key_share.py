"""A service's row lock (base.locks.lock) is FOR NO KEY UPDATE: it keeps other services off the row's values but
lets another transaction insert rows that reference it. A rating pool's rebuild inserts explanation rows that
reference matches (their foreign-key check takes a key-share lock on each match) while confirmations lock
matches and then wait on the pool the rebuild holds; with FOR UPDATE the two deadlocked under load (PostgreSQL).
"""

import threading

import pytest
from django.db import connection, transaction

from base.locks import lock
from games.models.matches import Match
from ratings.models import RatedMatch
from ratings.services import pools
from tests.clubs.factories import MembershipFactory
from tests.ratings.builders import played

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def test_a_row_a_service_holds_can_still_be_referenced_by_a_new_row(club, director_user, settings):
    settings.LOCK_TIMEOUT_MS = 2000
    winner, loser = (m.player for m in MembershipFactory.create_batch(2, club=club))
    match = played(director_user, club, winner, loser)
    pool = pools.club_pool(club.pk)
    RatedMatch.objects.filter(pool=pool).delete()
    held, release, outcome = threading.Event(), threading.Event(), {}

    def hold():
        try:
            with transaction.atomic():
                lock(Match.objects).get(pk=match.pk)
                held.set()
                release.wait(20)
        finally:
            connection.close()

    holder = threading.Thread(target=hold)
    holder.start()
    try:
        assert held.wait(10)
        with transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute("SET CONSTRAINTS ALL IMMEDIATE; SET LOCAL lock_timeout = 1000")
            RatedMatch.objects.create(
                pool=pool, match=match, played_at=match.finished_at, winner=winner, loser=loser, length=5,
                winner_rating=1500, loser_rating=1500, winner_experience=0, loser_experience=0, difference=0,
                upset_probability=0.5, winner_k=5, loser_k=5, winner_change=1, loser_change=-1,
            )  # fmt: skip
            outcome["inserted"] = True
    finally:
        release.set()
        holder.join()
    assert outcome == {"inserted": True}
