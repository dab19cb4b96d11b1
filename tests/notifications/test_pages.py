"""The bell, the list, marking read, the choices page, and a club's webhook page."""

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from notifications import services
from notifications.models import ClubWebhook, Notification
from tests.notifications.conftest import person

pytestmark = pytest.mark.django_db


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def tell(user, n=1, kind="ladder_challenge"):
    for i in range(n):
        services.notify(
            kind, f"challenge:{i}", {user.pk: {"challenger": "Bea", "ladder": "Club", "defender": "X"}}, url="/matches/"
        )


def test_the_bell_shows_the_unread_count_without_a_query_of_its_own(club):
    anna = person(club, "Anna Alt").user
    client = signed_in(anna)
    with CaptureQueriesContext(connection) as before:
        client.get("/")
    tell(anna, 3)
    with CaptureQueriesContext(connection) as after:
        page = client.get("/").content.decode()
    assert '<span class="count">3</span>' in page
    assert len(after) == len(before)


def test_the_list_shows_each_line_and_marking_read_clears_the_bell(club):
    anna = person(club, "Anna Alt").user
    tell(anna, 2)
    client = signed_in(anna)
    page = client.get("/notifications/").content.decode()
    assert page.count("Bea challenged you on the ladder Club.") == 2
    first = Notification.objects.filter(recipient=anna).first()
    answer = client.post(f"/notifications/{first.pk}/read/")
    assert answer.status_code == 302 and answer["Location"] == "/matches/"
    assert Notification.objects.filter(recipient=anna, read_at__isnull=True).count() == 1
    client.post("/notifications/read/")
    assert '<span class="count">' not in client.get("/").content.decode()


def test_someone_elses_notification_cannot_be_marked_read(club):
    anna, bernd = person(club, "Anna Alt").user, person(club, "Bernd Berg").user
    tell(anna)
    row = Notification.objects.get(recipient=anna)
    signed_in(bernd).post(f"/notifications/{row.pk}/read/")
    row.refresh_from_db()
    assert row.read_at is None


def test_the_choices_page_turns_a_kind_off_per_channel(club):
    anna = person(club, "Anna Alt").user
    client = signed_in(anna)
    assert (
        'name="ladder_challenge.email" id="ladder_challenge.email" '
        in client.get("/notifications/preferences/").content.decode()
    )
    everything_but = {
        f"{kind}.{channel}": "on"
        for kind in ("match_ready", "ladder_challenge")
        for channel in ("in_app", "email")
        if (kind, channel) != ("ladder_challenge", "in_app")
    }
    assert client.post("/notifications/preferences/", everything_but).status_code == 302
    tell(anna)
    assert not Notification.objects.filter(recipient=anna, in_app=True).exists()
    assert Notification.objects.get(recipient=anna).delivery == "due"  # still mailed
    services.notify("confirm_wanted", "match:1:v1", {anna.pk: {"opponent": "B", "score": "1–0"}})
    assert not Notification.objects.filter(kind="confirm_wanted").exists()  # unticked: neither channel


def test_a_club_admin_sets_the_webhook_and_a_member_may_not(club, admin_user, member_user, receiver):
    admin = signed_in(admin_user)
    assert admin.get(f"/clubs/{club.slug}/webhook/").status_code == 200
    assert admin.post(f"/clubs/{club.slug}/webhook/", {"url": receiver.url, "is_active": "on"}).status_code == 302
    webhook = ClubWebhook.objects.get(club=club)
    assert webhook.secret in admin.get(f"/clubs/{club.slug}/webhook/").content.decode()
    assert signed_in(member_user).get(f"/clubs/{club.slug}/webhook/").status_code == 403
    assert admin.post(f"/clubs/{club.slug}/webhook/", {"url": "ftp://example.org/"}).status_code == 400
