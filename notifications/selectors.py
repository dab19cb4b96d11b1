"""Reading notifications: the unread count loaded with the user (the header's bell) and a person's list."""

from django.db.models import Count, OuterRef, Subquery
from django.db.models.functions import Coalesce

from notifications.models import Notification


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
