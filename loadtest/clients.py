"""Closed-loop load clients: N threads, each with its own keep-alive HTTP connection to the loopback server,
sending its next request as soon as the last one is answered, until the scenario's time is up (or its work runs
out). Threads and the standard library's http.client keep the client cheap and dependency-free; the clients'
own overhead is the same for the baseline and the scenarios, and the ratio is taken between the two."""

from __future__ import annotations

import http.client
import json
import threading
import time
from collections.abc import Callable
from urllib.parse import urlsplit

from loadtest.core import Tally

TIMEOUT_SECONDS = 30


class OutOfWork(Exception):
    """A client's step raises this when the scenario has nothing left to do (every match reported)."""


class Client:
    """One connection; every request is timed into `tally` and classed as ok, refused on purpose, or error."""

    def __init__(self, base_url: str, tally: Tally) -> None:
        parts = urlsplit(base_url)
        self.host, self.port = parts.hostname or "127.0.0.1", parts.port or 80
        self.tally = tally
        self.connection = self._connect()

    def _connect(self) -> http.client.HTTPConnection:
        return http.client.HTTPConnection(self.host, self.port, timeout=TIMEOUT_SECONDS)

    def request(
        self,
        method: str,
        path: str,
        *,
        token: str | None = None,
        body: dict | None = None,
        refusals: tuple[int, ...] = (),
        record: bool = True,
    ) -> tuple[int, dict | None]:
        """Send one request; returns (status, JSON body or None). A status in `refusals` counts as an answer the
        application gives on purpose; 2xx is ok; anything else, and a broken connection (status 0), an error."""
        headers = {"Accept": "application/json, text/html"}
        payload = None
        if token:
            headers["Authorization"] = f"Token {token}"
        if body is not None:
            payload = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        start = time.perf_counter()
        try:
            self.connection.request(method, path, body=payload, headers=headers)
            answer = self.connection.getresponse()
            data = answer.read()
            status = answer.status
        except (OSError, http.client.HTTPException) as exc:
            self.connection.close()
            self.connection = self._connect()
            if record:
                self.tally.add(time.perf_counter() - start, "error", f"{method} {path}: {exc!r}")
            return 0, None
        latency = time.perf_counter() - start
        if record:
            outcome = "ok" if 200 <= status < 300 else "refused" if status in refusals else "error"
            self.tally.add(latency, outcome, f"{method} {path}: {status} {data[:300]!r}")
        try:
            parsed = json.loads(data) if answer.getheader("Content-Type", "").startswith("application/json") else None
        except ValueError:
            parsed = None
        return status, parsed

    def close(self) -> None:
        self.connection.close()


Step = Callable[[int, Client], None]


def run_closed_loop(base_url: str, name: str, *, clients: int, seconds: float, step: Step) -> Tally:
    """Run `step(client_number, client)` in a loop on `clients` threads for `seconds` (or until a step raises
    OutOfWork on every thread); returns the merged tally with the wall time it took."""
    tallies = [Tally(name) for _ in range(clients)]
    deadline = time.monotonic() + seconds
    start_line = threading.Barrier(clients)

    def loop(number: int) -> None:
        client = Client(base_url, tallies[number])
        try:
            start_line.wait()
            while time.monotonic() < deadline:
                step(number, client)
        except OutOfWork:
            pass
        finally:
            client.close()

    threads = [threading.Thread(target=loop, args=(n,), daemon=True) for n in range(clients)]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    total = Tally(name, seconds=time.perf_counter() - started)
    for tally in tallies:
        total.merge(tally)
    return total
