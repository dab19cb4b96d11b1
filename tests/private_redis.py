"""A Redis of the test's own, on a port of its own, to stop and start: the shared Redis on 6379 serves other test
runs and must stay up. Each user passes its base port; pytest-xdist's worker number is added (gw0 on base, gw1 on
base + 1, ...), so a test that stops its Redis never stops the one a test in another worker is using."""

import contextlib
import os
import shutil
import subprocess
import time

import pytest
from redis import Redis
from redis.exceptions import ConnectionError as RedisConnectionError


def worker_port(base: int) -> int:
    return base + int(os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw"))


class PrivateRedis:
    def __init__(self, port: int, *options: str) -> None:
        self.port = port
        self.options = options  # more redis-server options, e.g. "--enable-debug-command", "local"
        self.url = f"redis://127.0.0.1:{port}/0"
        self.client = Redis(host="127.0.0.1", port=port, socket_connect_timeout=1)

    def up(self) -> bool:
        try:
            return bool(self.client.ping())
        except RedisConnectionError:
            return False

    def start(self) -> None:
        if shutil.which("redis-server") is None:
            pytest.fail("redis-server is not installed; this test starts a Redis of its own")
        subprocess.run(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
             "--daemonize", "yes", *self.options],
            check=True,
            stdout=subprocess.DEVNULL,
        )  # fmt: skip
        self._wait(up=True)

    def ensure_started(self) -> None:
        if not self.up():
            self.start()

    def stop(self) -> None:
        with contextlib.suppress(RedisConnectionError):  # shutting down closes the connection before it answers
            self.client.shutdown(nosave=True)
        self._wait(up=False)

    def _wait(self, *, up: bool) -> None:
        deadline = time.monotonic() + 10
        while self.up() != up:
            if time.monotonic() > deadline:
                pytest.fail(f"the private Redis on port {self.port} did not {'start' if up else 'stop'}")
            time.sleep(0.05)
