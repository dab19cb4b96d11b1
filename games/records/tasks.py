"""Celery tasks for game records: each takes an id, reloads, and calls a service."""

from celery import shared_task

from games.records import services


# Under settings.TASK_STALE_SECONDS (120 s by default): a claim older than that is certainly a dead worker's, so
# the sweep may send the record again. At the soft limit the verifier stops and the record gets its verdict.
@shared_task(bind=True, max_retries=3, default_retry_delay=10, soft_time_limit=60, time_limit=90)
def verify_game_record(self, record_id: int) -> str | None:
    """Verify one record; safe to run twice (the service claims the record once)."""
    try:
        record = services.verify_record(record_id=record_id)
    except OSError as error:  # the stored file is briefly unreachable: the record went back to pending
        raise self.retry(exc=error) from error
    return record.status if record else None
