"""Draw and simulate every result of a 4,096-entrant main with a progressive consolation (losers of rounds 1-3)
and a last chance drawn afresh from the consolation's first-played losers, through the pure bracket core."""

import random
import statistics
import time

from tournaments.core import consequences
from tournaments.core.draw import DrawEntrant
from tournaments.core.engine import SimEvent

ENTRANTS = 4096
GOAL_SECONDS = 2.0


def run(seed: int) -> tuple[float, int]:
    rng = random.Random(seed)
    start = time.perf_counter()
    event = SimEvent()
    event.add_flight("main")
    event.add_flight("consolation", "fed", source="main", rule=consequences.PROGRESSIVE, feed_rounds=3)
    event.add_flight("last_chance", "fed", source="consolation", rule=consequences.FRESH_DRAW)
    entrants = [DrawEntrant(i, rating=1300 + rng.random() * 600, on_time=True) for i in range(ENTRANTS)]
    event.draw("main", entrants, rng_seed=seed, seeded=True)
    results = 0
    while True:
        ready = event.ready()
        if not ready:
            if event.fresh_draw_ready("last_chance"):
                event.draw_fresh("last_chance", rng_seed=seed + 1)
                continue
            break
        for name, key, _a, _b in ready:
            event.report(name, key, rng.randint(0, 1))
            results += 1
    elapsed = time.perf_counter() - start
    assert all(f.finished for f in event.flights.values())
    return elapsed, results


def main() -> None:
    timings, results = [], 0
    for seed in range(3):
        elapsed, results = run(seed)
        timings.append(elapsed)
    print(f"draw_and_simulate_4096_seconds: {statistics.median(timings):.2f} s (goal <= {GOAL_SECONDS:g} s)")
    print(f"results_simulated: {results} matches (main, progressive consolation, last chance)")
