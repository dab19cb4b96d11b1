"""Celery tasks of the ratings app: each takes an id and calls a service."""

from celery import shared_task

from ratings.services import pools


@shared_task
def recompute_rating_pool(pool_id: int) -> bool:
    """Rebuild a pool that was marked for a recompute; a second request for the same work finds nothing to do."""
    return pools.recompute_pool(pool_id=pool_id)
