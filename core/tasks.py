from celery import shared_task

from core import services


@shared_task(name="core.heartbeat")
def heartbeat(worker: str | None = None) -> int:
    return services.record_heartbeat(worker=worker).beats
