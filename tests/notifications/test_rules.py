"""What is refused and what stays cheap: a webhook into the server's own network, and queuing a result's
notifications for many watchers."""

import pytest
from django.utils import timezone

from bench.bench_notify import queries_per_result
from notifications import services
from notifications.models import ClubWebhook, Delivery, Notification, WebhookDelivery
from tests.refusals import ValidationError

pytestmark = pytest.mark.django_db

PRIVATE = [
    "https://127.0.0.1/hook",
    "https://localhost/hook",
    "https://10.1.2.3/hook",
    "https://192.168.0.10/hook",
    "https://169.254.169.254/latest/meta-data",
    "https://[::1]/hook",
    "https://0.0.0.0/hook",
]


@pytest.mark.parametrize("url", PRIVATE)
def test_a_webhook_into_a_private_or_loopback_address_is_refused_in_production(club, settings, url):
    settings.WEBHOOK_ALLOW_PRIVATE = False
    with pytest.raises(ValidationError):
        services.set_webhook(club=club, url=url)
    assert not ClubWebhook.objects.exists()


def test_production_wants_https_and_a_public_address_and_checks_again_before_each_post(club, settings, receiver):
    settings.WEBHOOK_ALLOW_PRIVATE = False
    with pytest.raises(ValidationError, match="https"):
        services.set_webhook(club=club, url="http://93.184.216.34/hook")
    # Saved while allowed (or the name pointed elsewhere then): the post is still refused, and nothing arrives.
    ClubWebhook.objects.create(club=club, url=receiver.url)
    row = WebhookDelivery.objects.create(club=club, kind="draw_released", object_key="flight:1", params={"event": "X"})
    assert services.send_webhook(row.pk) is False
    row.refresh_from_db()
    assert row.delivery == Delivery.DUE and "https" in row.last_error and receiver.posts == []


def test_the_setting_allows_a_loopback_receiver_for_tests_and_local_work(club, receiver):
    webhook = services.set_webhook(club=club, url=receiver.url)
    row = WebhookDelivery.objects.create(club=club, kind="draw_released", object_key="flight:1", params={"event": "X"})
    assert services.send_webhook(row.pk) is True
    assert receiver.payloads()[0]["content"] == "The draw of X is released."
    assert webhook.secret and len(webhook.secret) == 64
    row.refresh_from_db()
    assert row.delivered_at <= timezone.now()


def test_queuing_a_results_notifications_costs_the_same_queries_for_1_and_50_watchers(db):
    assert queries_per_result(1) == queries_per_result(50)


def test_the_admin_form_refuses_a_private_address_too(club, settings):
    from notifications.admin import ClubWebhookForm

    settings.WEBHOOK_ALLOW_PRIVATE = False
    form = ClubWebhookForm(data={"club": club.pk, "url": "https://192.168.1.1/hook", "is_active": True})
    assert not form.is_valid() and "url" in form.errors


def test_one_transaction_queues_its_mails_with_one_callback_and_nobody_without_an_address_gets_one(
    club, django_capture_on_commit_callbacks
):
    from tests.notifications.conftest import person

    anna, walk_in = person(club, "Anna Alt").user, person(club, "No Mail").user
    walk_in.email = ""
    walk_in.save(update_fields=["email"])
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        for number in range(5):
            services.notify(
                "match_ready", f"match:{number}", {anna.pk: {"opponent": "B"}, walk_in.pk: {"opponent": "A"}}
            )
    mails = [c for c in callbacks if type(c).__module__ == services.__name__]  # the bell's live push rides along
    assert len(mails) == 1
    assert set(Notification.objects.filter(recipient=anna).values_list("delivery", flat=True)) == {Delivery.SENT}
    assert set(Notification.objects.filter(recipient=walk_in).values_list("delivery", flat=True)) == {Delivery.NONE}
