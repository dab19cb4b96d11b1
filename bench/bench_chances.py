"""Place chances recomputed after one result (what the chances' cache does once per flight version), through the
pure cores: a 256-entrant knockout by the exact recursion over the bracket's halves, a 256-entrant double
elimination played out in the in-memory engine, and a 256-player Swiss of 8 rounds halfway through, simulated with
as many runs as its cost estimate allows (tournaments.core.chances.runs_for, the selector's rule)."""

import random
import statistics
import time

from tournaments.core import chances, standings
from tournaments.core.chances import Knockout, knockout_places
from tournaments.core.chances_bracket import bracket_sample, run_ms
from tournaments.core.engine import SimEvent
from tournaments.core.swiss import SwissPlayer, pair_round

ENTRANTS = 256
GOAL_MS = 200.0


def knockout(seed: int) -> float:
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


def double_elimination(seed: int, runs: int) -> float:
    rng = random.Random(seed)
    event = SimEvent()
    event.add_flight("main", "double")
    players = list(range(ENTRANTS))
    event.release("main", players)
    ratings = {p: rng.gauss(1600, 150) for p in players}
    for _name, key, _a, _b in event.ready()[: ENTRANTS // 4 + 1]:  # half of round 1 played, and one more result
        event.report("main", key, rng.randint(0, 1))
    sample = bracket_sample(
        event, flight="main", entrants={p: p for p in players}, ratings=ratings, length_of=lambda _f, _k: 7
    )
    start = time.perf_counter()
    chances.simulate_places(sample, runs=runs, seed=seed)
    return (time.perf_counter() - start) * 1000


SWISS_ROUNDS = 8


def swiss_halfway(seed: int) -> tuple[float, int]:
    """Four rounds played and the fifth paired, one of its results in: the rest (127 tables and three rounds)."""
    rng = random.Random(seed)
    keys = list(range(ENTRANTS))
    ratings = {k: rng.gauss(1600, 150) for k in keys}
    games: list[standings.Game] = []
    met: dict[int, set] = {k: set() for k in keys}
    open_tables = []
    for number in range(1, 6):
        table = standings.standings(keys, games)
        players = [SwissPlayer(r.key, r.wins, r.byes > 0, frozenset(met[r.key]), rank=r.rank) for r in table]
        for i, (a, b) in enumerate(pair_round(players, rng_seed=seed, round_number=number)):
            met[a].add(b)
            met[b].add(a)
            if number == 5 and i > 0:
                open_tables.append((a, b))
                continue
            winner = a if rng.random() < 0.5 else b
            games.append(
                standings.Game(a, b, winner=winner, points_a=7 if winner == a else 3, points_b=7 if winner == b else 3)
            )
    runs = chances.runs_for(chances.swiss_run_ms(ENTRANTS, SWISS_ROUNDS - 5))
    start = time.perf_counter()
    sample = chances.swiss_sample(
        keys,
        played=games,
        open_tables=open_tables,
        met=met,
        ratings=ratings,
        length=7,
        rule=chances.SwissRule(rounds=SWISS_ROUNDS, until_one_unbeaten=False),
        played_rounds=5,
    )
    chances.simulate_places(sample, runs=runs, seed=seed)
    return (time.perf_counter() - start) * 1000, runs


def main() -> None:
    median = statistics.median(knockout(seed) for seed in range(5))
    print(f"place_chances_knockout_{ENTRANTS}_after_one_result: {median:.1f} ms (goal <= {GOAL_MS:.0f})")
    event = SimEvent()
    event.add_flight("main", "double")
    event.release("main", list(range(ENTRANTS)))
    runs = chances.runs_for(run_ms(event), most=2000)  # the selector's rule
    median = statistics.median(double_elimination(seed, runs) for seed in range(3))
    print(f"place_chances_double_elimination_{ENTRANTS}_after_one_result_{runs}_runs: {median:.1f} ms")
    timed = [swiss_halfway(seed) for seed in range(3)]
    median = statistics.median(t for t, _runs in timed)
    print(
        f"place_chances_swiss_{ENTRANTS}_after_one_result_{timed[0][1]}_runs: {median:.1f} ms (goal <= {GOAL_MS:.0f})"
    )


if __name__ == "__main__":
    main()
