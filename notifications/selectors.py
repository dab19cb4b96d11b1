"""Reading notifications: the unread count loaded with the user (the header's bell), a person's list, and a club's
webhook with its last deliveries."""

from django.db.models import Count, OuterRef, Subquery
from django.db.models.functions import Coalesce

from notifications.models import ClubWebhook, Notification, WebhookDelivery

RECENT_DELIVERIES = 20


def unread_count_subquery():
    """The user's unread in-app notifications, as an annotation on the user row (accounts.badges)."""
    unread = (
        Notification.objects.filter(recipient=OuterRef("pk"), in_app=True, read_at__isnull=True)
        .order_by()
        .values("recipient")
        .annotate(n=Count("pk"))
        .values("n")
    )
    return Coalesce(Subquery(unread), 0)


def for_user(user):
    return Notification.objects.filter(recipient=user, in_app=True)


def webhook_of(club) -> ClubWebhook | None:
    return ClubWebhook.objects.filter(club=club).first()


def recent_deliveries(club, limit: int = RECENT_DELIVERIES) -> list[WebhookDelivery]:
    """The club's last posts, newest first, with their state, attempts and the receiver's last answer: what its
    admin reads to see whether the webhook works (the caller has checked that they may: club.webhook)."""
    return list(WebhookDelivery.objects.filter(club=club).order_by("-created_at", "-id")[:limit])
