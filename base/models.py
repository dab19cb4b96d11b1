from django.db import models


class WorkerHeartbeat(models.Model):
    """One row per Celery worker hostname, touched by the heartbeat task, so the health page can tell
    whether background work is actually being processed."""

    worker = models.CharField(max_length=200, unique=True)
    beats = models.PositiveIntegerField(default=0)
    last_seen = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.worker} @ {self.last_seen:%Y-%m-%d %H:%M:%S}"
