"""Closed-loop load clients: N threads, each with its own keep-alive HTTP connection to the loopback server,
sending its next request as soon as the last one is answered, until the scenario's time is up (or its work runs
out). Threads and the standard library's http.client keep the client cheap and dependency-free; the clients'
own overhead is the same for the baseline and the scenarios, and the ratio is taken between the two."""

from __future__ import annotations

import http.client
import json
import threading
import time
from collections.abc import Callable, Sequence
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
            status, data, content_type = self._exchange(method, path, payload, headers)
        except (OSError, http.client.HTTPException) as exc:
            if record:
                self.tally.add(time.perf_counter() - start, "error", f"{method} {path}: {exc!r}")
            return 0, None
        latency = time.perf_counter() - start
        if record:
            outcome = "ok" if 200 <= status < 300 else "refused" if status in refusals else "error"
            self.tally.add(latency, outcome, f"{method} {path}: {status} {data[:300]!r}")
        try:
            parsed = json.loads(data) if content_type.startswith("application/json") else None
        except ValueError:
            parsed = None
        return status, parsed

    def _exchange(
        self, method: str, path: str, payload: bytes | None, headers: dict[str, str]
    ) -> tuple[int, bytes, str]:
        """One request on the keep-alive connection: (status, body, content type). A broken connection is
        replaced by a new one before the error is raised, so the next request starts clean."""
        try:
            self.connection.request(method, path, body=payload, headers=headers)
            answer = self.connection.getresponse()
            return answer.status, answer.read(), answer.getheader("Content-Type", "")
        except (OSError, http.client.HTTPException):
            self.connection.close()
            self.connection = self._connect()
            raise

    def close(self) -> None:
        self.connection.close()


# A proxy's answer for an application that is not there (never the application's own).
GATEWAY_ERRORS = (502, 504)


class FailoverClient(Client):
    """A client of several nodes, as a phone behind a load balancer is: it talks to its first node, and when a
    connection to it fails (refused, reset: the node is gone) or its proxy answers 502/504, it moves to the next
    node and sends the request again there, but only a request that is safe to repeat: a GET, or a write carrying
    an idempotency key, whose retry the server answers with the first attempt's result. Each move's moment goes to
    the tally's `failover_times`."""

    def __init__(self, base_urls: Sequence[str], tally: Tally) -> None:
        self.nodes = [(p.hostname or "127.0.0.1", p.port or 80) for p in map(urlsplit, base_urls)]
        self.current = 0
        super().__init__(base_urls[0], tally)

    def _connect(self) -> http.client.HTTPConnection:
        self.host, self.port = self.nodes[self.current]
        return super()._connect()

    def _exchange(
        self, method: str, path: str, payload: bytes | None, headers: dict[str, str]
    ) -> tuple[int, bytes, str]:
        repeatable = method == "GET" or (payload is not None and b'"idempotency_key"' in payload)
        for attempt in range(len(self.nodes)):
            last = attempt == len(self.nodes) - 1
            try:
                answer = super()._exchange(method, path, payload, headers)
            except (OSError, http.client.HTTPException):
                if not repeatable or last:
                    raise
            else:
                # 502/504 from the node's proxy: its application is gone (killed under the request). The write
                # may have committed before it died: only a request safe to repeat goes to the next node.
                if answer[0] not in GATEWAY_ERRORS or not repeatable or last:
                    return answer
            self.connection.close()
            self.current = (self.current + 1) % len(self.nodes)
            self.connection = self._connect()
            self.tally.failover_times.append(time.monotonic())
        raise AssertionError("unreachable")


Step = Callable[[int, Client], None]


def client_for(base_url: str | Sequence[str], number: int, tally: Tally) -> Client:
    """Client `number` of a scenario: on the one node, or, given several nodes, a FailoverClient starting on
    node `number % len(nodes)`, so the clients alternate nodes and each falls back on the others in turn."""
    if isinstance(base_url, str):
        return Client(base_url, tally)
    first = number % len(base_url)
    return FailoverClient([*base_url[first:], *base_url[:first]], tally)


def run_closed_loop(base_url: str | Sequence[str], name: str, *, clients: int, seconds: float, step: Step) -> Tally:
    """Run `step(client_number, client)` in a loop on `clients` threads for `seconds` (or until a step raises
    OutOfWork on every thread); returns the merged tally with the wall time it took. Several base URLs (the
    nodes) give each client its own first node in turn (`client_for`)."""
    tallies = [Tally(name) for _ in range(clients)]
    deadline = time.monotonic() + seconds
    start_line = threading.Barrier(clients)

    def loop(number: int) -> None:
        client = client_for(base_url, number, tallies[number])
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
