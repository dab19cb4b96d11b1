"""No work is lost when a service fails: with the broker (a Redis of the test's own) down, an upload, a correction
and a ratings recompute still answer success, their rows stay due, and once the broker is back the sweep that a
real beat sends gets them done by a real worker. A worker killed (SIGKILL) mid-verification leaves its record
claimed; the sweep hands it to the next worker once the claim is stale.

The figures printed (run with -s) are the time from the broker's restart, or from the kill, to the verdict."""

import os
import signal
import time

import pytest
from rest_framework.test import APIClient

from games.models import GameRecord, RecordStatus
from ratings.models import RatedMatch, RatingPool
from tests.clubs.factories import ClubFactory, MembershipFactory, UserFactory
from tests.paths import CORPUS
from tests.ratings.builders import played
from tests.services.worker import wait_for

pytestmark = [pytest.mark.services, pytest.mark.real_worker, pytest.mark.django_db(transaction=True)]

VALID_RECORD = (CORPUS / "gnubg" / "standard_0001_3p.mat").read_bytes()


def upload(user, data: bytes) -> int:
    client = APIClient()
    client.force_authenticate(user)
    started = time.monotonic()
    response = client.post("/api/v1/game-records/", {"text": data.decode()}, format="json")
    assert response.status_code == 201, response.content
    assert time.monotonic() - started < 10, "the upload waited too long for the broker"
    return response.json()["records"][0]["id"]


def verdict_of(record_id: int):
    record = GameRecord.objects.get(pk=record_id)
    return record if record.status in RecordStatus.finished() else None


def test_an_upload_while_the_broker_is_down_succeeds_and_is_verified_after_it_is_back(
    private_broker, celery, shared_media
):
    private_broker.stop()
    worker, _beat = celery("worker"), celery("beat")  # running, and waiting for the broker
    record_id = upload(UserFactory(), VALID_RECORD)
    record = GameRecord.objects.get(pk=record_id)
    assert record.status == RecordStatus.PENDING and record.queued_at is None  # due: its task was never sent

    private_broker.start()
    restarted = time.monotonic()
    record = wait_for(lambda: verdict_of(record_id), worker, seconds=120, what="verdict after the broker restart")
    print(f"\nFIGURE broker restart -> verdict: {time.monotonic() - restarted:.1f} s (beat every 1 s)")
    assert record.status == RecordStatus.VALID and record.verdict["final_score"] == [1, 4]


def test_uploading_a_stuck_record_again_sends_its_verification_again(private_broker, celery, shared_media):
    user = UserFactory()
    private_broker.stop()
    record_id = upload(user, VALID_RECORD)
    private_broker.start()
    worker = celery("worker")  # no beat: only the second upload can send the task
    assert upload(user, VALID_RECORD) == record_id  # the same bytes link the same record
    record = wait_for(lambda: verdict_of(record_id), worker, seconds=120, what="verdict after the second upload")
    assert record.status == RecordStatus.VALID


def test_a_record_whose_worker_was_killed_mid_verification_gets_its_verdict(celery, shared_media):
    slow = celery("worker", app="tests.services.slow_worker", env={"SLOW_VERIFY_SECONDS": "600"})
    celery("beat")
    record_id = upload(UserFactory(), VALID_RECORD)
    wait_for(
        lambda: GameRecord.objects.filter(pk=record_id, status=RecordStatus.VERIFYING).exists(),
        slow,
        seconds=120,
        what="claim by the slow worker",
    )
    time.sleep(1)  # well inside the 600 s verification
    os.kill(slow.pid, signal.SIGKILL)
    killed = time.monotonic()
    slow.wait()
    assert GameRecord.objects.get(pk=record_id).status == RecordStatus.VERIFYING  # nobody finishes it by itself

    worker = celery("worker")
    record = wait_for(lambda: verdict_of(record_id), worker, seconds=120, what="verdict after the kill")
    print(f"\nFIGURE worker kill -> verdict: {time.monotonic() - killed:.1f} s (stale after 5 s, beat every 1 s)")
    assert record.status == RecordStatus.VALID


@pytest.fixture
def rated_club(private_broker):
    """A club with four rated matches, rated incrementally while the broker was up."""
    club = ClubFactory()
    director = MembershipFactory(club=club, role="director").player.user
    a, b, c, d = (MembershipFactory(club=club).player for _ in range(4))
    matches = [played(director, club, w, lo, day=day) for day, (w, lo) in enumerate([(a, b), (b, c), (a, c), (d, a)])]
    pool = RatingPool.objects.get(club=club)
    assert not pool.recompute_pending and RatedMatch.objects.filter(pool=pool).count() == 4
    return club, director, pool, matches


def recovered(pool):
    pool.refresh_from_db()
    return not pool.recompute_pending and pool.recompute_count >= 1


def test_a_correction_while_the_broker_is_down_succeeds_and_the_pool_recovers(private_broker, celery, rated_club):
    club, director, pool, matches = rated_club
    private_broker.stop()
    worker, _beat = celery("worker"), celery("beat")
    client = APIClient()
    client.force_authenticate(director)
    first = matches[0]
    response = client.post(
        f"/api/v1/matches/{first.pk}/override/",
        {"method": "final_score", "score_a": 0, "score_b": first.length},  # the other side won after all
        format="json",
    )
    assert response.status_code == 201, response.content
    pool.refresh_from_db()
    assert pool.recompute_pending and pool.recompute_requested_at is None  # due, not sent

    private_broker.start()
    restarted = time.monotonic()
    wait_for(lambda: recovered(pool), worker, seconds=120, what="recomputed pool")
    print(f"\nFIGURE broker restart -> pool recomputed: {time.monotonic() - restarted:.1f} s")
    assert pool.recompute_count == 1
    assert RatedMatch.objects.get(pool=pool, match=first).winner_id == first.player_b_id


def test_a_recompute_asked_while_the_broker_is_down_runs_once_it_is_back(private_broker, celery, rated_club):
    club, _director, pool, _matches = rated_club
    admin = MembershipFactory(club=club, role="admin").player.user
    private_broker.stop()
    worker, _beat = celery("worker"), celery("beat")
    client = APIClient()
    client.force_authenticate(admin)
    response = client.post(f"/api/v1/ratings/clubs/{club.slug}/recompute/")
    assert response.status_code == 202, response.content
    pool.refresh_from_db()
    assert pool.recompute_pending

    private_broker.start()
    wait_for(lambda: recovered(pool), worker, seconds=120, what="recomputed pool")
    assert pool.recompute_count == 1 and RatedMatch.objects.filter(pool=pool).count() == 4
