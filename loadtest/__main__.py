"""`make loadtest` (`python -m loadtest`): start the production-like stack, build the fixture, run every scenario
for LOADTEST_SECONDS (20 by default; CI runs 4), check the integrity of what they left, print `name: value unit`
lines and exit non-zero when a check failed or a request ended in a server error. Ratios and p99s are printed
beside their goals and never fail the run: shared machines are too noisy to assert them. docs/performance.md.

LOADTEST_NODES=2 (`make loadtest-nodes`) runs the site as two nodes instead (docs/deploy.md): pushes must cross
from one node to sockets on the other, results reported and confirmed from clients alternating nodes must leave
sound brackets, and one node SIGKILLed halfway through a run of bids and chouette games must lose nothing a
client was told was stored, its clients moving to the other node. Every run prints the connection peak against
the connection budget of the stack's own settings."""

import math
import os
import signal
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from loadtest.stack import (  # noqa: E402
    NODES,
    REPO,
    SERVER,
    SOCKET_WORKERS,
    THREADS,
    WORKER_CONCURRENCY,
    WORKERS,
    Stack,
    environment,
    port,
)

STACK = Stack()
os.environ.update(environment(STACK.media))  # the stack's own database and Redis, whatever CI exported

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.db import connections  # noqa: E402

from base.connections import Budget  # noqa: E402
from loadtest import fixtures, reference, scenarios, watchers  # noqa: E402
from loadtest.core import Baseline, Tally, goal_text, ratio, report_lines  # noqa: E402

SECONDS = float(os.environ.get("LOADTEST_SECONDS", "20"))
SHORT = SECONDS < 10
RESULTS_PER_SECOND = 60  # confirmed matches a second the fixture has room for: about twice what is measured
# The same for the two-node run, whose ten report + confirm clients confirmed about 5 matches a second on the two
# cores it shares with everything else.
NODES_RESULTS_PER_SECOND = 15
SCENARIOS = (
    "bracket",
    "report_confirm",
    "calcutta",
    "chouette",
    "overrides",
    "round_end",
    "uploads",
    "push",
    "watchers",
)
# LOADTEST_ONLY=calcutta,chouette runs those scenarios alone (after the baselines): to look at one of them, e.g.
# with pg_stat_activity, without the others in the way. Every scenario runs when it is unset, as in CI.
ONLY = {name.strip() for name in os.environ.get("LOADTEST_ONLY", "").split(",") if name.strip()}
if ONLY and NODES > 1:
    raise SystemExit("loadtest: LOADTEST_ONLY is for the one-node run; LOADTEST_NODES runs its own scenarios")
if ONLY - set(SCENARIOS):
    raise SystemExit(f"LOADTEST_ONLY: unknown scenario(s) {sorted(ONLY - set(SCENARIOS))}; choose from {SCENARIOS}")


# The watchers scenario's numbers of open pages: LOADTEST_WATCHERS=200,1000, else 200 in the short run (CI) and
# 200, 500, 1,000, 2,000 in the full one. Results driven per N: 4 in the short run, 10 in the full.
WATCHERS = watchers.counts_from(os.environ.get("LOADTEST_WATCHERS", ""), short=SHORT)
WATCHER_RESULTS = 4 if SHORT else 10
GUNICORN_PORT_OFFSET = 30  # the gunicorn reference: LOADTEST_PORT + 30 (the nodes use +0, +10, +20)


def wanted(name: str) -> bool:
    return not ONLY or name in ONLY


def results_flights() -> int:
    """Flights of 64 (63 matches each) for report + confirm: enough that its ten clients work for the whole
    LOADTEST_SECONDS at up to RESULTS_PER_SECOND confirmed matches. With two flights the scenario ran out of matches
    after 4.6 s of 20, and its figures were those of a round's first burst and its drain (clients leaving as the
    rounds narrowed), not of the load it names; `loadtest_report_confirm_seconds` says when that happens."""
    if NODES == 1 and not wanted("report_confirm"):
        return 1  # e.g. LOADTEST_ONLY=watchers: the fixture is most of a short run's time
    return max(1, math.ceil(SECONDS * (RESULTS_PER_SECOND if NODES == 1 else NODES_RESULTS_PER_SECOND) / 63))


def say(line: str) -> None:
    print(line, flush=True)


def run() -> int:
    began = time.monotonic()
    STACK.start()
    # The main thread keeps its connection for the checks: under load the stack may take all the others.
    if NODES == 1:
        watched = len(WATCHERS) if wanted("watchers") else 0
        fixture = fixtures.build(results_flights=results_flights(), override_events=2, watched_flights=watched)
    else:
        fixture = fixtures.build(results_flights=results_flights(), override_events=0, round_end_entrants=8)
    STACK.wait_healthy()
    STACK.start_counting_connections()
    nodes = f"{NODES} nodes of {WORKERS} web workers" if NODES > 1 else f"{WORKERS} web workers"
    say(f"# stack ({nodes}) and fixture ready in {time.monotonic() - began:.0f} s; {SECONDS:g} s per scenario")
    report = Report()
    if NODES > 1:
        run_nodes(report, fixture)
    else:
        run_one_node(report, fixture)
    connections.close_all()

    logged = STACK.server_errors()
    max_connections = STACK.max_connections()
    split = SERVER == "split"  # gunicorn threads for HTTP and uvicorn pools for sockets, or uvicorn's pools alone
    budget = Budget(  # the deployment's own formula (base.connections, docs/connections.md), for this stack
        nodes=NODES,
        web_workers=WORKERS if split else 0,
        web_threads=THREADS if split else 0,
        socket_workers=SOCKET_WORKERS if split else WORKERS,
        pool_max=settings.DATABASE_POOL_MAX_SIZE,
        worker_concurrency=WORKER_CONCURRENCY,
        headroom=settings.DATABASE_HEADROOM,
        max_connections=max_connections,
    )
    say(f"loadtest_db_connections_peak: {STACK.connections_peak} (PostgreSQL max_connections {max_connections})")
    verdict = "within" if budget.fits else "OVER"
    say(f"loadtest_db_connections_budget: {budget.total} ({verdict} PostgreSQL max_connections {max_connections})")
    for line in budget.lines()[:-1]:
        say(f"#   {line}")
    say(f"loadtest_total_seconds: {time.monotonic() - began:.0f} s")
    say(f"loadtest_integrity_problems: {len(report.problems)}")
    say(f"loadtest_request_errors: {report.errors}")
    for sample in report.samples[:10]:
        say(f"  error: {sample}")
    for line in logged:
        say(f"  logged: {line}")
    if report.problems or report.errors:
        say("loadtest: FAILED (integrity problems or request errors above)")
        return 1
    say("loadtest: integrity ok")
    return 0


class Report:
    """What the scenarios found, printed as it comes: their lines, their integrity problems and their errors."""

    def __init__(self) -> None:
        self.problems: list[str] = []
        self.errors = 0
        self.samples: list[str] = []

    def tally(self, tally: Tally, base: Baseline | None = None, **goals: float) -> None:
        for line in report_lines(tally, base, **goals):
            say(line)
        self.errors += tally.errors
        self.samples.extend(tally.error_samples)

    def show(
        self, outcome: scenarios.Outcome, base: Baseline | None = None, *, goals_for: str = "", **goals: float
    ) -> None:
        """Print the outcome's lines; `goals_for` names the one tally the goals are for (others are reported
        without a goal), else they are every tally's."""
        for tally in outcome.tallies:
            self.tally(tally, base, **(goals if goals_for in ("", tally.name) else {}))
        for line in outcome.extra:
            say(line)
        for problem in outcome.problems:
            say(f"INTEGRITY: {problem}")
        self.problems.extend(outcome.problems)


def run_nodes(report: Report, fixture: fixtures.Fixture) -> None:
    """The two-node run: pushes across nodes both ways, report + confirm from clients alternating nodes, then
    bids and chouette games alternating nodes with the last node killed halfway."""
    first, *others = STACK.base_urls
    report.show(scenarios.push(first, fixture, sockets=20, rounds=2, socket_urls=others, name="push_cross_node"))
    report.show(
        scenarios.push(others[0], fixture, sockets=20, rounds=2, socket_urls=[first], name="push_cross_node_back")
    )
    report.show(scenarios.report_confirm(STACK.base_urls, fixture, clients=10, seconds=SECONDS))
    report.show(
        scenarios.node_killed(
            STACK.base_urls, fixture, seconds=max(SECONDS, 4.0), kill=lambda: STACK.kill_node(NODES - 1)
        )
    )


# The cheapest request that goes through Django's whole stack (middleware, URL resolver, a view): the per-node
# liveness check, which asks neither the database nor the broker (base.views.live).
DJANGO_FLOOR = "/health/live/"


def measure_baselines(report: Report, url: str) -> dict[int, Baseline]:
    """The bare request (a static file through the production server) at 10 and 20 clients, then the same file
    through gunicorn's sync workers, started for this alone and stopped before the scenarios (loadtest/reference.py),
    and the bare request's rate against it (the goal: at least half); then the Django floor (DJANGO_FLOOR)."""
    path = reference.static_path(settings.STATIC_ROOT, settings.STATIC_URL)
    static = {n: scenarios.baseline(url, path, clients=n, seconds=SECONDS) for n in (10, 20)}
    with reference.Gunicorn(STACK.env, REPO, port() + GUNICORN_PORT_OFFSET, path=path) as gunicorn:
        served = {
            n: scenarios.baseline(gunicorn.base_url, path, clients=n, seconds=SECONDS, name="gunicorn_static")
            for n in (10, 20)
        }
    floor = {
        n: scenarios.baseline(url, DJANGO_FLOOR, clients=n, seconds=SECONDS, name="django_floor") for n in (10, 20)
    }
    say(f"# bare request: GET {path} (WhiteNoise), through the stack and through gunicorn --worker-class sync")
    for n in (10, 20):
        report.tally(static[n])
        report.tally(served[n])
        value = ratio(static[n], served[n])
        say(f"loadtest_static_vs_gunicorn_static_{n}_clients: {value:.2f}{goal_text(value, at_least=0.5)}")
    say(f"# the Django floor: GET {DJANGO_FLOOR} through the stack, the cheapest request Django answers")
    for n in (10, 20):
        report.tally(floor[n])
        say(f"loadtest_django_floor_vs_static_{n}_clients: {ratio(floor[n], static[n]):.2f}")
    return {n: Baseline(static[n], served[n], floor[n]) for n in (10, 20)}


def run_one_node(report: Report, fixture: fixtures.Fixture) -> None:
    """The ratio goals, against the bare request: bracket 0.6, report + confirm 0.4, bids and
    chouette 0.5."""
    url = STACK.base_url
    baselines = measure_baselines(report, url)
    show = report.show
    bracket = fixture.bracket
    if wanted("bracket"):
        show(
            scenarios.read(url, "bracket_page", bracket.page, clients=10, seconds=SECONDS),
            baselines[10],
            min_ratio=0.6,
            max_p99_ms=150,
        )
        show(
            scenarios.read(url, "bracket_api", bracket.api, clients=10, seconds=SECONDS),
            baselines[10],
            min_ratio=0.6,
            max_p99_ms=150,
        )
    if wanted("report_confirm"):
        show(
            scenarios.report_confirm(url, fixture, clients=10, seconds=SECONDS),
            baselines[10],
            min_ratio=0.4,
            max_p99_ms=300,
        )
    if wanted("calcutta"):
        show(scenarios.calcutta_bids(url, fixture, seconds=SECONDS), baselines[20], min_ratio=0.5, max_p99_ms=300)
    if wanted("chouette"):
        show(scenarios.chouette_games(url, fixture, seconds=SECONDS), baselines[10], min_ratio=0.5, max_p99_ms=300)
    if wanted("overrides"):
        show(scenarios.overrides(url, fixture, seconds=SECONDS), max_p99_ms=500)
    if wanted("round_end"):
        show(scenarios.round_end(url, fixture, clients=16, limit_seconds=120))
    if wanted("uploads"):
        verdict_wait = 60 if SHORT else 120
        show(
            scenarios.uploads_while_reading(url, fixture, readers=10, records=50, verdict_seconds=verdict_wait),
            baselines[10],
            goals_for="bracket_page_during_uploads",  # the page's goal; an upload's own latency has none
            max_p99_ms=150,
        )
    if wanted("push"):
        show(scenarios.push(url, fixture, sockets=200, rounds=2 if SHORT else 5))
    if wanted("watchers"):
        show(
            scenarios.watch(
                url, fixture, counts=WATCHERS, results=WATCHER_RESULTS, server_pids=STACK.pids, short=SHORT, say=say
            )
        )


def main() -> int:
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # a stop from CI ends the stack like ctrl-C does
    try:
        return run()
    finally:
        connections.close_all()
        STACK.stop()


if __name__ == "__main__":
    sys.exit(main())
