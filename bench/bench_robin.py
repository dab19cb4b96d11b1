"""Build the full schedule of a 512-entrant round robin (single and double) from the Berger tables, and split 1,024
entrants into groups of 4 with the cross-over seeding of 512 qualifiers, through the pure cores; then the queries
one reported result costs through the services with 8 and with 256 entrants, in a round robin and in groups."""

import statistics
import time

from tournaments.core import groups, roundrobin

ENTRANTS = 512
GOAL_SECONDS = 1.0


def timed(fn) -> float:
    timings = []
    for _ in range(3):
        start = time.perf_counter()
        fn()
        timings.append(time.perf_counter() - start)
    return statistics.median(timings)


def main() -> None:
    players = list(range(ENTRANTS))
    single = timed(lambda: roundrobin.schedule(players, cycles=roundrobin.SINGLE))
    double = timed(lambda: roundrobin.schedule(players, cycles=roundrobin.DOUBLE))
    games = sum(len(r.games) for r in roundrobin.schedule(players))
    print(f"round_robin_512_schedule_seconds: {single:.2f} s (goal <= {GOAL_SECONDS:g} s; {games} matches)")
    print(f"double_round_robin_512_schedule_seconds: {double:.2f} s ({2 * games} matches)")
    field = list(range(1024))

    def groups_and_knockout() -> None:
        split = groups.split(field, group_size=4, advance=2)
        groups.knockout_line([g[:2] for g in split])

    print(f"groups_1024_by_4_and_crossover_seconds: {timed(groups_and_knockout):.2f} s")
    for (fmt, n), count in queries_per_result().items():
        print(f"{fmt}_queries_per_result_{n}_entrants: {count} queries")


def queries_per_result() -> dict[tuple[str, int], int]:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from bench.scratch import scratch_database
    from tests.clubs.factories import ClubFactory, MembershipFactory
    from tests.tournaments.rounds_builders import open_tables, report, swiss_event
    from tournaments import services

    settings = {"round_robin": {}, "groups": {"group_size": 4, "advance": 2}}
    counts = {}
    with scratch_database():
        club = ClubFactory()
        director = MembershipFactory(club=club, role="director").player.user
        for fmt, extra in settings.items():
            for n in (8, 256):
                _, flight = swiss_event(club, director, n, format=fmt, **extra)
                services.start_round(actor=director, flight=flight)
                first, second = open_tables(flight)[:2]
                report(director, first)  # the first result warms what is read once per flight
                # The query log keeps the last 9,000 queries: a full log would make the capture count nothing.
                connection.queries_log.clear()
                with CaptureQueriesContext(connection) as captured:
                    report(director, second)
                assert len(captured) > 0, f"no query captured for a {fmt} result with {n} entrants"
                counts[(fmt, n)] = len(captured)
    return counts
