"""A Swiss of 1,024 players over 9 rounds with random results through the pure cores (standings with every
tie-break, then the pairing, each round, as the service does), and the queries one reported result costs
through the services with 8 and with 256 entrants, in each round-based format."""

import random
import statistics
import time

from tournaments.core import standings as core
from tournaments.core.swiss import SwissPlayer, pair_round

PLAYERS = 1024
ROUNDS = 9
GOAL_SECONDS = 2.0


def run(seed: int) -> tuple[float, int]:
    rng = random.Random(seed)
    keys = list(range(PLAYERS))
    games: list[core.Game] = []
    met: dict[int, set[int]] = {k: set() for k in keys}
    rematches = 0
    start = time.perf_counter()
    for number in range(1, ROUNDS + 1):
        table = core.standings(keys, games)
        players = [SwissPlayer(r.key, r.wins, r.byes > 0, frozenset(met[r.key]), rank=r.rank) for r in table]
        for a, b in pair_round(players, rng_seed=seed, round_number=number):
            if b is None:
                games.append(core.Game(a, None, kind=core.BYE, winner=a))
                continue
            rematches += b in met[a]
            met[a].add(b)
            met[b].add(a)
            winner = a if rng.random() < 0.5 else b
            loser_points = rng.randint(0, 6)
            games.append(
                core.Game(
                    a,
                    b,
                    winner=winner,
                    points_a=7 if winner == a else loser_points,
                    points_b=7 if winner == b else loser_points,
                )
            )
    return time.perf_counter() - start, rematches


def queries_per_result() -> dict[tuple[str, int], int]:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from bench.scratch import scratch_database
    from tests.clubs.factories import ClubFactory, MembershipFactory
    from tests.tournaments.rounds_builders import open_tables, report, swiss_event
    from tournaments import services

    counts = {}
    with scratch_database():
        club = ClubFactory()
        director = MembershipFactory(club=club, role="director").player.user
        for fmt in ("swiss", "triple_elimination"):
            for n in (8, 256):
                _, flight = swiss_event(club, director, n, format=fmt)
                services.start_round(actor=director, flight=flight)
                first, second = open_tables(flight)[:2]
                report(director, first)
                connection.queries_log.clear()  # the log keeps 9,000 queries: a full one would count nothing
                with CaptureQueriesContext(connection) as captured:
                    report(director, second)
                counts[(fmt, n)] = len(captured)
    return counts


def main() -> None:
    timings = []
    for seed in range(3):
        elapsed, rematches = run(seed)
        timings.append(elapsed)
    print(
        f"swiss_pair_{PLAYERS}_players_{ROUNDS}_rounds_seconds: {statistics.median(timings):.2f} s "
        f"(goal <= {GOAL_SECONDS:g} s; standings and pairing each round; rematches {rematches})"
    )
    for (fmt, n), count in queries_per_result().items():
        print(f"queries_per_result_{fmt}_{n}_entrants: {count} queries")
