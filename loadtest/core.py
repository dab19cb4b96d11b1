"""The load test's arithmetic and its integrity checks, without Django: the figures (percentiles, throughput, the
ratio against a bare request) and the judges of the state a run left behind.

Each checker takes plain values read from the database after a run (lists of tuples and dicts, built by
`loadtest.integrity`) and returns the problems it found, one readable line each; an empty list means the state
is sound. Kept pure so a test can feed them a deliberately corrupted state and see them fail.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field


def percentile(values: Sequence[float], fraction: float) -> float:
    """The nearest-rank percentile (0 < fraction <= 1): the smallest value with at least that share of the values
    at or below it, so p99 of 100 values is the 99th smallest and one slow request in 100 does not hide."""
    if not values:
        return math.nan
    if not 0 < fraction <= 1:
        raise ValueError("fraction must be in (0, 1]")
    ordered = sorted(values)
    rank = max(1, math.ceil(fraction * len(ordered)))
    return ordered[rank - 1]


@dataclass
class Tally:
    """What the clients of one scenario saw: every request's latency (seconds) and how it ended.

    `refused` counts answers the application gives on purpose under contention (a bid already beaten, a lock
    timeout's 409 `busy`); `errors` counts what must not happen (a 5xx, a timeout, a broken connection).
    `failover_times` holds when (monotonic seconds) a client of several nodes sent a request again to another
    node after its own went away (loadtest.clients.FailoverClient): not errors, the retry's answer is the
    request's."""

    name: str
    latencies: list[float] = field(default_factory=list)
    ok: int = 0
    refused: int = 0
    errors: int = 0
    error_samples: list[str] = field(default_factory=list)
    seconds: float = 0.0
    failover_times: list[float] = field(default_factory=list)

    def add(self, latency: float, outcome: str, detail: str = "") -> None:
        self.latencies.append(latency)
        if outcome == "ok":
            self.ok += 1
        elif outcome == "refused":
            self.refused += 1
        else:
            self.errors += 1
            if len(self.error_samples) < 5:
                self.error_samples.append(detail)

    def merge(self, other: Tally) -> None:
        self.latencies += other.latencies
        self.ok += other.ok
        self.refused += other.refused
        self.errors += other.errors
        self.failover_times += other.failover_times
        self.error_samples = (self.error_samples + other.error_samples)[:5]

    @property
    def requests(self) -> int:
        return len(self.latencies)

    @property
    def throughput(self) -> float:
        """Requests answered as the application means to (ok or refused on purpose) per second of wall time: a
        server quickly answering 500s must not look fast."""
        return (self.ok + self.refused) / self.seconds if self.seconds > 0 else 0.0

    def p(self, fraction: float) -> float:
        """A latency percentile in milliseconds."""
        return percentile(self.latencies, fraction) * 1000


def ratio(tally: Tally, baseline: Tally) -> float:
    """Throughput against a bare request measured in the same run with the same concurrency."""
    return tally.throughput / baseline.throughput if baseline.throughput > 0 else 0.0


@dataclass(frozen=True)
class Baseline:
    """The yardsticks of one concurrency (loadtest/reference.py): the bare request through the production server
    (a static file), the same file through gunicorn's sync workers when that was measured, and the cheapest
    request that enters Django on the same stack (`/health/live/`: no database, no broker) when that was: no page
    or write Django serves can be faster than it, so a write's share of it says how much of the work is the
    write's own, and the floor's share of the static file says how far a ratio against the file can go at all."""

    static: Tally
    gunicorn: Tally | None = None
    django: Tally | None = None


def goal_text(value: float, *, at_least: float | None = None, at_most: float | None = None, unit: str = "") -> str:
    """` (goal >= 0.5)` beside a figure, with `MISSED` when the figure misses it (reported, never asserted)."""
    if at_least is not None:
        missed = " MISSED" if not value >= at_least else ""
        return f" (goal >= {at_least:g}{unit}){missed}"
    if at_most is not None:
        missed = " MISSED" if not value <= at_most else ""
        return f" (goal <= {at_most:g}{unit}){missed}"
    return ""


def report_lines(
    tally: Tally, baseline: Baseline | None, *, min_ratio: float | None = None, max_p99_ms: float | None = None
) -> list[str]:
    """The `name: value unit` lines of one scenario, like `make bench` prints them: its ratio against the bare
    request (the goal is for this one) and against the same file through gunicorn's sync workers."""
    prefix = f"loadtest_{tally.name}"
    lines = []
    if baseline is not None and tally is not baseline.static:
        value = ratio(tally, baseline.static)
        lines.append(f"{prefix}_ratio_vs_static: {value:.2f}{goal_text(value, at_least=min_ratio)}")
        if baseline.gunicorn is not None:
            lines.append(f"{prefix}_ratio_vs_gunicorn_static: {ratio(tally, baseline.gunicorn):.2f}")
        if baseline.django is not None:
            lines.append(f"{prefix}_ratio_vs_django_floor: {ratio(tally, baseline.django):.2f}")
    lines.append(f"{prefix}_throughput: {tally.throughput:.1f} req/s")
    p99 = tally.p(0.99)
    lines.append(f"{prefix}_p50: {tally.p(0.5):.0f} ms")
    lines.append(f"{prefix}_p99: {p99:.0f} ms{goal_text(p99, at_most=max_p99_ms, unit=' ms')}")
    lines.append(f"{prefix}_requests: {tally.requests} ({tally.refused} refused on purpose)")
    lines.append(f"{prefix}_errors: {tally.errors}")
    if tally.failover_times:
        failovers = len(tally.failover_times)
        lines.append(f"{prefix}_failovers: {failovers} (sent again to another node after theirs went away)")
    return lines


# --- the connection budget ------------------------------------------------------------------------------------


# --- integrity ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class BidRow:
    step: int
    lot: int
    bidder: int
    amount: int


def check_auction(bids: Sequence[BidRow], *, high: Mapping[int, tuple[int, int] | None], accepted: int) -> list[str]:
    """Bids on each lot strictly increase in the order they were placed, the lot's high bid is the last of them
    (one high bid, no tie), and the bids stored are exactly the ones the clients were told were accepted.

    `high` maps a lot to the (bidder, amount) the auction replay says is high; `accepted` counts the 201s."""
    problems = []
    by_lot: dict[int, list[BidRow]] = defaultdict(list)
    for bid in sorted(bids, key=lambda b: b.step):
        by_lot[bid.lot].append(bid)
    steps = Counter(bid.step for bid in bids)
    problems += [f"calcutta: step {step} holds {n} bids" for step, n in steps.items() if n > 1]
    for lot, rows in by_lot.items():
        for before, after in zip(rows, rows[1:], strict=False):
            if after.amount <= before.amount:
                problems.append(
                    f"calcutta: lot {lot} bid {after.amount} at step {after.step} does not beat {before.amount}"
                )
        last = rows[-1]
        if high.get(lot) != (last.bidder, last.amount):
            problems.append(f"calcutta: lot {lot} high bid is {high.get(lot)}, the last bid stored is {last}")
    if len(bids) != accepted:
        problems.append(f"calcutta: {len(bids)} bids stored, {accepted} accepted by the server")
    return problems


def check_ledger(
    games: Mapping[int, Mapping[int, int]], *, accepted: int, replayed: Mapping[int, Mapping[int, int]] | None = None
) -> list[str]:
    """A chouette table's ledger: every game's money sums to zero, there is one game per accepted entry,
    numbered 1..n without a gap, and (when given) a replay from the stored events gives the same lines."""
    problems = []
    for number, lines in games.items():
        total = sum(lines.values())
        if total != 0:
            problems.append(f"chouette: game {number} ledger sums to {total}, not 0")
    if sorted(games) != list(range(1, len(games) + 1)):
        problems.append(f"chouette: game numbers {sorted(games)[:10]}… are not 1..{len(games)}")
    if len(games) != accepted:
        problems.append(f"chouette: {len(games)} games stored, {accepted} accepted by the server")
    if replayed is not None and {k: dict(v) for k, v in replayed.items()} != {k: dict(v) for k, v in games.items()}:
        problems.append("chouette: the stored ledger differs from a replay of the session's events")
    return problems


@dataclass(frozen=True)
class SlotRow:
    round: int
    position: int
    entry_a: int | None
    entry_b: int | None
    winner: int | None
    match: int | None = None


def check_bracket(slots: Iterable[SlotRow], *, confirmed: Iterable[int] = ()) -> list[str]:
    """A single-elimination section: each decided slot's winner is one of its two players and sits in the next
    round's slot on its side exactly once; no player appears twice in one round; and every match the clients
    saw confirmed (`confirmed`, match ids) is decided."""
    problems = []
    rows = list(slots)
    at = {(s.round, s.position): s for s in rows}
    last_round = max((s.round for s in rows), default=0)
    for slot in rows:
        if slot.winner is not None and slot.winner not in (slot.entry_a, slot.entry_b):
            problems.append(f"bracket: r{slot.round}/{slot.position} winner {slot.winner} did not play there")
        if slot.winner is None or slot.round == last_round:
            continue
        nxt = at.get((slot.round + 1, slot.position // 2))
        side = None if nxt is None else (nxt.entry_a if slot.position % 2 == 0 else nxt.entry_b)
        if side != slot.winner:
            problems.append(
                f"bracket: r{slot.round}/{slot.position} winner {slot.winner} is not in the next slot (found {side})"
            )
    per_round: dict[int, Counter] = defaultdict(Counter)
    for slot in rows:
        per_round[slot.round].update(e for e in (slot.entry_a, slot.entry_b) if e is not None)
    for rnd, seen in per_round.items():
        problems += [f"bracket: entry {e} appears {n} times in round {rnd}" for e, n in seen.items() if n > 1]
    decided = {s.match for s in rows if s.winner is not None}
    problems += [f"bracket: match {m} was confirmed but its slot is not decided" for m in confirmed if m not in decided]
    return problems


def check_override(final_winner: int | None, candidates: Sequence[int], next_side: int | None) -> list[str]:
    """Two directors overrode one result at once: the end state must be what one of them would have left alone
    (a serial order), so the winner is one of the two they chose and the next round holds that winner."""
    problems = []
    if final_winner not in candidates:
        problems.append(f"override: the winner {final_winner} is none of the overrides' {list(candidates)}")
    if next_side != final_winner:
        problems.append(f"override: the next round holds {next_side}, the winner is {final_winner}")
    return problems


def check_verdicts(statuses: Mapping[int, str], *, uploaded: int, finished: Iterable[str]) -> list[str]:
    """Every record the server accepted got a verdict (none still pending or verifying)."""
    done = set(finished)
    problems = []
    if len(statuses) != uploaded:
        problems.append(f"uploads: {len(statuses)} records stored, {uploaded} uploaded")
    waiting = sorted(pk for pk, status in statuses.items() if status not in done)
    if waiting:
        problems.append(f"uploads: {len(waiting)} records have no verdict (e.g. {waiting[:5]})")
    return problems
