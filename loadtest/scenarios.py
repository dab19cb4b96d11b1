"""The scenarios: what many people do at once on a tournament day, each run by closed-loop clients against the
running stack. Every scenario returns its tallies (the figures) and what the integrity check found afterwards.

The work queues that hand out distinct matches read the database directly (between requests, never timed), so
a client never sends a request the server must refuse because another client took its match first.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import threading
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import psycopg
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from loadtest import integrity, watchers
from loadtest.clients import Client, OutOfWork, run_closed_loop
from loadtest.core import Tally, percentile
from loadtest.fixtures import Fixture, FlightData
from tournaments.models import Slot

CORPUS = Path(__file__).resolve().parent.parent / "tests" / "data" / "corpus" / "gnubg"
BUSY = (409,)  # a lock that timed out (or a deadlock PostgreSQL broke) answers 409 `busy`: the client may retry


@dataclass
class Outcome:
    tallies: list[Tally]
    problems: list[str] = field(default_factory=list)
    extra: list[str] = field(default_factory=list)  # further `name: value unit` lines


def baseline(base_url: str, path: str, *, clients: int, seconds: float, name: str = "static") -> Tally:
    """The bare request (loadtest/reference.py): a static file, read in a closed loop."""

    def step(_n: int, client: Client) -> None:
        client.request("GET", path)

    return run_closed_loop(base_url, f"{name}_{clients}_clients", clients=clients, seconds=seconds, step=step)


def read(base_url: str, name: str, path: str, *, clients: int, seconds: float) -> Outcome:
    def step(_n: int, client: Client) -> None:
        client.request("GET", path)

    return Outcome([run_closed_loop(base_url, name, clients=clients, seconds=seconds, step=step)])


class MatchQueue:
    """Ready matches of some flights handed out one at a time; refilled from the database when empty, so the
    later rounds follow as the earlier ones are confirmed (unless `first_round_only`).

    The refill runs on a connection the queue opened before the load began: under load the stack may hold every
    connection PostgreSQL allows, and the load test must still be able to read (and report that)."""

    def __init__(self, flights: list[FlightData], *, first_round_only: bool = False) -> None:
        self.people = {pid: person for f in flights for pid, person in f.people.items()}
        slots = Slot.objects.filter(flight_id__in=[f.id for f in flights], result="ready", match__isnull=False)
        if first_round_only:
            slots = slots.filter(round=1)
        fields = ("match_id", "match__length", "entry_a__player_id", "entry_b__player_id")
        self.query = slots.values_list(*fields).query.sql_with_params()
        self.database = psycopg.connect(os.environ["DATABASE_URL"], autocommit=True)
        self.taken: set[int] = set()
        self.waiting: list[tuple[int, int, str, str]] = []
        self.confirmed: list[int] = []
        self.lock = threading.Lock()

    def _refill(self) -> None:
        rows = self.database.execute(*self.query).fetchall()
        self.waiting = [
            (m, length, self.people[a].token, self.people[b].token) for m, length, a, b in rows if m not in self.taken
        ]

    def close(self) -> None:
        self.database.close()

    def take(self) -> tuple[int, int, str, str]:
        with self.lock:
            if not self.waiting:
                self._refill()
            if not self.waiting:
                raise OutOfWork
            match = self.waiting.pop()
            self.taken.add(match[0])
            return match

    def report_and_confirm(self, client: Client) -> None:
        """Player A reports a win, player B confirms it: two requests, both timed."""
        match, length, token_a, token_b = self.take()
        body = {"method": "final_score", "score_a": length, "score_b": 0}
        status, report = client.request("POST", f"/api/v1/matches/{match}/reports/", token=token_a, body=body)
        if status != 201 or report is None:
            return
        confirm = {"version": report["version"]}
        status, _ = client.request("POST", f"/api/v1/matches/{match}/confirm/", token=token_b, body=confirm)
        if status == 200:
            with self.lock:
                self.confirmed.append(match)


def report_confirm(base_url: str | Sequence[str], fixture: Fixture, *, clients: int, seconds: float) -> Outcome:
    queue = MatchQueue(fixture.results)

    def step(_n: int, client: Client) -> None:
        queue.report_and_confirm(client)

    tally = run_closed_loop(base_url, "report_confirm", clients=clients, seconds=seconds, step=step)
    queue.close()
    problems = [p for f in fixture.results for p in integrity.bracket(f.id, confirmed=queue.confirmed)]
    extra = [
        f"loadtest_report_confirm_matches: {len(queue.confirmed)} confirmed",
        f"loadtest_report_confirm_seconds: {tally.seconds:.1f} s of {seconds:g}"
        + (" (ran out of matches: the figures are not of a steady load)" if tally.seconds < 0.9 * seconds else ""),
    ]
    return Outcome([tally], problems, extra)


def round_end(base_url: str, fixture: Fixture, *, clients: int, limit_seconds: float) -> Outcome:
    """Every first-round match of the 128-entrant flight reported and confirmed, as fast as the clients go."""
    queue = MatchQueue([fixture.round_end], first_round_only=True)

    def step(_n: int, client: Client) -> None:
        queue.report_and_confirm(client)

    tally = run_closed_loop(base_url, "round_end", clients=clients, seconds=limit_seconds, step=step)
    queue.close()
    problems = integrity.bracket(fixture.round_end.id, confirmed=queue.confirmed)
    matches = len(fixture.round_end.people) // 2
    if len(queue.confirmed) != matches:
        problems.append(f"round end: {len(queue.confirmed)} of {matches} first-round matches confirmed")
    extra = [
        f"loadtest_round_end_seconds: {tally.seconds:.1f} s for {len(queue.confirmed)} matches (goal <= 60 s)"
        + (" MISSED" if tally.seconds > 60 else "")
    ]
    return Outcome([tally], problems, extra)


def calcutta_bids(base_url: str, fixture: Fixture, *, seconds: float) -> Outcome:
    """Every registered bidder bids on the lot that is up, each a little over the highest bid it knows of."""
    high = [0]
    accepted = [0]
    lock = threading.Lock()
    path = f"/api/v1/calcuttas/{fixture.calcutta_id}/bids/"

    def step(n: int, client: Client) -> None:
        bidder, token = fixture.bidders[n]
        amount = high[0] + 100 * random.randint(1, 3)
        body = {"lot": fixture.lot_number, "bidder": bidder, "amount": f"{amount / 100:.2f}"}
        status, _ = client.request("POST", path, token=token, body=body, refusals=(400, *BUSY))
        if status == 201:
            with lock:
                high[0] = max(high[0], amount)
                accepted[0] += 1

    tally = run_closed_loop(base_url, "calcutta_bid", clients=len(fixture.bidders), seconds=seconds, step=step)
    return Outcome([tally], integrity.calcutta(fixture.calcutta_id, accepted=accepted[0]))


def chouette_games(base_url: str, fixture: Fixture, *, seconds: float) -> Outcome:
    """Every player of the table enters games from their own phone."""
    accepted = [0]
    lock = threading.Lock()
    path = f"/api/v1/chouette/sessions/{fixture.chouette_id}/games/"

    def step(n: int, client: Client) -> None:
        body = {"winner": random.choice(["box", "team"]), "idempotency_key": uuid.uuid4().hex}
        token = fixture.chouette_players[n].token
        status, _ = client.request("POST", path, token=token, body=body, refusals=BUSY)
        if status == 201:
            with lock:
                accepted[0] += 1

    clients = len(fixture.chouette_players)
    tally = run_closed_loop(base_url, "chouette_entry", clients=clients, seconds=seconds, step=step)
    return Outcome([tally], integrity.chouette(fixture.chouette_id, accepted=accepted[0]))


def overrides(base_url: str, fixture: Fixture, *, seconds: float) -> Outcome:
    """Two directors override the same result of one event at the same moment, choosing different winners, while
    a third overrides a result of another event: the other event's override must not wait for the pair."""
    same, other = fixture.override_flights[0], fixture.override_flights[1]
    targets = {}
    for data in (same, other):
        slot = Slot.objects.select_related("match").get(flight_id=data.id, section="w", round=1, position=0)
        targets[data.id] = (f"{data.base}slots/{slot.pk}/override/", slot.match.length)
    tallies = [Tally("override_same_event"), Tally("override_same_event"), Tally("override_other_event")]
    plan = [(same, 0, 0), (same, 1, 1), (other, 2, None)]
    start_line = threading.Barrier(len(plan))
    deadline = time.monotonic() + seconds
    stop = threading.Event()

    def director(data: FlightData, number: int, side: int | None) -> None:
        client = Client(base_url, tallies[number])
        path, length = targets[data.id]
        token = fixture.directors[number].token
        rounds = 0
        try:
            while True:
                start_line.wait()
                if stop.is_set():
                    return
                winner = side if side is not None else rounds % 2
                score = (length, 0) if winner == 0 else (0, length)
                body = {"winner_side": winner, "outcome": "played", "score_a": score[0], "score_b": score[1]}
                body["comment"] = "load test: two directors at once"
                client.request("POST", path, token=token, body=body, refusals=BUSY)
                rounds += 1
                start_line.wait()
                if number == 0 and time.monotonic() >= deadline:
                    stop.set()
        finally:
            client.close()

    threads = [threading.Thread(target=director, args=args, daemon=True) for args in plan]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - started
    tallies[0].merge(tallies[1])
    for tally in (tallies[0], tallies[2]):
        tally.seconds = elapsed
    problems = integrity.override(same.id) + integrity.override(other.id)
    return Outcome([tallies[0], tallies[2]], problems)


def uploads_while_reading(
    base_url: str, fixture: Fixture, *, readers: int, records: int, verdict_seconds: float
) -> Outcome:
    """Records uploaded (each one request) while the bracket page is being read; then every record must get its
    verdict from the worker within `verdict_seconds`."""
    files = sorted(CORPUS.glob("*.mat"), key=lambda p: p.stat().st_size)[:records]
    work = list(files)
    lock = threading.Lock()
    uploaders = 2
    upload_tally = [Tally("upload") for _ in range(uploaders)]
    upload_clients: dict[int, Client] = {}
    record_ids: list[int] = []
    accepted = [0]
    finished = [0]
    done = threading.Event()

    def step(n: int, client: Client) -> None:
        if n >= uploaders:
            if done.is_set():
                raise OutOfWork
            client.request("GET", fixture.bracket.page)
            return
        uploader = upload_clients.setdefault(n, Client(base_url, upload_tally[n]))
        with lock:
            if not work:
                raise OutOfWork
            path = work.pop()
        body = {"text": path.read_text(errors="replace"), "name": path.name}
        status, batch = uploader.request("POST", "/api/v1/game-records/", token=fixture.uploader.token, body=body)
        with lock:
            if status == 201 and batch:
                record_ids.extend(r["id"] for r in batch["records"])
                accepted[0] += 1
            finished[0] += 1
            if finished[0] == len(files):
                done.set()

    reads = run_closed_loop(
        base_url, "bracket_page_during_uploads", clients=readers + uploaders, seconds=120, step=step
    )
    for client in upload_clients.values():
        client.close()
    uploads = Tally("upload", seconds=reads.seconds)
    for tally in upload_tally:
        uploads.merge(tally)
    deadline = time.monotonic() + verdict_seconds
    started = time.monotonic()
    while integrity.records_waiting(record_ids) and time.monotonic() < deadline:
        time.sleep(0.5)
    waited = time.monotonic() - started
    problems = integrity.verdicts(record_ids, uploaded=accepted[0])
    extra = [f"loadtest_upload_verdicts_seconds: {waited:.1f} s after the last upload ({len(record_ids)} records)"]
    return Outcome([reads, uploads], problems, extra)


async def _arrival(socket, sent: float) -> float | None:
    """Seconds from `sent` until the socket's next message; None when none came within 15 s or the server closed
    the socket (both are a phone that missed the result)."""
    try:
        await asyncio.wait_for(socket.recv(), 15)
    except (TimeoutError, ConnectionClosed):
        return None
    return time.perf_counter() - sent


async def _push_rounds(
    base_url: str, fixture: Fixture, sockets: int, rounds: int, socket_urls: Sequence[str]
) -> tuple[list[float], int]:
    flight = fixture.bracket
    opened = []
    for number in range(sockets):
        node = socket_urls[number % len(socket_urls)]
        ws_url = node.replace("http://", "ws://") + f"/ws/live/?groups=flight-{flight.id}"
        socket = await connect(ws_url, origin=node, open_timeout=20)
        joined = json.loads(await asyncio.wait_for(socket.recv(), 20))
        if joined.get("groups") != [f"flight-{flight.id}"]:
            raise SystemExit(f"loadtest: the socket was refused the flight's group: {joined}")
        opened.append(socket)
    queue = MatchQueue([flight], first_round_only=True)
    delays: list[float] = []
    missed = 0
    client = Client(base_url, Tally("push_trigger"))
    try:
        for _ in range(rounds):
            match, length, token_a, token_b = await asyncio.to_thread(queue.take)
            body = {"method": "final_score", "score_a": length, "score_b": 0}
            path = f"/api/v1/matches/{match}/"
            _status, report = await asyncio.to_thread(
                client.request, "POST", path + "reports/", token=token_a, body=body
            )
            await asyncio.sleep(0.5)
            for socket in opened:  # whatever the report itself pushed is not this round's figure
                while True:
                    try:
                        await asyncio.wait_for(socket.recv(), 0.001)
                    except (TimeoutError, ConnectionClosed):
                        break
            sent = time.perf_counter()
            confirm = asyncio.create_task(
                asyncio.to_thread(
                    client.request, "POST", path + "confirm/", token=token_b, body={"version": report["version"]}
                )
            )

            arrived = await asyncio.gather(*(_arrival(s, sent) for s in opened))
            await confirm
            delays += [a for a in arrived if a is not None]
            missed += sum(1 for a in arrived if a is None)
    finally:
        client.close()
        queue.close()
        await asyncio.gather(*(s.close() for s in opened), return_exceptions=True)
    return delays, missed


def push(
    base_url: str,
    fixture: Fixture,
    *,
    sockets: int,
    rounds: int,
    socket_urls: Sequence[str] = (),
    name: str = "push",
) -> Outcome:
    """Open sockets watching the bracket's flight; a result is confirmed; every socket must hear of it. The
    sockets are opened on `socket_urls` (default: the node the result is confirmed on); on another node the push
    must cross from the confirming node's process through Redis to theirs."""
    delays, missed = asyncio.run(_push_rounds(base_url, fixture, sockets, rounds, socket_urls or [base_url]))
    p99 = percentile(delays, 0.99) * 1000
    extra = [
        f"loadtest_{name}_{sockets}_sockets_p99: {p99:.0f} ms (from the confirmation sent to the push received)",
        f"loadtest_{name}_{sockets}_sockets_p50: {percentile(delays, 0.5) * 1000:.0f} ms",
        f"loadtest_{name}_missed: {missed} of {sockets * rounds}",
    ]
    problems = [f"{name}: {missed} sockets never heard of a confirmed result"] if missed else []
    return Outcome([], problems, extra)


def node_killed(base_urls: Sequence[str], fixture: Fixture, *, seconds: float, kill: Callable[[], None]) -> Outcome:
    """Bidders on the Calcutta lot and players at the chouette table, alternating nodes, each write with an
    idempotency key; halfway through, `kill` SIGKILLs one node. Its clients move to the other node and send
    their request again (FailoverClient). Nothing a client was told was stored (a 2xx) may be missing, nothing may
    be stored twice, and the auction and the ledger must still check out."""
    bids_acked: list[str] = []
    games_acked: list[str] = []
    lock = threading.Lock()
    bid_path = f"/api/v1/calcuttas/{fixture.calcutta_id}/bids/"
    game_path = f"/api/v1/chouette/sessions/{fixture.chouette_id}/games/"
    high = [0]

    def bid(n: int, client: Client) -> None:
        bidder, token = fixture.bidders[n]
        key = uuid.uuid4().hex
        amount = high[0] + 100 * random.randint(1, 3)
        body = {"lot": fixture.lot_number, "bidder": bidder, "amount": f"{amount / 100:.2f}", "idempotency_key": key}
        status, _ = client.request("POST", bid_path, token=token, body=body, refusals=(400, *BUSY))
        if 200 <= status < 300:
            with lock:
                high[0] = max(high[0], amount)
                bids_acked.append(key)

    def game(n: int, client: Client) -> None:
        key = uuid.uuid4().hex
        body = {"winner": random.choice(["box", "team"]), "idempotency_key": key}
        token = fixture.chouette_players[n].token
        status, _ = client.request("POST", game_path, token=token, body=body, refusals=BUSY)
        if 200 <= status < 300:
            with lock:
                games_acked.append(key)

    tallies: dict[str, Tally] = {}

    def run(name: str, count: int, step) -> None:
        tallies[name] = run_closed_loop(base_urls, name, clients=count, seconds=seconds, step=step)

    threads = [
        threading.Thread(target=run, args=("node_kill_bid", len(fixture.bidders), bid)),
        threading.Thread(target=run, args=("node_kill_chouette", len(fixture.chouette_players), game)),
    ]
    sockets = SocketsOnVictim(base_urls[-1], base_urls[0], f"flight-{fixture.bracket.id}", count=10)
    for thread in threads:
        thread.start()
    time.sleep(seconds / 2)
    killed_at = time.monotonic()
    kill()
    sockets.killed.set()
    for thread in threads:
        thread.join()
    moved, moved_seconds = sockets.result()
    moves = [t for tally in tallies.values() for t in tally.failover_times if t >= killed_at]
    stored_bids, stored_games = integrity.idempotency_keys(fixture.calcutta_id, fixture.chouette_id)
    problems = integrity.calcutta(fixture.calcutta_id, accepted=len(bids_acked))
    problems += integrity.chouette(fixture.chouette_id, accepted=len(games_acked))
    problems += [f"node kill: bid {k} was acknowledged and is not stored" for k in set(bids_acked) - stored_bids]
    problems += [f"node kill: game {k} was acknowledged and is not stored" for k in set(games_acked) - stored_games]
    lost = len(set(bids_acked) - stored_bids) + len(set(games_acked) - stored_games)
    extra = [
        f"loadtest_node_kill_writes_acknowledged: {len(bids_acked) + len(games_acked)} "
        f"({len(bids_acked)} bids, {len(games_acked)} chouette games)",
        f"loadtest_node_kill_writes_lost: {lost} (acknowledged, not stored)",
        f"loadtest_node_kill_failovers: {len(moves)} requests sent again to the surviving node",
        f"loadtest_node_kill_sockets_moved: {moved} of {sockets.count} in {moved_seconds:.1f} s "
        "(closed by the kill, joined again on the surviving node)",
        f"loadtest_node_kill_failover_seconds: {max(moves) - killed_at if moves else 0:.1f} s "
        "(from the kill to the last client moved)",
    ]
    if not moves:
        problems.append("node kill: no client moved to the surviving node (was the node killed?)")
    if moved != sockets.count:
        problems.append(f"node kill: {sockets.count - moved} of {sockets.count} sockets did not join the other node")
    return Outcome([tallies["node_kill_bid"], tallies["node_kill_chouette"]], problems, extra)


class SocketsOnVictim:
    """Live-page sockets held on the node about to be killed, as phones' open pages are: when the kill closes
    them, each reconnects to the surviving node (as live.js does through the balancer) and must be let into its
    group again there. Runs on a thread of its own from construction; `killed` is set right after the kill."""

    def __init__(self, victim: str, survivor: str, group: str, *, count: int) -> None:
        self.count = count
        self.killed = threading.Event()
        self.opened = threading.Event()
        self.outcome: tuple[int, float] = (0, 0.0)
        self.urls = [u.replace("http://", "ws://") + f"/ws/live/?groups={group}" for u in (victim, survivor)]
        self.origins = (victim, survivor)
        self.group = group
        self.thread = threading.Thread(target=lambda: asyncio.run(self._run()), daemon=True)
        self.thread.start()
        if not self.opened.wait(30):
            raise SystemExit("loadtest: the sockets on the node to be killed did not open in 30 s")

    async def _join(self, node: int):
        socket = await connect(self.urls[node], origin=self.origins[node], open_timeout=5)
        joined = json.loads(await asyncio.wait_for(socket.recv(), 5))
        if joined.get("groups") != [self.group]:
            await socket.close()
            raise ConnectionError(f"not let into {self.group}: {joined}")
        return socket

    async def _move(self, socket) -> float | None:
        """Wait for the kill to close the socket, then join again on the survivor; when that took (seconds
        after the kill), or None if it did not within 15 s."""
        await asyncio.to_thread(self.killed.wait)
        killed_at = time.monotonic()
        with contextlib.suppress(ConnectionClosed, TimeoutError):
            while True:
                await asyncio.wait_for(socket.recv(), 15)
        deadline = killed_at + 15
        while time.monotonic() < deadline:
            try:
                moved = await self._join(1)
            except (OSError, TimeoutError, ConnectionError, InvalidHandshake):
                await asyncio.sleep(0.2)
                continue
            await moved.close()
            return time.monotonic() - killed_at
        return None

    async def _run(self) -> None:
        sockets = [await self._join(0) for _ in range(self.count)]
        self.opened.set()
        took = [t for t in await asyncio.gather(*(self._move(s) for s in sockets)) if t is not None]
        self.outcome = (len(took), max(took, default=0.0))

    def result(self) -> tuple[int, float]:
        self.thread.join(30)
        return self.outcome


def watch(
    base_url: str, fixture: Fixture, *, counts: Sequence[int], results: int, server_pids, short: bool, say=None
) -> Outcome:
    """N open public bracket pages behaving like live.js while results are confirmed one every 2 s: the time until
    every page shows each result, requests and server CPU per result (loadtest/watchers.py). Each N watches a flight
    of its own, so every N sees first-round results of the same kind."""
    drivers: list[Tally] = []

    def driver(count: int) -> Client:
        drivers.append(Tally(f"watchers_{count}_report_confirm"))
        return Client(base_url, drivers[-1])

    lines, problems = watchers.watchers(
        base_url,
        fixture.watched[0],
        lambda data: MatchQueue([data]),
        driver,
        counts=counts,
        results=results,
        server_pids=server_pids,
        short=short,
        flights=fixture.watched,
        say=say,
    )
    return Outcome(drivers, problems, lines)
