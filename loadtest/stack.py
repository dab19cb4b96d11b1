"""The production-like stack the load test starts for itself: a fresh PostgreSQL database, migrated; static files
collected (DEBUG off serves the hashed manifest, as in production); uvicorn with three worker processes on a
loopback port; a Celery worker (record verification) and beat (the heartbeat /health/ reads); Redis as broker,
channel layer and cache.

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
# The web workers: uvicorn's processes, each answering its requests on threads that share one interpreter lock
# (Django gives every ASGI request its own thread). Three on two cores, as production is told to run (README);
# LOADTEST_WORKERS tries another number on the same machine.
WORKERS = int(os.environ.get("LOADTEST_WORKERS", "3"))
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
        self.base_url = f"http://127.0.0.1:{port()}"

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

    def spawn(self, name: str, *args: str) -> None:
        log = Path(tempfile.mkstemp(prefix=f"loadtest-{name}-", suffix=".log")[1])
        with log.open("w") as out:
            process = subprocess.Popen(
                [sys.executable, "-m", *args],
                cwd=REPO,
                env=self.env,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # its own process group: stop() ends its children too
            )
        self.processes.append((name, process, log))

    def start(self) -> None:
        if _port_taken(port()):
            raise SystemExit(f"loadtest: port {port()} is in use; set LOADTEST_PORT to a free one")
        self.flush_redis()
        self.recreate_database()
        self.manage("migrate", "--noinput")
        self.manage("collectstatic", "--noinput")
        self.spawn(
            "web",
            "uvicorn",
            "config.asgi:application",
            "--host=127.0.0.1",
            f"--port={port()}",
            f"--workers={WORKERS}",
            "--ws=websockets-sansio",
            "--ws-max-size=65536",  # base.live bounds a message again; the server refuses far larger frames first
            "--no-access-log",
            "--log-level=warning",
        )
        self.spawn("worker", "celery", "-A", "config", "worker", "--loglevel=warning", "--without-gossip")
        schedule = Path(self.media) / "beat-schedule"
        self.spawn("beat", "celery", "-A", "config", "beat", "--loglevel=warning", f"--schedule={schedule}")

    def wait_healthy(self, timeout: float = 60) -> None:
        """Wait until /health/ answers 200 (database, broker and a worker heartbeat all ok)."""
        deadline = time.monotonic() + timeout
        last = ""
        while time.monotonic() < deadline:
            self.check_alive()
            try:
                with urllib.request.urlopen(f"{self.base_url}/health/", timeout=5) as answer:
                    if answer.status == 200:
                        return
            except OSError as exc:
                last = str(exc)
            time.sleep(0.5)
        raise SystemExit(f"loadtest: the stack did not become healthy in {timeout:.0f} s ({last})\n{self.logs()}")

    def check_alive(self) -> None:
        for name, process, _log in self.processes:
            if process.poll() is not None:
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


def _signal_group(process: subprocess.Popen, sig: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, sig)


def _port_taken(number: int) -> bool:
    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", number)) == 0
