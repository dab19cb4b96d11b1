"""`manage.py connection_budget`: the web threads' connections, the socket servers' pools, the worker, beat and
headroom against max_connections, and the largest pool that fits when they do not (docs/connections.md)."""

import io

import pytest
from django.core.management import CommandError, call_command


def budget(**options) -> str:
    out = io.StringIO()
    call_command("connection_budget", stdout=out, **options)
    return out.getvalue()


def test_two_nodes_of_three_workers_of_four_threads_and_a_socket_server_fit_a_hundred_connections(settings):
    settings.DATABASE_POOL_MAX_SIZE, settings.CELERY_WORKER_CONCURRENCY, settings.DATABASE_HEADROOM = 15, 4, 3
    text = budget(nodes=2, web_workers=3, web_threads=4, socket_workers=1, max_connections=100)
    assert "2 node(s) x 3 gunicorn worker(s) x 4 thread(s) = 24" in text
    assert "2 node(s) x 1 uvicorn worker(s) x 15 (DATABASE_POOL_MAX_SIZE) = 30" in text
    assert "total:    62" in text and "fits max_connections 100 (38 spare)" in text


def test_the_measured_site_does_not_fit_and_is_told_the_pool_that_would(settings):
    """The outage measured: two nodes at max_connections 20 with the default pool of 20 locked the worker out."""
    settings.DATABASE_POOL_MAX_SIZE, settings.CELERY_WORKER_CONCURRENCY, settings.DATABASE_HEADROOM = 20, 2, 3
    out = io.StringIO()
    with pytest.raises(CommandError, match="does not fit"):
        call_command(
            "connection_budget", nodes=2, web_workers=1, web_threads=1, socket_workers=1, max_connections=20, stdout=out
        )
    assert "OVER max_connections 20 by 28: set DATABASE_POOL_MAX_SIZE to at most 6" in out.getvalue()
