"""`make loadtest` (`python -m loadtest`): start the production-like stack, build the fixture, run every scenario
for LOADTEST_SECONDS (20 by default; CI runs 4), check the integrity of what they left, print `name: value unit`
lines and exit non-zero when a check failed or a request ended in a server error. Ratios and p99s are printed
beside their goals and never fail the run: shared machines are too noisy to assert them. docs/performance.md."""

import math
import os
import signal
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from loadtest.stack import Stack, environment  # noqa: E402

STACK = Stack()
os.environ.update(environment(STACK.media))  # the stack's own database and Redis, whatever CI exported

import django  # noqa: E402

django.setup()

from django.db import connections  # noqa: E402

from loadtest import fixtures, scenarios  # noqa: E402
from loadtest.core import Tally, report_lines  # noqa: E402

SECONDS = float(os.environ.get("LOADTEST_SECONDS", "20"))
SHORT = SECONDS < 10
RESULTS_PER_SECOND = 60  # confirmed matches a second the fixture has room for: about twice what is measured
SCENARIOS = ("bracket", "report_confirm", "calcutta", "chouette", "overrides", "round_end", "uploads", "push")
# LOADTEST_ONLY=calcutta,chouette runs those scenarios alone (after the baselines): to look at one of them, e.g.
# with pg_stat_activity, without the others in the way. Every scenario runs when it is unset, as in CI.
ONLY = {name.strip() for name in os.environ.get("LOADTEST_ONLY", "").split(",") if name.strip()}
if ONLY - set(SCENARIOS):
    raise SystemExit(f"LOADTEST_ONLY: unknown scenario(s) {sorted(ONLY - set(SCENARIOS))}; choose from {SCENARIOS}")


def wanted(name: str) -> bool:
    return not ONLY or name in ONLY


def results_flights() -> int:
    """Flights of 64 (63 matches each) for report + confirm: enough that its ten clients work for the whole
    LOADTEST_SECONDS at up to RESULTS_PER_SECOND confirmed matches. With two flights the scenario ran out of matches
    after 4.6 s of 20, and its figures were those of a round's first burst and its drain (clients leaving as the
    rounds narrowed), not of the load it names; `loadtest_report_confirm_seconds` says when that happens."""
    return max(1, math.ceil(SECONDS * RESULTS_PER_SECOND / 63))


def say(line: str) -> None:
    print(line, flush=True)


def run() -> int:
    began = time.monotonic()
    STACK.start()
    # The main thread keeps its connection for the checks: under load the stack may take all the others.
    fixture = fixtures.build(results_flights=results_flights(), override_events=2)
    STACK.wait_healthy()
    STACK.start_counting_connections()
    say(f"# stack and fixture ready in {time.monotonic() - began:.0f} s; {SECONDS:g} s per scenario")
    url = STACK.base_url
    baselines = {n: scenarios.baseline(url, clients=n, seconds=SECONDS) for n in (10, 20)}
    for tally in baselines.values():
        for line in report_lines(tally, None):
            say(line)

    problems: list[str] = []
    errors = sum(t.errors for t in baselines.values())
    samples = [s for t in baselines.values() for s in t.error_samples]

    def show(outcome: scenarios.Outcome, base: Tally | None = None, *, goals_for: str = "", **goals: float) -> None:
        """Print the outcome's lines; `goals_for` names the one tally the goals are for (others are reported
        without a goal), else they are every tally's."""
        nonlocal errors
        for tally in outcome.tallies:
            for line in report_lines(tally, base, **(goals if goals_for in ("", tally.name) else {})):
                say(line)
            errors += tally.errors
            samples.extend(tally.error_samples)
        for line in outcome.extra:
            say(line)
        for problem in outcome.problems:
            say(f"INTEGRITY: {problem}")
        problems.extend(outcome.problems)

    bracket = fixture.bracket
    if wanted("bracket"):
        show(
            scenarios.read(url, "bracket_page", bracket.page, clients=10, seconds=SECONDS),
            baselines[10],
            min_ratio=0.5,
            max_p99_ms=150,
        )
        show(
            scenarios.read(url, "bracket_api", bracket.api, clients=10, seconds=SECONDS),
            baselines[10],
            min_ratio=0.5,
            max_p99_ms=150,
        )
    if wanted("report_confirm"):
        show(
            scenarios.report_confirm(url, fixture, clients=10, seconds=SECONDS),
            baselines[10],
            min_ratio=0.25,
            max_p99_ms=300,
        )
    if wanted("calcutta"):
        show(scenarios.calcutta_bids(url, fixture, seconds=SECONDS), baselines[20], min_ratio=0.25, max_p99_ms=300)
    if wanted("chouette"):
        show(scenarios.chouette_games(url, fixture, seconds=SECONDS), baselines[10], min_ratio=0.25, max_p99_ms=300)
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
    connections.close_all()

    logged = STACK.server_errors()
    say(
        f"loadtest_db_connections_peak: {STACK.connections_peak} (PostgreSQL max_connections {STACK.max_connections()})"
    )
    say(f"loadtest_total_seconds: {time.monotonic() - began:.0f} s")
    say(f"loadtest_integrity_problems: {len(problems)}")
    say(f"loadtest_request_errors: {errors}")
    for sample in samples[:10]:
        say(f"  error: {sample}")
    for line in logged:
        say(f"  logged: {line}")
    if problems or errors:
        say("loadtest: FAILED (integrity problems or request errors above)")
        return 1
    say("loadtest: integrity ok")
    return 0


def main() -> int:
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # a stop from CI ends the stack like ctrl-C does
    try:
        return run()
    finally:
        connections.close_all()
        STACK.stop()


if __name__ == "__main__":
    sys.exit(main())
