import os

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import connection

from base.connections import Budget


class Command(BaseCommand):
    help = (
        "Print the PostgreSQL connection budget for these settings and N web nodes (docs/connections.md): "
        "nodes x (gunicorn workers x threads + uvicorn workers x DATABASE_POOL_MAX_SIZE) + worker concurrency + beat "
        "+ headroom <= max_connections. "
        "Exits non-zero when it does not fit."
    )

    def add_arguments(self, parser):
        parser.add_argument("--nodes", type=int, default=1, help="nodes (each a gunicorn and a uvicorn server)")
        parser.add_argument(
            "--web-workers",
            type=int,
            default=int(os.environ.get("WEB_CONCURRENCY") or 1),
            help="gunicorn worker processes per node (gunicorn's --workers; default WEB_CONCURRENCY or 1)",
        )
        parser.add_argument(
            "--web-threads",
            type=int,
            default=int(os.environ.get("WEB_THREADS") or 4),
            help="threads per gunicorn worker, one persistent connection each (default WEB_THREADS or 4)",
        )
        parser.add_argument(
            "--socket-workers",
            type=int,
            default=int(os.environ.get("WS_CONCURRENCY") or 1),
            help="uvicorn worker processes per node serving /ws/, one pool each (default WS_CONCURRENCY or 1)",
        )
        parser.add_argument(
            "--max-connections", type=int, default=None, help="PostgreSQL's max_connections (default: ask it)"
        )

    def handle(self, *args, nodes, web_workers, web_threads, socket_workers, max_connections, **options):
        if max_connections is None:
            max_connections = _ask_max_connections()
        budget = Budget(
            nodes=nodes,
            web_workers=web_workers,
            web_threads=web_threads,
            socket_workers=socket_workers,
            pool_max=settings.DATABASE_POOL_MAX_SIZE,
            worker_concurrency=settings.CELERY_WORKER_CONCURRENCY,
            headroom=settings.DATABASE_HEADROOM,
            max_connections=max_connections,
        )
        for line in budget.lines():
            self.stdout.write(line)
        if not budget.fits:
            raise CommandError("the connection budget does not fit max_connections")


def _ask_max_connections() -> int | None:
    if connection.vendor != "postgresql":
        return None
    try:
        with connection.cursor() as cursor:
            cursor.execute("SHOW max_connections")
            return int(cursor.fetchone()[0])
    except Exception:  # noqa: BLE001 - the budget is still worth printing without the server's answer
        return None
