"""The connection budget: how many PostgreSQL connections the site may hold at once, against max_connections.

Why a budget: every gunicorn thread serving HTTP keeps a persistent connection, every uvicorn process serving the
sockets has its own pool (config/settings.py, DATABASE_POOL), each Celery worker process and beat a persistent
connection, and PostgreSQL refuses the client past max_connections, whoever it is.
At max_connections 20 the web pools took every slot under load: the worker logged "too many clients" 63 times
(verdicts and heartbeats lost their turn) and `migrate`/`psql` were locked out. The budget gives each its share:

    nodes x (web workers x web threads + socket workers x DATABASE_POOL_MAX_SIZE)
        + CELERY_WORKER_CONCURRENCY + beat (1) + DATABASE_HEADROOM <= max_connections

A node's gunicorn holds its threads' connections as long as it runs (CONN_MAX_AGE); the pools only reach their max
under load and give idle connections back (DATABASE_POOL_MAX_IDLE_SECONDS), so the budget is the peak, not the
steady state. Behind PgBouncer (DATABASE_PGBOUNCER) the web, socket and worker terms count against PgBouncer's
max_client_conn, and its pool size against max_connections.
"""

from __future__ import annotations

from dataclasses import dataclass

BEAT = 1  # beat sends tasks; with the default file schedule it holds no connection, one is kept for it anyway


@dataclass(frozen=True)
class Budget:
    nodes: int
    web_workers: int
    web_threads: int
    socket_workers: int
    pool_max: int
    worker_concurrency: int
    headroom: int
    max_connections: int | None

    @property
    def web(self) -> int:
        return self.nodes * self.web_workers * self.web_threads

    @property
    def sockets(self) -> int:
        return self.nodes * self.socket_workers * self.pool_max

    @property
    def total(self) -> int:
        return self.web + self.sockets + self.worker_concurrency + BEAT + self.headroom

    @property
    def fits(self) -> bool:
        return self.max_connections is None or self.total <= self.max_connections

    def largest_pool(self) -> int:
        """The largest DATABASE_POOL_MAX_SIZE that fits max_connections with these nodes and workers (0: none)."""
        if self.max_connections is None or not self.socket_workers:
            return self.pool_max
        spare = self.max_connections - self.web - self.worker_concurrency - BEAT - self.headroom
        return max(spare // (self.nodes * self.socket_workers), 0)

    def lines(self) -> list[str]:
        lines = [
            f"web:      {self.nodes} node(s) x {self.web_workers} gunicorn worker(s) x {self.web_threads} "
            f"thread(s) = {self.web}",
            f"sockets:  {self.nodes} node(s) x {self.socket_workers} uvicorn worker(s) x {self.pool_max} "
            f"(DATABASE_POOL_MAX_SIZE) = {self.sockets}",
            f"worker:   {self.worker_concurrency} (CELERY_WORKER_CONCURRENCY)",
            f"beat:     {BEAT}",
            f"headroom: {self.headroom} (DATABASE_HEADROOM: migrate, psql, /health/)",
            f"total:    {self.total}",
        ]
        if self.max_connections is None:
            lines.append("max_connections: unknown (not PostgreSQL, or not reachable; pass --max-connections)")
        elif self.fits:
            lines.append(f"fits max_connections {self.max_connections} ({self.max_connections - self.total} spare)")
        else:
            lines.append(
                f"OVER max_connections {self.max_connections} by {self.total - self.max_connections}: "
                f"set DATABASE_POOL_MAX_SIZE to at most {self.largest_pool()}, or fewer web threads, or raise "
                "max_connections"
            )
        return lines
