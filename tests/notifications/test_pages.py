"""The bell, the list, marking read, the choices page, the unsubscribe link, and a club's webhook page with its
last deliveries."""

from datetime import timedelta

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from notifications import services
from notifications.models import ClubWebhook, Delivery, Notification, WebhookDelivery
from tests.clubs.factories import ClubFactory, MembershipFactory, PlayerFactory
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


def test_a_club_admin_sees_the_last_deliveries_with_their_state_and_nobody_else_does(
    club, admin_user, member_user, director_user
):
    ClubWebhook.objects.create(club=club, url="https://hooks.example.test/hook")
    sent = WebhookDelivery.objects.create(
        club=club, kind="draw_released", object_key="flight:1", delivery=Delivery.SENT, attempts=1
    )
    failed = WebhookDelivery.objects.create(
        club=club,
        kind="ladder_challenge",
        object_key="challenge:7",
        delivery=Delivery.FAILED,
        attempts=1,
        last_error="WebhookAnswer: HTTP 302, a redirect to http://127.0.0.1/: redirects are not followed",
    )
    for number in range(25):  # older ones: only the last 20 in all are shown
        WebhookDelivery.objects.create(club=club, kind="match_ready", object_key=f"match:{number}")
    WebhookDelivery.objects.filter(pk__in=[sent.pk, failed.pk]).update(created_at=timezone.now() + timedelta(hours=1))
    other = ClubFactory()
    WebhookDelivery.objects.create(club=other, kind="draw_released", object_key="flight:secret", last_error="SECRET")

    page = signed_in(admin_user).get(f"/clubs/{club.slug}/webhook/").content.decode()
    table = page[page.index('<table class="deliveries">') :]
    assert table.count("<tr>") == 1 + 20  # the head and the last 20
    assert "A draw is released" in table and '<td class="status-sent">sent</td>' in table
    assert '<td class="status-failed">failed</td>' in table and "redirects are not followed" in table
    assert "SECRET" not in page

    other_admin = MembershipFactory(club=other, role="admin").player.user
    for user in (member_user, director_user, other_admin):
        answer = signed_in(user).get(f"/clubs/{club.slug}/webhook/")
        assert answer.status_code == 403 and "redirects are not followed" not in answer.content.decode()
    assert Client().get(f"/clubs/{club.slug}/webhook/").status_code in (302, 403)


def _unsubscribe_url(user, kind="match_ready"):
    return reverse("notifications:unsubscribe", kwargs={"token": services.unsubscribe_token(user.pk, kind)})


def _mailed(user, kind="match_ready"):
    return services.wants(services.settings_for(user).choices, kind, "email")


def test_opening_the_unsubscribe_link_changes_nothing_and_shows_one_button(club):
    anna = person(club, "Anna Alt").user
    answer = Client().get(_unsubscribe_url(anna))
    page = answer.content.decode()
    assert answer.status_code == 200
    assert page.count('<form method="post"><button type="submit">Unsubscribe</button></form>') == 1
    assert "Your match is ready" in page
    assert _mailed(anna)  # a mail scanner following the link unsubscribes nobody


def test_the_button_unsubscribes_from_that_kind_only(club):
    anna = person(club, "Anna Alt").user
    client = Client(enforce_csrf_checks=True)
    answer = client.post(_unsubscribe_url(anna))
    assert answer.status_code == 200 and "no more e-mails of this kind" in answer.content.decode()
    assert not _mailed(anna) and _mailed(anna, "draw_released")


def test_a_mail_clients_one_click_post_unsubscribes_without_a_session_or_csrf_token(club):
    """RFC 8058: the client POSTs `List-Unsubscribe=One-Click` to the List-Unsubscribe URL."""
    anna = person(club, "Anna Alt").user
    client = Client(enforce_csrf_checks=True)
    answer = client.post(
        _unsubscribe_url(anna),
        "List-Unsubscribe=One-Click",
        content_type="application/x-www-form-urlencoded",
    )
    assert answer.status_code == 200 and not _mailed(anna)


@pytest.mark.parametrize("method", ["get", "post"])
def test_a_bad_unsubscribe_link_gets_a_clear_page(club, method):
    anna = person(club, "Anna Alt").user
    forged = services.unsubscribe_token(anna.pk, "match_ready")[:-3] + "abc"
    gone = PlayerFactory().user
    gone_url = _unsubscribe_url(gone)
    gone.delete()
    for url in ("/notifications/unsubscribe/forged/", f"/notifications/unsubscribe/{forged}/", gone_url):
        answer = getattr(Client(enforce_csrf_checks=True), method)(url)
        assert answer.status_code == 400 and "This unsubscribe link is not valid." in answer.content.decode()
    assert _mailed(anna)
