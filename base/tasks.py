from celery import shared_task

from base import services
from base.queue import sweepers


@shared_task(name="core.heartbeat")
def heartbeat(worker: str | None = None) -> int:
    return services.record_heartbeat(worker=worker).beats


@shared_task(name="core.sweep", ignore_result=True)
def sweep() -> int:
    """Run by Celery beat: send again the work whose message was lost (broker down when it was queued, worker
    killed mid-task). Each app's sweeper claims the rows it re-sends, so two sweeps never send the same row twice
    at once, and each task claims its row once, so a row sent twice is still worked once."""
    return sweepers.sweep()
