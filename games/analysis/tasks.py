"""Celery task of engine analyses: takes an id, calls the service (which claims the analysis once)."""

from celery import shared_task
from django.conf import settings

from games.analysis import services


# The engine is killed at RECORD_ANALYSIS_TIME_LIMIT (the service's verdict says so); the task's own limits sit
# above it, for a worker stuck outside the engine. A worker that dies leaves the analysis running: the sweep
# sends it again once its claim is older than the time limit and a minute.
@shared_task(
    soft_time_limit=settings.RECORD_ANALYSIS_TIME_LIMIT + 30,
    time_limit=settings.RECORD_ANALYSIS_TIME_LIMIT + 45,
)
def analyse_game_record(analysis_id: int) -> str | None:
    """Analyse one record; safe to run twice (the service claims the analysis once)."""
    analysis = services.run_analysis(analysis_id=analysis_id)
    return analysis.status if analysis else None
