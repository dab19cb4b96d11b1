"""Two copies of one write, sent at the same instant with one Idempotency-Key (a phone's retry racing the
request it thinks was lost), on PostgreSQL: the write is done once, and both get the same answer.

The first request inserts the key's row in its own transaction and is slowed down while it holds the match
lock; the second's insert of the same key waits on the unique index until the first commits, then reads the
kept answer (base.idempotency). The control sends the two without a key: both are then done, each on its own,
so it is the key that makes them one.
"""

import pytest
from django.test import Client

from base.idempotency import REPLAYED_HEADER
from base.models import IdempotentRequest
from chouette.models import ChouetteSession, SessionEvent
from games.matchplay import services
from games.matchplay.services import common
from games.models.matches import MatchDispute, MatchReport
from notifications.models import Notification
from tests.chouette.factories import table
from tests.clubs.factories import ClubFactory, MembershipFactory
from tests.games.matchplay.factories import MatchFactory
from tests.schema_check import SchemaCheckingClient, api_schema
from tests.services.concurrency import run_at_once, then_wait
from tests.services.test_lock_timeout import row_held

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def reported():
    club = ClubFactory()
    a, b = MembershipFactory(club=club).player, MembershipFactory(club=club).player
    match = MatchFactory(club=club, player_a=a, player_b=b)
    services.submit_report(actor=a.user, match=match, method="final_score", scores=(5, 1))
    return match, a.user, b.user


@pytest.fixture
def slow_lock(monkeypatch):
    monkeypatch.setattr(common, "lock_match", then_wait(common.lock_match))


def send_at_once(user, path, body, keys):
    """POST the same body once per key (None: no header) at the same instant; (status, json, replayed) each."""

    def sender(key):
        def send():
            client = SchemaCheckingClient()
            client.force_authenticate(user)
            extra = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
            response = client.post(path, body, format="json", **extra)
            return response.status_code, response.json(), response.get(REPLAYED_HEADER)

        return send

    api_schema()  # built before the threads: drf-spectacular's lazy set-up is not thread-safe
    answers = run_at_once(*(sender(key) for key in keys), timeout=30)
    for answer in answers:
        if isinstance(answer, Exception):
            raise answer
    return answers


def test_one_confirmation_sent_twice_at_once_with_one_key_is_done_once(reported, slow_lock):
    match, _, user_b = reported
    before = Notification.objects.count()
    answers = send_at_once(user_b, f"/api/v1/matches/{match.pk}/confirm/", {"version": 1}, ["tap-1", "tap-1"])
    assert [status for status, _, _ in answers] == [200, 200]
    assert answers[0][1] == answers[1][1]
    assert sorted(str(replayed) for _, _, replayed in answers) == ["None", "true"]  # one did it, one was told
    assert MatchReport.objects.filter(match=match, confirmed=True).count() == 1
    assert IdempotentRequest.objects.filter(key="tap-1").count() == 1
    told = Notification.objects.count() - before
    # The same confirmation sent once more, without a race, tells nobody anything new.
    again = send_at_once(user_b, f"/api/v1/matches/{match.pk}/confirm/", {"version": 1}, ["tap-1"])
    assert again[0][:2] == answers[0][:2] and Notification.objects.count() - before == told


def test_one_dispute_sent_twice_at_once_with_one_key_is_recorded_once(reported, slow_lock):
    match, _, user_b = reported
    body = {"version": 1, "comment": "It was 5-3."}
    answers = send_at_once(user_b, f"/api/v1/matches/{match.pk}/disputes/", body, ["d-1", "d-1"])
    assert [status for status, _, _ in answers] == [201, 201] and answers[0][1] == answers[1][1]
    assert MatchDispute.objects.filter(report__match=match).count() == 1


def test_without_a_key_both_copies_are_done(reported, slow_lock):
    match, _, user_b = reported
    body = {"version": 1, "comment": "It was 5-3."}
    answers = send_at_once(user_b, f"/api/v1/matches/{match.pk}/disputes/", body, [None, None])
    statuses = sorted(status for status, _, _ in answers)
    # Serialised by the match lock, the second is done on its own: a second dispute, or refused as one too many
    # (409), never answered with the first one's dispute as a keyed retry is.
    assert statuses in ([201, 201], [201, 409])
    assert not IdempotentRequest.objects.exists()
    if statuses == [201, 201]:
        assert MatchDispute.objects.filter(report__match=match).count() == 2


def test_a_busy_answer_is_not_kept_so_the_retry_with_the_key_does_the_work(settings):
    """409 `busy` (a row lock waited on past LOCK_TIMEOUT_MS) wrote nothing; kept, it would answer every retry of
    the key with "busy" for a day. The API's and the page's retries go through once the row is free."""
    settings.LOCK_TIMEOUT_MS = 300
    session, players, _ = table(ClubFactory())
    user = players["A"].user
    client = SchemaCheckingClient()
    client.force_authenticate(user)
    path = f"/api/v1/chouette/sessions/{session.pk}/games/"
    page = Client()
    page.force_login(user)
    form = f"/chouette/{session.club.slug}/{session.pk}/games/"
    with row_held(ChouetteSession, session.pk):
        busy = client.post(path, {"winner": "team"}, format="json", HTTP_IDEMPOTENCY_KEY="g-1")
        page.post(form, {"winner": "team", "idempotency_key": "g-2"})
    assert busy.status_code == 409 and busy.json()["code"] == "busy"
    assert not IdempotentRequest.objects.exists()
    done = client.post(path, {"winner": "team"}, format="json", HTTP_IDEMPOTENCY_KEY="g-1")
    again = client.post(path, {"winner": "team"}, format="json", HTTP_IDEMPOTENCY_KEY="g-1")
    assert (done.status_code, again.status_code) == (201, 201) and again.json() == done.json()
    assert SessionEvent.objects.filter(session=session, kind="game").count() == 1
    assert page.post(form, {"winner": "team", "idempotency_key": "g-2"}).status_code == 302
    assert page.post(form, {"winner": "team", "idempotency_key": "g-2"}).status_code == 302
    assert SessionEvent.objects.filter(session=session, kind="game").count() == 2
