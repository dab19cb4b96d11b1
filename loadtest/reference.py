"""The load test's yardsticks: the cheapest request the site answers, and the same request through a server known
to be cheap.

- The bare request is a static file (js/site.js) through the production server: WhiteNoise answers it from the
  middleware, before any view, session or database. With STATIC_MANIFEST=1 its name is hashed; the manifest
  collectstatic wrote (staticfiles.json in STATIC_ROOT) gives it. `/health/`, the old baseline, opens a broker
  connection per call and is 1-2x slower than this, so ratios against it looked better than they were.
- The reference is that file through gunicorn's sync workers (three, as uvicorn has), started here for the
  measurement alone with the stack's environment and stopped right after, so it takes no CPU from the scenarios.
  The bare request's rate against it says what the production server's request path costs (the goal:
  at least 0.5).
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Mapping
from pathlib import Path

STATIC_FILE = "js/site.js"


def static_path(static_root: str | Path, static_url: str, name: str = STATIC_FILE) -> str:
    """The URL path of a collected static file: its hashed name from the manifest when there is one, else its
    own name. A file the manifest does not list is an error, not a quiet 404 measured as the baseline."""
    prefix = "/" + static_url.strip("/") + "/"
    manifest = Path(static_root) / "staticfiles.json"
    if not manifest.exists():
        if not (Path(static_root) / name).exists():
            raise SystemExit(f"loadtest: {name} is not collected in {static_root}")
        return prefix + name
    paths = json.loads(manifest.read_text()).get("paths", {})
    if name not in paths:
        raise SystemExit(f"loadtest: {name} is not in {manifest}")
    return prefix + paths[name]


class Gunicorn:
    """`gunicorn config.wsgi:application` with sync workers on a loopback port; a context manager that waits
    until it answers `path` and ends its process group on the way out."""

    def __init__(self, env: Mapping[str, str], cwd: Path, port: int, *, path: str, workers: int = 3) -> None:
        self.env = dict(env)
        self.cwd = cwd
        self.port = port
        self.path = path
        self.workers = workers
        self.base_url = f"http://127.0.0.1:{port}"
        self.process: subprocess.Popen | None = None
        self.log = Path(tempfile.mkstemp(prefix="loadtest-gunicorn-", suffix=".log")[1])

    def __enter__(self) -> Gunicorn:
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", self.port)) == 0:
                raise SystemExit(f"loadtest: port {self.port} for the gunicorn reference is in use")
        args = [
            sys.executable,
            "-m",
            "gunicorn",
            "config.wsgi:application",
            f"--workers={self.workers}",
            "--worker-class=sync",
            f"--bind=127.0.0.1:{self.port}",
            "--log-level=warning",
        ]
        with self.log.open("w") as out:
            self.process = subprocess.Popen(
                args, cwd=self.cwd, env=self.env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
            )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise SystemExit(f"loadtest: gunicorn exited: {self.log.read_text()[-2000:]}")
            with contextlib.suppress(OSError), urllib.request.urlopen(self.base_url + self.path, timeout=5) as answer:
                if answer.status == 200:
                    return self
            time.sleep(0.3)
        self.__exit__()
        raise SystemExit("loadtest: gunicorn did not answer in 60 s")

    def __exit__(self, *_exc) -> None:
        if self.process is not None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
        self.log.unlink(missing_ok=True)
