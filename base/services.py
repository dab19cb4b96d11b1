import socket

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from base.models import WorkerHeartbeat


@transaction.atomic
def record_heartbeat(*, worker: str | None = None) -> WorkerHeartbeat:
    name = worker or socket.gethostname()
    heartbeat, created = WorkerHeartbeat.objects.get_or_create(
        worker=name, defaults={"beats": 1, "last_seen": timezone.now()}
    )
    if not created:
        # F() so two workers sharing a hostname cannot lose a beat to a read-modify-write race.
        WorkerHeartbeat.objects.filter(pk=heartbeat.pk).update(beats=F("beats") + 1, last_seen=timezone.now())
        heartbeat.refresh_from_db()
    return heartbeat
