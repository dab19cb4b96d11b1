"""The production-like stack the load test starts for itself: a fresh PostgreSQL database, migrated; static files
collected (DEBUG off serves the hashed manifest, as in production); a node as production runs one
(docs/deploy.md): Caddy on a loopback port in front of gunicorn's gthread workers (three processes of four threads:
every plain HTTP request) and one uvicorn process (only /ws/, the live pages' sockets); a Celery worker (record
verification) and beat (the heartbeat /health/ reads); Redis as broker, channel layer and cache. LOADTEST_NODES=2
starts two such nodes (two gthread workers each by default) on two ports, LOADTEST_PORT and the next, sharing the
one database, Redis, worker and beat, as docs/deploy.md deploys them. LOADTEST_SERVER=uvicorn runs each node as
uvicorn alone instead (the earlier topology, HTTP and sockets in one ASGI server); `python -m loadtest.servers`
compares the ways of serving side by side.

Every child runs in its own process group, so stopping the stack (at the end, on an error or on ctrl-C) ends
uvicorn's and Celery's own children too and frees the port. Settings come from the environment, like
docker-compose.yml's; the names and defaults are in `environment()`.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections import Counter
from pathlib import Path

import psycopg

REPO = Path(__file__).resolve().parent.parent
# The web workers: gunicorn's gthread processes, LOADTEST_THREADS threads each that live as long as the process,
# each thread with its own persistent database connection. Three on two cores, as production is told to run
# (README); LOADTEST_WORKERS tries another number on the same machine. Two nodes of two workers on the same two
# cores when LOADTEST_NODES=2. gthread, not sync: the sync worker closes the connection after every answer, and
# behind Caddy a static file through it answered 665/s where gthread answered 783/s (docs/deploy.md).
# Under LOADTEST_SERVER=uvicorn they are uvicorn's processes (Django gives every ASGI request a thread of its own,
# and a static file through them answered half or less of what the sync workers answer: docs/deploy.md).
NODES = int(os.environ.get("LOADTEST_NODES", "1"))
WORKERS = int(os.environ.get("LOADTEST_WORKERS", "3" if NODES == 1 else "2"))
THREADS = int(os.environ.get("LOADTEST_THREADS", "4"))
SERVER = os.environ.get("LOADTEST_SERVER", "split")
if SERVER not in ("split", "uvicorn"):
    raise SystemExit(f"LOADTEST_SERVER={SERVER!r}: choose split (Caddy, gunicorn and uvicorn) or uvicorn")
# The sockets' ASGI processes per node under "split": they hold event-loop tasks, not requests.
SOCKET_WORKERS = int(os.environ.get("LOADTEST_SOCKET_WORKERS", "1"))
# The node's inner ports, behind its Caddy on port() + n: gunicorn on port() + 10 + n, uvicorn on port() + 20 + n.
WSGI_OFFSET, ASGI_OFFSET = 10, 20
# The Celery worker's processes, each with one persistent database connection (the budget counts them).
WORKER_CONCURRENCY = int(os.environ.get("LOADTEST_WORKER_CONCURRENCY", "2"))
EXCEPTION_LINE = re.compile(r"^[A-Za-z_][\w.]*(Error|Exception|Detected|Timeout|Exit)\b")


def environment(media_root: str) -> dict[str, str]:
    """The stack's settings; LOADTEST_* variables choose the database server, Redis databases and port."""
    server = os.environ.get("LOADTEST_POSTGRES", "postgres://postgres@127.0.0.1:5432")
    redis = os.environ.get("LOADTEST_REDIS", "redis://127.0.0.1:6379")
    return {
        "DEBUG": "0",
        "SECRET_KEY": os.environ.get("SECRET_KEY") or "loadtest-only-not-a-secret",
        "DATABASE_URL": f"{server}/{os.environ.get('LOADTEST_DATABASE', 'bgclub_loadtest')}",
        "CELERY_BROKER_URL": f"{redis}/{os.environ.get('LOADTEST_BROKER_DB', '1')}",
        "CHANNEL_LAYER_URL": f"{redis}/{os.environ.get('LOADTEST_CACHE_DB', '2')}",
        "CACHE_URL": f"{redis}/{os.environ.get('LOADTEST_CACHE_DB', '2')}",
        "STATIC_MANIFEST": "1",
        "SECURE_COOKIES": "0",  # plain HTTP on loopback
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "MEDIA_ROOT": media_root,
        "BEAT_EVERY_SECONDS": "5",  # /health/ is ok within seconds of the start, not after 30 s
        "DJANGO_SETTINGS_MODULE": "config.settings",
    }


def port() -> int:
    return int(os.environ.get("LOADTEST_PORT", "8600"))


class Stack:
    """Start with `start()`, always `stop()` (the load test's main does both, in a try/finally)."""

    def __init__(self) -> None:
        self.media = tempfile.mkdtemp(prefix="loadtest-media-")
        self.env = {**os.environ, **environment(self.media)}
        self.processes: list[tuple[str, subprocess.Popen, Path]] = []
        self.base_urls = [f"http://127.0.0.1:{port() + n}" for n in range(NODES)]
        self.base_url = self.base_urls[0]
        self.killed: set[str] = set()  # the processes killed on purpose (kill_node)
        self.env_for: dict[str, dict[str, str]] = {}  # a process's own additions to the environment

    # --- database ---------------------------------------------------------------------------------------------

    def recreate_database(self) -> None:
        """Drop and create the load test's own database, so every run starts from the same empty state."""
        url = self.env["DATABASE_URL"]
        server, name = url.rsplit("/", 1)
        with psycopg.connect(f"{server}/postgres", autocommit=True) as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            connection.execute(f'CREATE DATABASE "{name}"')

    def manage(self, *args: str) -> None:
        subprocess.run(
            [sys.executable, "manage.py", *args], cwd=REPO, env=self.env, check=True, stdout=subprocess.DEVNULL
        )

    def flush_redis(self) -> None:
        """Empty the load test's own Redis databases: no message or group left from an earlier run."""
        for key in ("CELERY_BROKER_URL", "CHANNEL_LAYER_URL"):
            host_port, db = self.env[key].split("://", 1)[1].rsplit("/", 1)
            host, _, number = host_port.partition(":")
            subprocess.run(
                ["redis-cli", "-h", host, "-p", number or "6379", "-n", db, "FLUSHDB"],
                check=True,
                stdout=subprocess.DEVNULL,
            )

    # --- processes --------------------------------------------------------------------------------------------

    def spawn(self, name: str, *args: str, program: str | None = None) -> None:
        """Start `python -m args` (or `program args`) in its own process group, its output in a log file."""
        log = Path(tempfile.mkstemp(prefix=f"loadtest-{name}-", suffix=".log")[1])
        with log.open("w") as out:
            process = subprocess.Popen(
                [program, *args] if program else [sys.executable, "-m", *args],
                cwd=REPO,
                env={**self.env, **self.env_for.get(name, {})},
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # its own process group: stop() ends its children too
            )
        self.processes.append((name, process, log))

    @staticmethod
    def node_name(number: int) -> str:
        return "web" if NODES == 1 else f"web{number + 1}"

    def node_ports(self) -> list[int]:
        ports = [port() + n for n in range(NODES)]
        if SERVER == "split":
            ports += [port() + offset + n for offset in (WSGI_OFFSET, ASGI_OFFSET) for n in range(NODES)]
        return ports

    def start(self) -> None:
        for number in self.node_ports():
            if _port_taken(number):
                raise SystemExit(f"loadtest: port {number} is in use; set LOADTEST_PORT to a free one")
        self.flush_redis()
        self.recreate_database()
        self.manage("migrate", "--noinput")
        self.manage("collectstatic", "--noinput")
        for number in range(NODES):
            name = self.node_name(number)
            if SERVER == "uvicorn":
                self.spawn_uvicorn(name, port() + number, WORKERS)
                continue
            # One node, three processes named after it (kill_node ends them together, as a machine that dies).
            self.spawn_gunicorn(
                f"{name}-http", port() + WSGI_OFFSET + number, WORKERS, "--worker-class=gthread", f"--threads={THREADS}"
            )
            self.spawn_uvicorn(f"{name}-ws", port() + ASGI_OFFSET + number, SOCKET_WORKERS)
            self.spawn_proxy(
                f"{name}-proxy", port() + number, port() + WSGI_OFFSET + number, port() + ASGI_OFFSET + number
            )
        worker = ("celery", "-A", "config", "worker", "--loglevel=warning", "--without-gossip")
        self.spawn("worker", *worker, f"--concurrency={WORKER_CONCURRENCY}")
        schedule = Path(self.media) / "beat-schedule"
        self.spawn("beat", "celery", "-A", "config", "beat", "--loglevel=warning", f"--schedule={schedule}")

    def spawn_uvicorn(self, name: str, number: int, workers: int) -> None:
        self.spawn(
            name,
            "uvicorn",
            "config.asgi:application",
            "--host=127.0.0.1",
            f"--port={number}",
            f"--workers={workers}",
            "--ws=websockets-sansio",
            "--ws-max-size=65536",  # base.live bounds a message again; the server refuses far larger frames first
            "--no-access-log",
            "--log-level=warning",
        )

    def spawn_gunicorn(self, name: str, number: int, workers: int, *extra: str) -> None:
        """Gunicorn's workers (sync unless `extra` says otherwise), as deploy/entrypoint.sh starts them."""
        self.spawn(
            name,
            "gunicorn",
            "config.wsgi:application",
            f"--bind=127.0.0.1:{number}",
            f"--workers={workers}",
            "--timeout=30",
            "--graceful-timeout=10",
            "--keep-alive=10",  # outlasts Caddy's idle upstream connections (4 s), as in deploy/entrypoint.sh
            "--log-level=warning",
            *extra,
        )

    def spawn_proxy(self, name: str, number: int, http: int, ws: int) -> None:
        """Caddy on `number`: /ws/* to the uvicorn on `ws`, everything else to the gunicorn on `http`, as
        deploy/Caddyfile routes them (without its TLS, gzip and replica lookup)."""
        home = Path(self.media) / name
        home.mkdir()
        config = home / "Caddyfile"
        config.write_text(caddyfile(number, http, ws))
        self.env_for[name] = {"XDG_DATA_HOME": str(home), "XDG_CONFIG_HOME": str(home), "HOME": str(home)}
        caddy = shutil.which("caddy")
        if caddy is None:
            raise SystemExit("loadtest: the split topology needs Caddy (apt), or LOADTEST_SERVER=uvicorn")
        self.spawn(name, "run", f"--config={config}", "--adapter=caddyfile", program=caddy)

    def wait_healthy(self, timeout: float = 60) -> None:
        """Wait until /health/ answers 200 on every node (database, broker and a worker heartbeat all ok)."""
        deadline = time.monotonic() + timeout
        last = ""
        waiting = list(self.base_urls)
        while time.monotonic() < deadline:
            self.check_alive()
            if not waiting:
                if self.sockets_listening():
                    return
                last = "the socket server is not listening yet"
                time.sleep(0.5)
                continue
            try:
                with urllib.request.urlopen(f"{waiting[0]}/health/", timeout=5) as answer:
                    if answer.status == 200:
                        waiting.pop(0)
                        continue
            except OSError as exc:
                last = str(exc)
            time.sleep(0.5)
        raise SystemExit(f"loadtest: the stack did not become healthy in {timeout:.0f} s ({last})\n{self.logs()}")

    def sockets_listening(self) -> bool:
        """The /ws/ servers behind the proxies accept connections (/health/ above answers from gunicorn)."""
        return SERVER != "split" or all(_port_taken(port() + ASGI_OFFSET + n) for n in range(NODES))

    def kill_node(self, number: int) -> None:
        """SIGKILL a web node and its workers at once, as a machine that dies does: no graceful shutdown, its
        requests in flight cut off, its sockets dropped."""
        name = self.node_name(number)
        doomed = [
            (named, process)
            for named, process, _log in self.processes
            if named == name or named.startswith(f"{name}-")
        ]
        for named, process in doomed:  # every process of the node signalled before any is waited for
            self.killed.add(named)
            _signal_group(process, signal.SIGKILL)
        for _named, process in doomed:
            process.wait()

    def pids(self) -> list[int]:
        """The stack's own processes (web, worker, beat), each the root of its tree: what the watchers scenario
        reads the server's CPU time from."""
        return [process.pid for name, process, _log in self.processes if name not in self.killed]

    def check_alive(self) -> None:
        for name, process, _log in self.processes:
            if process.poll() is not None and name not in self.killed:
                raise SystemExit(f"loadtest: {name} exited with {process.returncode}\n{self.logs()}")

    def logs(self) -> str:
        parts = []
        for name, _process, log in self.processes:
            text = log.read_text(errors="replace")[-3000:] if log.exists() else ""
            parts.append(f"--- {name} ({log})\n{text}")
        return "\n".join(parts)

    def server_errors(self) -> list[str]:
        """The exceptions the web server and the worker logged, one line each with how often: the last line of
        every traceback (`psycopg.errors.DeadlockDetected: deadlock detected`)."""
        found: Counter[str] = Counter()
        for name, _process, log in self.processes:
            lines = log.read_text(errors="replace").splitlines() if log.exists() else []
            for n, line in enumerate(lines):
                if line.startswith("Traceback"):
                    tail = next((x for x in lines[n + 1 :] if EXCEPTION_LINE.match(x)), "?")
                    found[f"{name}: {tail[:200]}"] += 1
        return [f"{count} x {line}" for line, count in found.most_common()]

    def start_counting_connections(self) -> None:
        """Sample how many PostgreSQL connections the stack holds (twice a second, from its own connection)."""
        self.connections_peak = 0
        self._counting = threading.Event()

        def sample() -> None:
            name = self.env["DATABASE_URL"].rsplit("/", 1)[1]
            with psycopg.connect(self.env["DATABASE_URL"], autocommit=True) as connection:
                while not self._counting.wait(0.5):
                    row = connection.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = %s", [name])
                    self.connections_peak = max(self.connections_peak, (row.fetchone() or (0,))[0] - 1)

        threading.Thread(target=sample, daemon=True).start()

    def max_connections(self) -> int:
        with psycopg.connect(self.env["DATABASE_URL"], autocommit=True) as connection:
            return int((connection.execute("SHOW max_connections").fetchone() or (0,))[0])

    def stop(self) -> None:
        if getattr(self, "_counting", None) is not None:
            self._counting.set()
        for _name, process, _log in self.processes:
            _signal_group(process, signal.SIGTERM)
        deadline = time.monotonic() + 10
        for _name, process, _log in self.processes:
            try:
                process.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                _signal_group(process, signal.SIGKILL)
                process.wait()
        for _name, _process, log in self.processes:
            log.unlink(missing_ok=True)
        self.processes.clear()
        shutil.rmtree(self.media, ignore_errors=True)


def caddyfile(number: int, http: int, ws: int) -> str:
    """A loopback Caddy: no admin endpoint, no certificates, no access log; any Host header is passed on."""
    return f"""{{
\tadmin off
\tauto_https off
\tlog {{
\t\tlevel ERROR
\t}}
}}
:{number} {{
\tbind 127.0.0.1
\thandle /ws/* {{
\t\treverse_proxy 127.0.0.1:{ws}
\t}}
\thandle {{
\t\treverse_proxy 127.0.0.1:{http} {{
\t\t\ttransport http {{
\t\t\t\tkeepalive 4s
\t\t\t}}
\t\t}}
\t}}
}}
"""


def _signal_group(process: subprocess.Popen, sig: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, sig)


def _port_taken(number: int) -> bool:
    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", number)) == 0
