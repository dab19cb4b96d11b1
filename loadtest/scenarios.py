"""The scenarios: what many people do at once on a tournament day, each run by closed-loop clients against the
running stack. Every scenario returns its tallies (the figures) and what the integrity check found afterwards.

The work queues that hand out distinct matches read the database directly (between requests, never timed), so
a client never sends a request the server must refuse because another client took its match first.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

import psycopg
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from loadtest import integrity
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


def baseline(base_url: str, *, clients: int, seconds: float) -> Tally:
    def step(_n: int, client: Client) -> None:
        client.request("GET", "/health/")

    return run_closed_loop(base_url, f"health_{clients}_clients", clients=clients, seconds=seconds, step=step)


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


def report_confirm(base_url: str, fixture: Fixture, *, clients: int, seconds: float) -> Outcome:
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


async def _push_rounds(base_url: str, fixture: Fixture, sockets: int, rounds: int) -> tuple[list[float], int]:
    flight = fixture.bracket
    ws_url = base_url.replace("http://", "ws://") + f"/ws/live/?groups=flight-{flight.id}"
    opened = []
    for _ in range(sockets):
        socket = await connect(ws_url, origin=base_url, open_timeout=20)
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


def push(base_url: str, fixture: Fixture, *, sockets: int, rounds: int) -> Outcome:
    """Open sockets watching the bracket's flight; a result is confirmed; every socket must hear of it."""
    delays, missed = asyncio.run(_push_rounds(base_url, fixture, sockets, rounds))
    p99 = percentile(delays, 0.99) * 1000
    extra = [
        f"loadtest_push_{sockets}_sockets_p99: {p99:.0f} ms (from the confirmation sent to the push received)",
        f"loadtest_push_{sockets}_sockets_p50: {percentile(delays, 0.5) * 1000:.0f} ms",
        f"loadtest_push_missed: {missed} of {sockets * rounds}",
    ]
    problems = [f"push: {missed} sockets never heard of a confirmed result"] if missed else []
    return Outcome([], problems, extra)
