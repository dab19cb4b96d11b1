"""In-app notifications (one row per event and person, which is also what makes its e-mail go out once), each
person's choices and language, and a club's webhook with its deliveries."""

import secrets

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from base.models import Delivery, Outgoing
from clubs.models import Club

__all__ = ["ClubWebhook", "Delivery", "Notification", "NotificationSettings", "Outgoing", "WebhookDelivery"]


class Notification(Outgoing):
    """One event told to one person. Unique per (kind, object, recipient): an event reported twice (a retried
    request, a hook called again) makes no second row and no second mail."""

    recipient = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications")
    kind = models.CharField(max_length=32)
    object_key = models.CharField(max_length=80)
    params = models.JSONField(default=dict, blank=True)
    url = models.CharField(max_length=300, blank=True)
    in_app = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)
    read_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["kind", "object_key", "recipient"], name="notification_once_per_person")
        ]
        indexes = [models.Index(fields=["recipient", "read_at"], name="notification_unread")]


class NotificationSettings(models.Model):
    """A person's language for what is sent to them, and their choices per kind and channel ("kind.channel" ->
    on/off; a kind missing here takes its default)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True, related_name="notification_settings"
    )
    language = models.CharField(_("language"), max_length=8, blank=True)
    choices = models.JSONField(default=dict, blank=True)


def new_secret() -> str:
    return secrets.token_hex(32)


class ClubWebhook(models.Model):
    """Where a club's public events are posted (a Discord/Slack-style incoming webhook, or any receiver that checks
    the signature made with `secret`)."""

    club = models.OneToOneField(Club, on_delete=models.CASCADE, related_name="webhook")
    url = models.URLField(_("webhook URL"), max_length=500)
    secret = models.CharField(max_length=64, default=new_secret)
    is_active = models.BooleanField(_("active"), default=True)

    class Meta:
        verbose_name = _("club webhook")
        verbose_name_plural = _("club webhooks")

    def __str__(self):
        return f"{self.club} -> {self.url}"


class WebhookDelivery(Outgoing):
    """One event posted to one club's webhook, once: unique per (club, kind, object)."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="webhook_deliveries")
    kind = models.CharField(max_length=32)
    object_key = models.CharField(max_length=80)
    params = models.JSONField(default=dict, blank=True)
    url = models.CharField(max_length=300, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["club", "kind", "object_key"], name="webhook_delivery_once_per_event")
        ]
