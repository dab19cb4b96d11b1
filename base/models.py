from django.conf import settings
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


class IdempotentRequest(models.Model):
    """A write a client may send again, by its idempotency key (base.idempotency says why and how): who sent it,
    what it was (method, path and a hash of its body) and the answer it got, which a retry with the same key is
    answered with instead of doing the work again. The row is written in the write's own transaction, so a
    committed write always has its key committed; the unique (user, key) index makes a concurrent duplicate wait
    for the first and then read its answer. Kept IDEMPOTENCY_RETENTION (24 h), then swept."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=80)
    method = models.CharField(max_length=8)
    path = models.CharField(max_length=300)
    fingerprint = models.CharField(max_length=64)  # sha256 of method, path and the body, hex
    status_code = models.PositiveSmallIntegerField(default=0)  # 0 while the write is under way
    body = models.TextField(blank=True)  # the answer's JSON text (API), empty for none
    location = models.TextField(blank=True)  # a page's redirect, an API's Location header
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "key"], name="base_idempotent_request_unique_key")]

    def __str__(self) -> str:
        return f"{self.user_id} {self.key} {self.method} {self.path} → {self.status_code}"


class SettleUp(models.Model):
    """Money one side hands the other outside the site (a bank transfer, cash): the payer (or a director) marks it
    paid, the payee (or a director) confirms it arrived, and one still open a day on is reminded once. Chouette
    transfers, a Calcutta owner's settle-up with the club and a flight's prizes share these fields and
    `base.settle_up`'s steps and sweep, so "paid", "received" and "remind after a day" mean one thing everywhere.

    A concrete model names the field its reminder clock starts from (`remind_from`) and says whom to remind
    (`reminder()`, a `base.settle_up.Reminder` or None)."""

    remind_from = "created_at"

    paid_at = models.DateTimeField(null=True, blank=True)
    paid_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    confirmed_at = models.DateTimeField(null=True, blank=True)
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # when the sweep reminded the payer (or the payee) of the transfer still open: once
    reminded_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        abstract = True

    @property
    def state(self) -> str:
        """open → paid (the payer says so) → received (the payee confirms)."""
        if self.confirmed_at is not None:
            return "received"
        return "paid" if self.paid_at is not None else "open"
