"""Place chances of a 256-entrant knockout recomputed after one result (what the bracket's cache does once per
flight version), through the pure core: the exact recursion over the bracket's halves."""

import random
import statistics
import time

from tournaments.core.chances import Knockout, knockout_places

ENTRANTS = 256
GOAL_MS = 200.0


def run(seed: int) -> float:
    rng = random.Random(seed)
    line = list(range(ENTRANTS))
    ratings = {e: rng.gauss(1600, 150) for e in line}
    decided = {(1, p): line[2 * p + rng.randint(0, 1)] for p in range(ENTRANTS // 4)}  # half of round 1 played
    before = Knockout(line=line, decided=decided, lengths=[7, 7, 9, 9, 11, 11, 13, 15], ratings=ratings)
    knockout_places(before)  # the version the result replaces
    one_more = dict(decided)
    one_more[(1, ENTRANTS // 4)] = line[ENTRANTS // 2]
    after = Knockout(line=line, decided=one_more, lengths=before.lengths, ratings=ratings)
    start = time.perf_counter()
    knockout_places(after)
    return (time.perf_counter() - start) * 1000


def main() -> None:
    times = [run(seed) for seed in range(5)]
    median = statistics.median(times)
    print(f"place_chances_knockout_{ENTRANTS}_after_one_result: {median:.1f} ms (goal <= {GOAL_MS:.0f})")


if __name__ == "__main__":
    main()
