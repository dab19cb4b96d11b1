from django.db import models
from django.utils.translation import gettext_lazy as _


class WorkerHeartbeat(models.Model):
    """One row per Celery worker hostname, touched by the heartbeat task, so the health page can tell
    whether background work is actually being processed."""

    worker = models.CharField(max_length=200, unique=True)
    beats = models.PositiveIntegerField(default=0)
    last_seen = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.worker} @ {self.last_seen:%Y-%m-%d %H:%M:%S}"


class Delivery(models.TextChoices):
    """Where one piece of outgoing work (a mail, a post) stands; see base.outbox."""

    NONE = "none", _("not sent")
    DUE = "due", _("due")
    SENDING = "sending", _("sending")
    SENT = "sent", _("sent")
    FAILED = "failed", _("failed")


class Outgoing(models.Model):
    """Something sent by a task that may run twice (base.outbox): the task claims the row (due -> sending) before it
    sends, so a retried or duplicated task finds it claimed and sends nothing; a failure makes it due again later
    (backoff), and the periodic sweep sends what is due. The same fields and states as notifications' rows."""

    delivery = models.CharField(max_length=8, choices=Delivery.choices, default=Delivery.DUE)
    attempts = models.PositiveSmallIntegerField(default=0)
    due_at = models.DateTimeField(auto_now_add=True)
    claimed_at = models.DateTimeField(null=True, blank=True)
    delivered_at = models.DateTimeField(null=True, blank=True)
    last_error = models.CharField(max_length=300, blank=True)

    class Meta:
        abstract = True
