"""Uploaded game records and their verification verdicts.

A GameRecord is one uploader's record of a file: the same bytes uploaded again by the same person link the
record they already have (its SHA-256 is unique per uploader); another person gets a record of their own
(sharing the stored file), so dedupe never shows them someone else's record, uploader or match. A record
moves through pending → verifying → valid / invalid / unreadable; `verdict` has the shape of
`verify_match --json`. An UploadBatch groups the records of one upload (a zip or several files) so that the
page and the API can show its progress.
"""

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

__all__ = ["GameRecord", "RecordFormat", "RecordStatus", "UploadBatch"]


class RecordFormat(models.TextChoices):
    MAT = "mat", _("Jellyfish .mat")
    SGF = "sgf", _("GNU Backgammon SGF")


class RecordStatus(models.TextChoices):
    PENDING = "pending", _("Waiting for verification")
    VERIFYING = "verifying", _("Verifying")
    VALID = "valid", _("Valid")
    INVALID = "invalid", _("Invalid")
    UNREADABLE = "unreadable", _("Unreadable")

    @classmethod
    def finished(cls) -> tuple[str, ...]:
        return (cls.VALID, cls.INVALID, cls.UNREADABLE)


# The only moves a record may make; services refuse anything else.
RECORD_TRANSITIONS = {
    RecordStatus.PENDING: (RecordStatus.VERIFYING,),
    RecordStatus.VERIFYING: (RecordStatus.VALID, RecordStatus.INVALID, RecordStatus.UNREADABLE, RecordStatus.PENDING),
    RecordStatus.VALID: (),
    RecordStatus.INVALID: (),
    RecordStatus.UNREADABLE: (),
}


class UploadBatch(models.Model):
    uploader = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="upload_batches")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"Upload {self.pk}"


class GameRecord(models.Model):
    file = models.FileField(upload_to="game_records/%Y/%m/")
    name = models.CharField(max_length=255, help_text=_("The uploaded file's name."))
    sha256 = models.CharField(max_length=64, db_index=True)
    size = models.PositiveIntegerField()
    format = models.CharField(max_length=8, choices=RecordFormat.choices, default=RecordFormat.MAT)
    status = models.CharField(max_length=12, choices=RecordStatus.choices, default=RecordStatus.PENDING)
    verdict = models.JSONField(null=True, blank=True)
    uploader = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="game_records")
    batches = models.ManyToManyField(UploadBatch, related_name="records", blank=True)
    match = models.ForeignKey(
        "games.Match", on_delete=models.SET_NULL, null=True, blank=True, related_name="game_records"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    claimed_at = models.DateTimeField(null=True, blank=True, help_text=_("When a worker started verifying it."))
    queued_at = models.DateTimeField(
        null=True, blank=True, help_text=_("When its verification was last sent to the task queue.")
    )
    attempts = models.PositiveSmallIntegerField(default=0, help_text=_("How many times a worker started verifying it."))
    verified_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["uploader", "sha256"], name="game_record_once_per_uploader"),
            models.CheckConstraint(
                condition=models.Q(status__in=[s.value for s in RecordStatus]), name="game_record_status_known"
            ),
            models.CheckConstraint(
                condition=~models.Q(status__in=[RecordStatus.VALID, RecordStatus.INVALID, RecordStatus.UNREADABLE])
                | models.Q(verdict__isnull=False),
                name="game_record_finished_has_verdict",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("games:record-detail", args=[self.pk])
