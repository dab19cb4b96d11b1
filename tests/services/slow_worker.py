"""The project's Celery app, with a verifier that first sleeps SLOW_VERIFY_SECONDS: a worker started with
`celery -A tests.services.slow_worker` is certainly in the middle of a verification when the test kills it."""

import os
import time

from celery.signals import worker_init

from config.celery import app

__all__ = ["app"]


@worker_init.connect
def slow_down_the_verifier(**_kwargs) -> None:
    import django

    django.setup()
    from games.records import services

    check_any_record = services.check_any_record  # the verifier the record service calls, whatever the game

    def slow_check_any_record(*args, **kwargs):
        time.sleep(float(os.environ.get("SLOW_VERIFY_SECONDS", "60")))
        return check_any_record(*args, **kwargs)

    services.check_any_record = slow_check_any_record
