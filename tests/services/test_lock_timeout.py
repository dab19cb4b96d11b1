"""A request that waits longer than LOCK_TIMEOUT_MS for a row another transaction holds gives up: the API answers
409 "busy" and the page shows "try again in a moment", at once rather than after the holder lets go, and nothing
of the request is stored (PostgreSQL: SQLite has no row locks).

A second connection, in a thread, holds the chouette table's row lock the way a slow request would."""

import threading
import time
from contextlib import contextmanager

import pytest
from django.db import connection, transaction
from django.test import Client

from chouette.models import ChouetteSession, SessionEvent
from clubs import services as club_services
from clubs.models import Membership
from tests.chouette.factories import table
from tests.clubs.factories import ClubFactory, MembershipFactory, UserFactory
from tests.schema_check import SchemaCheckingClient

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

BUSY = "Someone else is changing this right now; try again in a moment."
HOLD_SECONDS = 20  # far longer than the timeout: a prompt answer is the timeout's, not the holder letting go


@pytest.fixture
def setting(settings):
    settings.LOCK_TIMEOUT_MS = 300
    session, players, _director = table(ClubFactory())
    return session, players["A"].user


@contextmanager
def row_held(model, pk):
    """Another transaction holds the row's lock until the block ends."""
    held, release = threading.Event(), threading.Event()

    def hold():
        try:
            with transaction.atomic():
                model.objects.select_for_update().get(pk=pk)
                held.set()
                release.wait(HOLD_SECONDS)
        finally:
            connection.close()

    holder = threading.Thread(target=hold)
    holder.start()
    try:
        assert held.wait(10)
        yield
    finally:
        release.set()
        holder.join()


def test_the_api_answers_409_busy_when_the_row_stays_locked_past_the_timeout(setting):
    session, user = setting
    client = SchemaCheckingClient()
    client.force_authenticate(user)
    with row_held(ChouetteSession, session.pk):
        started = time.monotonic()
        response = client.post(f"/api/v1/chouette/sessions/{session.pk}/games/", {"winner": "team"}, format="json")
        waited = time.monotonic() - started
    assert response.status_code == 409
    assert response.json()["detail"] == BUSY
    assert waited < 5
    assert not SessionEvent.objects.filter(session=session, kind="game").exists()
    # once the row is free the same request goes through
    again = client.post(f"/api/v1/chouette/sessions/{session.pk}/games/", {"winner": "team"}, format="json")
    assert again.status_code == 201


def test_the_page_says_try_again_in_german_too(setting):
    session, user = setting
    client = Client(headers={"accept-language": "de"})
    client.force_login(user)
    with row_held(ChouetteSession, session.pk):
        page = f"/chouette/{session.club.slug}/{session.pk}/games/"
        response = client.post(page, {"winner": "team", "expected_number": "1"}, follow=True)
    assert response.status_code == 200
    assert "Gerade ändert jemand anderes diese Daten; bitte gleich noch einmal versuchen." in response.text
    assert not SessionEvent.objects.filter(session=session, kind="game").exists()


def test_a_page_that_does_not_catch_refusals_itself_answers_409(settings):
    """Accepting an invitation calls the service directly (base.middleware.LockBusyMiddleware answers)."""
    settings.LOCK_TIMEOUT_MS = 300
    club = ClubFactory()
    director = MembershipFactory(club=club, role="director").player.user
    invitee = UserFactory()
    membership = club_services.invite(actor=director, club=club, username=invitee.username)
    client = Client()
    client.force_login(invitee)
    with row_held(Membership, membership.pk):
        response = client.post(f"/invitations/{membership.pk}/accept/")
    assert response.status_code == 409
    assert BUSY in response.text
    assert not Membership.objects.get(pk=membership.pk).is_active
