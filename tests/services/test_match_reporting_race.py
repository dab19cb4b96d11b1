"""Simultaneous reports and confirmations on PostgreSQL: the match row lock leaves exactly one confirmed version,
and a retried request with the same idempotency key creates nothing new.

Each thread sends a real API request through its own database connection. Every request is slowed down right
after it took the match row, so the two always overlap; the last test takes the lock away and shows the
race then reaches the database constraints (409), i.e. the lock is what makes the requests line up.
"""


import pytest

from games.matchplay import services
from games.matchplay.services import common
from games.models.matches import Match, MatchReport
from tests.clubs.factories import ClubFactory, MembershipFactory
from tests.games.matchplay.factories import MatchFactory
from tests.services.concurrency import post_at_once, then_meet, then_wait

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]



@pytest.fixture
def setting():
    club = ClubFactory()
    a, b = MembershipFactory(club=club).player, MembershipFactory(club=club).player
    director = MembershipFactory(club=club, role="director").player.user
    return MatchFactory(club=club, player_a=a, player_b=b), a.user, b.user, director


@pytest.fixture
def slow_lock(monkeypatch):
    monkeypatch.setattr(common, "lock_match", then_wait(common.lock_match))


@pytest.fixture
def no_lock(monkeypatch):
    def read(match):
        return Match.objects.select_related("player_a", "player_b", "club").get(pk=match.pk)

    monkeypatch.setattr(common, "lock_match", then_meet(read))


def simultaneously(*calls):
    """POST (user, path, body) requests at the same instant from separate threads; return the status codes."""
    return [status for status, _ in post_at_once(*calls)]


def reports_url(match):
    return f"/api/v1/matches/{match.pk}/reports/"


def test_two_reports_at_once_get_consecutive_versions(setting, slow_lock):
    match, user_a, user_b, _ = setting
    statuses = simultaneously(
        (user_a, reports_url(match), {"method": "final_score", "score_a": 5, "score_b": 1}),
        (user_b, reports_url(match), {"method": "final_score", "score_a": 5, "score_b": 2}),
    )
    assert statuses == [201, 201]
    assert sorted(MatchReport.objects.filter(match=match).values_list("version", flat=True)) == [1, 2]


def test_retried_report_with_the_same_key_creates_nothing_new(setting, slow_lock):
    match, user_a, _, _ = setting
    body = {"method": "final_score", "score_a": 5, "score_b": 1, "idempotency_key": "phone-42"}
    statuses = simultaneously((user_a, reports_url(match), body), (user_a, reports_url(match), body))
    assert sorted(statuses) == [200, 201]
    assert MatchReport.objects.filter(match=match).count() == 1


def test_two_confirmations_at_once_leave_one_confirmed_version(setting, slow_lock):
    match, user_a, user_b, director = setting
    services.submit_report(actor=user_a, match=match, method="final_score", scores=(5, 1))
    services.submit_report(actor=user_b, match=match, method="final_score", scores=(5, 3))
    confirm = f"/api/v1/matches/{match.pk}/confirm/"
    statuses = simultaneously((user_b, confirm, {"version": 1}), (director, confirm, {"version": 2}))
    # Serialised by the lock: the second confirmation sees the first and either wins (a director) or is
    # refused because its version was retired (409). Never two confirmed versions, never a 500.
    assert all(code in (200, 409) for code in statuses) and 200 in statuses
    confirmed = MatchReport.objects.filter(match=match, confirmed=True)
    assert confirmed.count() == 1
    match.refresh_from_db()
    assert (match.score_a, match.score_b) == (confirmed.get().score_a, confirmed.get().score_b)


def test_same_version_confirmed_twice_at_once_is_confirmed_once(setting, slow_lock):
    match, user_a, user_b, director = setting
    services.submit_report(actor=user_a, match=match, method="final_score", scores=(5, 1))
    confirm = f"/api/v1/matches/{match.pk}/confirm/"
    statuses = simultaneously((user_b, confirm, {"version": 1}), (director, confirm, {"version": 1}))
    assert statuses == [200, 200]
    assert MatchReport.objects.filter(match=match, confirmed=True).count() == 1


def test_without_the_row_lock_the_race_reaches_the_database(setting, no_lock):
    match, user_a, user_b, _ = setting
    body = {"method": "final_score", "score_a": 5, "score_b": 1, "idempotency_key": "phone-42"}
    retried = simultaneously((user_a, reports_url(match), body), (user_a, reports_url(match), body))
    other = {"method": "final_score", "score_a": 5, "score_b": 2}
    both = simultaneously((user_a, reports_url(match), other), (user_b, reports_url(match), other))
    # Both requests read "no such key yet" / the same highest version; only the unique constraints stop the
    # second insert, and the caller gets a 409 instead of the clean answer the lock gives.
    assert sorted(retried) == [201, 409]
    assert sorted(both) == [201, 409]
