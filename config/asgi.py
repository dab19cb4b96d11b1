"""The ASGI entry point: HTTP goes to Django as usual, websockets at /ws/live/ to the live-push consumer.

Production serves this with uvicorn workers (see docker-compose.yml and the README), so a page's long-lived
socket holds an event-loop task, never a sync worker."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
# A request's thread ends with it: borrow database connections from a pool instead of keeping one per thread
# (config/settings.py, DATABASE_POOL). Set before Django reads its settings; a test that already has settings
# keeps its own connections.
os.environ.setdefault("DATABASE_POOL", "1")
django_application = get_asgi_application()  # sets Django up before the consumer's imports below

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from django.urls import path  # noqa: E402

from base.live import LiveConsumer  # noqa: E402

websocket_urls = [path("ws/live/", LiveConsumer.as_asgi())]


def build_application():
    """The router; built by a function so a test server can build it after adding its host to ALLOWED_HOSTS
    (the websocket origin check reads them once)."""
    return ProtocolTypeRouter(
        {
            "http": django_application,
            "websocket": AllowedHostsOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urls))),
        }
    )


application = build_application()

from base.heap import freeze_loaded_objects, warm_up  # noqa: E402
from config.celery import warm_up as warm_up_tasks  # noqa: E402

warm_up()  # what the first requests would load while people wait (base/heap.py)
warm_up_tasks()  # and the first queued task (config/celery.py)

freeze_loaded_objects()  # last: everything loaded above lives as long as the worker (base/heap.py)
