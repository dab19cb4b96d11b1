"""The `watchers` scenario: N open public bracket pages, each an asyncio client that behaves like
static/js/live.js, while results are reported and confirmed through the API at a steady pace. Per N it prints the
time until each page shows each result (p50 / p99 / max, from the confirmation's response), the pages that never
showed it within DEADLINE_SECONDS, the HTTP requests per result and the server's CPU seconds per result.

A page does what live.js does: it loads the page once, then opens one websocket on
/ws/live/?groups=flight-<id>, asking for the bracket region's fragment from the version it holds
(&fragments=flight-<id>:<variant>:<version>, from the region's data-live-fragment and data-live-version) when
the page offers one; on {"type": "changed"} a 100 ms
debounce, then a GET of the page (one keep-alive connection per page; a change heard while that GET is under way
fetches once more after it, as the page's next debounce would). A {"type": "fragment", "regions": {...},
"version": ...} message (or its changed parts: "patches") shows at once, with no GET. A closed socket comes back
after live.js's jittered wait naming the version it shows; the server sends a newer fragment before "joined", and
the page refetches only when "joined" does not name its region current, as live.js does after missing changes.

"Shown" is judged from what the page holds, not from the message: the confirmed match's slot drawn as played
(`class="slot slot-played" id="slot-<pk>"`, the bracket template's markup) in the page fetched or in a fragment's
regions, or a fragment whose integer version is at least the flight's version read right after the
confirmation. The pure parts (time to show, CPU from /proc, the refusal to print a figure for no work) are
tested in tests/loadtest/test_watchers.py.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import re
import resource
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from loadtest.core import goal_text, percentile

DEBOUNCE_SECONDS = 0.1  # live.js's DEBOUNCE
DEADLINE_SECONDS = 10.0  # a page that has not shown a result this long after its confirmation missed it
INTERVAL_SECONDS = 2.0  # one result every 2 s: the world-championship day
GOAL_P99_MS = 2000
RETRY_BASE, RETRY_CAP = 0.5, 3.0  # live.js's reconnect: a random wait up to min(CAP, BASE * 2^failures)
OPEN_BATCH = 50  # sockets opened at once while the pages load
# The live region's fragment and the version it shows (templates/tournaments/_bracket_body.html).
FRAGMENT = re.compile(rb'data-live-fragment="([^"]+)" data-live-version="(\d+)"')


class MissingInput(Exception):
    """A figure's input is missing (no result confirmed, no page open, no server process measured): the scenario
    fails instead of printing a figure for zero work."""


# --- the arithmetic -------------------------------------------------------------------------------------------


def show_times(
    confirmed_at: Sequence[float | None], shown: Iterable[Mapping[int, float]], *, deadline: float
) -> tuple[list[float], int]:
    """Seconds from each confirmation's response until each page showed it, and how many (page, result) pairs
    missed: never shown, or shown later than `deadline` seconds after. A page may show a result before the
    confirmation's response arrives (the push leaves at the commit): that counts as 0, not as a negative time.
    Results whose confirmation failed (None) are not counted; with none confirmed, or no page, there is nothing
    to measure and MissingInput is raised."""
    confirmed = {n: at for n, at in enumerate(confirmed_at) if at is not None}
    pages = list(shown)
    if not confirmed:
        raise MissingInput("no result was confirmed")
    if not pages:
        raise MissingInput("no page was open")
    delays: list[float] = []
    missed = 0
    for page in pages:
        for number, at in confirmed.items():
            when = page.get(number)
            if when is None or when - at > deadline:
                missed += 1
            else:
                delays.append(max(0.0, when - at))
    return delays, missed


def parse_stat(text: str) -> tuple[int, int, int]:
    """(pid, parent pid, utime + stime in clock ticks) from a /proc/<pid>/stat line. The command name, field 2,
    is in parentheses and may hold spaces and parentheses itself, so the fields are counted after its last ')'."""
    head, _, rest = text.rpartition(")")
    fields = rest.split()
    if not head or len(fields) < 13:
        raise ValueError(f"not a /proc/<pid>/stat line: {text[:80]!r}")
    pid = int(head.split("(", 1)[0])
    # after ")": state(3) ppid(4) ... utime(14) stime(15), so utime is fields[11] and stime fields[12]
    return pid, int(fields[1]), int(fields[11]) + int(fields[12])


def descendants(parents: Mapping[int, int], roots: Iterable[int]) -> set[int]:
    """The roots and every process below them, from a pid -> parent pid map."""
    children: dict[int, list[int]] = {}
    for pid, parent in parents.items():
        children.setdefault(parent, []).append(pid)
    found: set[int] = set()
    todo = [r for r in roots if r in parents]
    while todo:
        pid = todo.pop()
        if pid not in found:
            found.add(pid)
            todo += children.get(pid, [])
    return found


def cpu_ticks(roots: Iterable[int], proc: str = "/proc") -> dict[int, int]:
    """CPU clock ticks (user + system) used so far by each process of the trees under `roots`."""
    stats: dict[int, tuple[int, int]] = {}
    for name in os.listdir(proc):
        if name.isdigit():
            with contextlib.suppress(OSError, ValueError):
                with open(f"{proc}/{name}/stat") as stat:
                    pid, parent, ticks = parse_stat(stat.read())
                stats[pid] = (parent, ticks)
    wanted = descendants({pid: parent for pid, (parent, _) in stats.items()}, roots)
    return {pid: stats[pid][1] for pid in wanted}


def cpu_per_result(
    before: Mapping[int, int], after: Mapping[int, int], results: int, *, ticks_per_second: float
) -> float:
    """Server CPU seconds per result between two `cpu_ticks` snapshots. A process that started in between
    counts from zero; one that ended in between cannot be read any more, and its time is lost (the figure is then
    low, never high). No process measured, or no result, is MissingInput."""
    if not after:
        raise MissingInput("no server process to measure")
    if results <= 0:
        raise MissingInput("no result was confirmed")
    used = sum(ticks - before.get(pid, 0) for pid, ticks in after.items())
    return used / ticks_per_second / results


# --- the pages ------------------------------------------------------------------------------------------------


@dataclass
class Result:
    """One result driven through the API: the slot it decides (whose markup a page shows), when its
    confirmation's response came (None until it did, or if it failed) and the flight's version after it."""

    slot: int
    marker: bytes = b""
    confirmed_at: float | None = None
    version: int | None = None

    def __post_init__(self) -> None:
        self.marker = b'class="slot slot-played" id="slot-%d"' % self.slot


@dataclass
class Board:
    """What every page shares: the results so far, and the figures' counters."""

    results: list[Result] = field(default_factory=list)
    requests: int = 0  # the pages' GETs
    drops: int = 0  # sockets the server closed under a page
    pages_shown: list[dict[int, float]] = field(default_factory=list)  # each page's shown results, at the end

    def look(self, page: Page, content: bytes, version: object = None) -> None:
        now = time.perf_counter()
        for number, result in enumerate(self.results):
            if number in page.shown:
                continue
            newer = isinstance(version, int) and result.version is not None and version >= result.version
            if newer or result.marker in content:
                page.shown[number] = now


class Page:
    """One open bracket page (see the module's docstring)."""

    def __init__(self, board: Board, base_url: str, path: str, group: str) -> None:
        self.board = board
        self.base_url = base_url
        parts = urlsplit(base_url)
        self.host, self.port = parts.hostname or "127.0.0.1", parts.port or 80
        self.path = path
        self.group = group
        self.ws_url = base_url.replace("http://", "ws://") + f"/ws/live/?groups={group}"
        self.variant: str | None = None  # the fragment the page's region offers, None when it offers none
        self.version = 0
        self.loaded = False
        self.shown: dict[int, float] = {}
        self.socket = None
        self.stream: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None
        self.pending: asyncio.Task | None = None
        self.again = False
        self.failures = 0
        self.current = False  # the last "joined" named the page's region current (its fragment is up to date)

    async def open(self) -> None:
        if not self.loaded:  # the page's own load, before the script opens its socket (not a refetch)
            content = await self.get(counted=False)
            if content is None:
                raise ConnectionError("the page did not load")
            self.loaded = True
            self.read_version(content)
        url = self.ws_url
        if self.variant is not None:
            url += f"&fragments={self.group}:{self.variant}:{self.version}"
        self.socket = await connect(url, origin=self.base_url, open_timeout=30, max_size=2**22)
        while True:  # a fragment newer than the page's comes first, then "joined"
            joined = json.loads(await asyncio.wait_for(self.socket.recv(), 30))
            if joined.get("type") != "fragment":
                break
            self.hear(json.dumps(joined))
        if joined.get("groups") != [self.group]:
            raise ConnectionError(f"the socket was refused the flight's group: {joined}")
        self.current = self.group in (joined.get("fragments") or {})

    async def listen(self) -> None:
        while True:
            try:
                async for raw in self.socket:
                    self.hear(raw)
            except ConnectionClosed:
                pass
            self.board.drops += 1
            while True:  # live.js: a jittered wait, then again; and one refetch for what went by
                await asyncio.sleep(0.1 + random.random() * min(RETRY_CAP, RETRY_BASE * 2**self.failures))
                self.failures = min(self.failures + 1, 10)
                try:
                    await self.open()
                except (OSError, TimeoutError, ConnectionError, InvalidHandshake, ConnectionClosed):
                    continue
                self.failures = 0
                if not self.current:  # live.js refetches only what "joined" did not name current
                    self.changed()
                break

    def hear(self, raw: str | bytes) -> None:
        try:
            message = json.loads(raw)
        except ValueError:
            return
        if message.get("type") == "fragment" and message.get("group") == self.group:
            regions = message.get("regions") or {}
            parts = [part for patch in (message.get("patches") or {}).values() for part in dict(patch).values()]
            content = "".join([*(str(v) for v in regions.values()), *(str(v) for v in parts)]).encode()
            if isinstance(message.get("version"), int):
                self.version = max(self.version, message["version"])
            self.board.look(self, content, message.get("version"))
        elif message.get("type") == "changed" and message.get("group") == self.group:
            self.changed()

    def changed(self) -> None:
        if self.pending is None:
            self.pending = asyncio.get_running_loop().create_task(self.refetch())
        else:
            self.again = True

    async def refetch(self) -> None:
        try:
            await asyncio.sleep(DEBOUNCE_SECONDS)
            while True:
                self.again = False
                content = await self.get()
                if content is not None:
                    self.read_version(content)
                    self.board.look(self, content)
                if not self.again:
                    break
                await asyncio.sleep(DEBOUNCE_SECONDS)
        finally:
            self.pending = None

    def read_version(self, content: bytes) -> None:
        """The fragment and version the page's live region now shows, as live.js reads them from the region."""
        found = FRAGMENT.search(content)
        if found:
            self.variant = found.group(1).decode()
            self.version = max(self.version, int(found.group(2)))

    async def get(self, *, counted: bool = True) -> bytes | None:
        """GET the page on the page's keep-alive connection (a new one when the server closed the old)."""
        if counted:
            self.board.requests += 1
        for _attempt in range(2):
            try:
                if self.stream is None:
                    self.stream = await asyncio.open_connection(self.host, self.port)
                return await asyncio.wait_for(_exchange(*self.stream, self.host, self.port, self.path), 30)
            except (OSError, TimeoutError, ValueError, asyncio.IncompleteReadError):
                if self.stream is not None:
                    self.stream[1].close()
                self.stream = None
        return None

    async def close(self) -> None:
        if self.pending is not None:
            self.pending.cancel()
        if self.stream is not None:
            self.stream[1].close()
        if self.socket is not None:
            await self.socket.close()


async def _exchange(
    reader: asyncio.StreamReader, writer: asyncio.StreamWriter, host: str, port: int, path: str
) -> bytes | None:
    """One HTTP/1.1 GET; the body of a 200, None for another status. A closed connection raises."""
    writer.write(f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nAccept: text/html\r\n\r\n".encode())
    await writer.drain()
    status = await reader.readline()
    if not status:
        raise ConnectionResetError("closed by the server")
    headers = {}
    while (line := await reader.readline()) not in (b"\r\n", b"\n", b""):
        name, _, value = line.decode("latin-1").partition(":")
        headers[name.strip().lower()] = value.strip()
    if headers.get("transfer-encoding", "").lower() == "chunked":
        body = bytearray()
        while size := int((await reader.readline()).split(b";")[0], 16):
            body += await reader.readexactly(size)
            await reader.readline()
        await reader.readline()
    else:
        body = await reader.readexactly(int(headers.get("content-length", "0")))
    if headers.get("connection", "").lower() == "close":
        raise ConnectionResetError("the server closes the connection")  # caught by get(): the body is lost
    return bytes(body) if status.split()[1:2] == [b"200"] else None


# --- the scenario ---------------------------------------------------------------------------------------------


def raise_open_files_limit(wanted: int) -> None:
    """Each page holds a socket and an HTTP connection: 2,000 pages need some 4,000 descriptors."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft < target:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))


@dataclass
class Run:
    """What one N's run found: the lines to print and the problems that fail the load test."""

    lines: list[str]
    problems: list[str]


def lines_for(
    name: str,
    *,
    pages: int,
    board: Board,
    deadline: float,
    driver_requests: int,
    cpu_before: Mapping[int, int],
    cpu_after: Mapping[int, int],
    client_cpu: float,
    ticks_per_second: float,
    short: bool,
) -> Run:
    """The `name: value unit` lines of one N, or a problem instead of figures when an input is missing."""
    prefix = f"loadtest_{name}_{pages}"
    confirmed = [r.confirmed_at for r in board.results]
    done = sum(1 for at in confirmed if at is not None)
    try:
        delays, missed = show_times(confirmed, board.pages_shown, deadline=deadline)
        cpu = cpu_per_result(cpu_before, cpu_after, done, ticks_per_second=ticks_per_second)
    except MissingInput as exc:
        return Run([], [f"{name} {pages}: {exc}; no figure printed"])
    p99 = percentile(delays, 0.99) * 1000 if delays else float("nan")
    lines = [
        f"{prefix}_results: {done} confirmed, one every {INTERVAL_SECONDS:g} s",
        f"{prefix}_p50_ms: {percentile(delays, 0.5) * 1000:.0f} ms" if delays else f"{prefix}_p50_ms: nan ms",
        f"{prefix}_p99_ms: {p99:.0f} ms{goal_text(p99, at_most=GOAL_P99_MS, unit=' ms')}"
        + (" (short run: timing not asserted)" if short else ""),
        f"{prefix}_max_ms: {max(delays, default=float('nan')) * 1000:.0f} ms",
        f"{prefix}_missed: {missed} of {pages * done} (not shown within {deadline:g} s)",
        f"{prefix}_requests_per_result: {(board.requests + driver_requests) / done:.0f} req "
        f"({board.requests} page GETs + {driver_requests} report/confirm)",
        f"{prefix}_cpu_per_result: {cpu:.2f} s (server processes, /proc utime+stime)",
        f"{prefix}_client_cpu_per_result: {client_cpu / done:.2f} s (the load test's own process)",
        f"{prefix}_socket_drops: {board.drops}",
    ]
    problems = [f"{name} {pages}: {missed} page-results not shown within {deadline:g} s"] if missed else []
    return Run(lines, problems)


async def _open_pages(pages: list[Page]) -> list[str]:
    problems = []
    for start in range(0, len(pages), OPEN_BATCH):
        batch = pages[start : start + OPEN_BATCH]
        outcomes = await asyncio.gather(*(p.open() for p in batch), return_exceptions=True)
        for outcome in outcomes:
            if isinstance(outcome, BaseException):
                problems.append(f"a page's socket did not open: {outcome!r}")
    return problems


async def _watch(
    base_url: str, path: str, group: str, count: int, board: Board, drive, settle
) -> tuple[list[str], dict[int, int], dict[int, int], float]:
    pages = [Page(board, base_url, path, group) for _ in range(count)]
    problems = await _open_pages(pages)
    if problems:
        await asyncio.gather(*(p.close() for p in pages), return_exceptions=True)
        return [f"{len(problems)} of {count} sockets did not open, e.g. {problems[0]}"], {}, {}, 0.0
    listeners = [asyncio.create_task(p.listen()) for p in pages]
    await asyncio.to_thread(settle)
    before, after, client_cpu = await asyncio.to_thread(drive, pages)
    for task in listeners:
        task.cancel()
    board.pages_shown = [p.shown for p in pages]
    for start in range(0, len(pages), 200):
        await asyncio.gather(*(p.close() for p in pages[start : start + 200]), return_exceptions=True)
    return [], before, after, client_cpu


def quiet(server_pids, *, below: float = 0.3, longest: float = 20.0) -> None:
    """Wait until the server uses less than `below` of a core over a second (at most `longest` seconds): the pages
    just opened, or the last N's backlog of refetches, must not be counted as this N's work per result."""
    ticks = os.sysconf("SC_CLK_TCK")
    deadline = time.monotonic() + longest
    while time.monotonic() < deadline:
        before = cpu_ticks(server_pids())
        time.sleep(1.0)
        after = cpu_ticks(server_pids())
        if sum(t - before.get(pid, 0) for pid, t in after.items()) / ticks < below:
            return


def watchers(
    base_url: str,
    flight,
    queue_factory,
    client_factory,
    *,
    counts: Sequence[int],
    results: int,
    server_pids,
    short: bool,
    flights: Sequence | None = None,
    say=None,
) -> tuple[list[str], list[str]]:
    """Run the scenario for each N in `counts`, each on its own flight (`flights`, else `flight` for all), and
    return (lines, problems). `queue_factory(flight)` gives a MatchQueue; `client_factory(n)` an HTTP Client
    (its tally, the report + confirm requests' own, is the caller's to print);
    `server_pids()` the stack's process ids whose trees are measured; `say`, when given, prints each N's lines as
    soon as they are known (the full run takes minutes) instead of returning them."""
    raise_open_files_limit(4 * max(counts) + 256)
    ticks = os.sysconf("SC_CLK_TCK")
    lines: list[str] = []
    problems: list[str] = []
    for index, count in enumerate(counts):
        data = flights[index] if flights else flight
        board = Board()
        queue = queue_factory(data)
        client = client_factory(count)
        requests = [0]

        def drive(pages: list[Page], queue=queue, client=client, board=board, requests=requests):
            return _drive(queue, client, board, pages, results, requests, server_pids, ticks)

        try:
            found, before, after, client_cpu = asyncio.run(
                _watch(base_url, data.page, f"flight-{data.id}", count, board, drive, lambda: quiet(server_pids))
            )
        finally:
            queue.close()
            client.close()
        if found:
            problems += [f"watchers {count}: {p}" for p in found]
            continue
        run = lines_for(
            "watchers",
            pages=count,
            board=board,
            deadline=DEADLINE_SECONDS,
            driver_requests=requests[0],
            cpu_before=before,
            cpu_after=after,
            client_cpu=client_cpu,
            ticks_per_second=ticks,
            short=short,
        )
        if say is not None:
            for line in run.lines:
                say(line)
        else:
            lines += run.lines
        problems += run.problems
    return lines, problems


def _drive(queue, client, board: Board, pages: list[Page], results: int, requests: list[int], server_pids, ticks):
    """Report and confirm `results` matches one every INTERVAL_SECONDS (on this thread, while the pages run on
    the event loop), then wait until every page showed every result or the deadline passed. Returns the server's
    CPU ticks before and after, and this process's own CPU seconds meanwhile."""
    before = cpu_ticks(server_pids())
    own = os.times()
    started = time.monotonic()
    for number in range(results):
        time.sleep(max(0.0, started + number * INTERVAL_SECONDS - time.monotonic()))
        try:
            match, length, token_a, token_b = queue.take()
        except Exception:  # noqa: BLE001 - OutOfWork: fewer results than asked; the figures say how many
            break
        slot = queue.database.execute("SELECT id FROM tournaments_slot WHERE match_id = %s", [match]).fetchone()[0]
        body = {"method": "final_score", "score_a": length, "score_b": 0}
        path = f"/api/v1/matches/{match}/"
        status, report = client.request("POST", path + "reports/", token=token_a, body=body)
        requests[0] += 1
        if status != 201 or report is None:
            continue
        result = Result(slot)
        board.results.append(result)  # before the confirmation: a page may show it before its response comes
        status, _ = client.request("POST", path + "confirm/", token=token_b, body={"version": report["version"]})
        requests[0] += 1
        if status == 200:
            result.confirmed_at = time.perf_counter()
            flight = queue.database.execute("SELECT flight_id FROM tournaments_slot WHERE id = %s", [slot])
            result.version = queue.database.execute(
                "SELECT count(*) FROM tournaments_flightchange WHERE flight_id = %s", [flight.fetchone()[0]]
            ).fetchone()[0]
    last = max((r.confirmed_at for r in board.results if r.confirmed_at is not None), default=time.perf_counter())
    while time.perf_counter() < last + DEADLINE_SECONDS:
        if all(len(p.shown) == len(board.results) for p in pages):
            break
        time.sleep(0.2)
    after = cpu_ticks(server_pids())
    ended = os.times()
    client.tally.seconds = time.monotonic() - started
    return before, after, (ended.user - own.user) + (ended.system - own.system)


def counts_from(value: str, *, short: bool) -> list[int]:
    """LOADTEST_WATCHERS ("200,500"), else 200 alone in the short run and 200, 500, 1,000, 2,000 in the full."""
    if value.strip():
        return [int(v) for v in value.split(",") if v.strip()]
    return [200] if short else [200, 500, 1000, 2000]
