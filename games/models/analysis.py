"""Engine analyses of verified game records (docs/games.md, "Analysis of records").

A RecordAnalysis is one engine's review of one record at one ply: queued → running → done / failed, with the
engine, its version, the plies and the match equity table, the per-game figures and the costliest plays. Its two
PlayerAnalysis rows hold each side's match figures (and the player, when the record belongs to a match whose
player that side is), so a player's page reads their figures without opening any record. A record has at most one
analysis per engine and ply (a unique constraint): a task sent twice, or resumed after its worker died, fills the
same row.
"""

from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

__all__ = ["AnalysisStatus", "PlayerAnalysis", "RecordAnalysis"]


class AnalysisStatus(models.TextChoices):
    QUEUED = "queued", _("Waiting for the engine")
    RUNNING = "running", _("Being analysed")
    DONE = "done", _("Analysed")
    FAILED = "failed", _("Analysis failed")


class RecordAnalysis(models.Model):
    record = models.ForeignKey("games.GameRecord", on_delete=models.CASCADE, related_name="analyses")
    engine = models.CharField(max_length=16)
    plies = models.PositiveSmallIntegerField()
    version = models.CharField(max_length=32, blank=True)
    met = models.CharField(max_length=80, blank=True, help_text=_("The match equity table the engine used."))
    status = models.CharField(max_length=8, choices=AnalysisStatus.choices, default=AnalysisStatus.QUEUED)
    reason = models.CharField(max_length=400, blank=True, help_text=_("Why the analysis failed."))
    games_done = models.PositiveSmallIntegerField(default=0)
    games_total = models.PositiveSmallIntegerField(default=0)
    games = models.JSONField(default=list, blank=True, help_text=_("Each game's figures, side 0 first."))
    biggest_errors = models.JSONField(default=list, blank=True)
    seconds = models.FloatField(null=True, blank=True)
    requested_at = models.DateTimeField(auto_now_add=True)
    queued_at = models.DateTimeField(null=True, blank=True)
    claimed_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-requested_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["record", "engine", "plies"], name="record_analysis_once_per_ply"),
            models.CheckConstraint(
                condition=models.Q(status__in=[s.value for s in AnalysisStatus]), name="record_analysis_status_known"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.record_id} {self.engine} {self.plies}-ply"

    def get_absolute_url(self) -> str:
        return reverse("games:record-detail", args=[self.record_id]) + "#analysis"


class PlayerAnalysis(models.Model):
    """One side's figures of a done analysis. Error rates in mEMG per unforced decision, totals in EMG, losses
    (≥ 0); luck signed (positive: lucky); pr_like = 500 × the error total / unforced decisions."""

    analysis = models.ForeignKey(RecordAnalysis, on_delete=models.CASCADE, related_name="players")
    side = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=120)
    player = models.ForeignKey(
        "clubs.Player", null=True, blank=True, on_delete=models.SET_NULL, related_name="record_analyses"
    )
    error_rate = models.FloatField()
    checker_error_rate = models.FloatField()
    cube_error_rate = models.FloatField()
    error_total = models.FloatField()
    unforced_decisions = models.PositiveIntegerField()
    errors = models.PositiveIntegerField()
    blunders = models.PositiveIntegerField()
    luck_total = models.FloatField()
    luck_rate = models.FloatField()
    pr_like = models.FloatField(null=True, blank=True)

    class Meta:
        ordering = ["analysis", "side"]
        constraints = [
            models.UniqueConstraint(fields=["analysis", "side"], name="player_analysis_once_per_side"),
        ]

    def __str__(self) -> str:
        return f"{self.name}: {self.error_rate:.1f} mEMG"
