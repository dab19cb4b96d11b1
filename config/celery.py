import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("bgclub")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


def warm_up() -> None:
    """What a web worker's first queued task would otherwise do while its request waits: finalize the app (bind
    every task) and import the broker's transport and the producer pool, without connecting. The first record
    upload in a worker spent 78 ms of CPU in its enqueue (21 in finalize, most of the rest importing the
    transport), holding every thread of the worker; after this, about 1 ms. In-process mode has no broker."""
    app.finalize(auto=True)
    if not app.conf.task_always_eager:
        app.amqp.producer_pool  # noqa: B018 - imports the transport and makes the (empty) pool
