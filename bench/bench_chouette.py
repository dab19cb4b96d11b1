"""Chouette core: replaying a long night (every undo or correction replays the session) and the exact
fewest-transfer settlement at the largest table size it solves exactly; and the Django layer: entering a game
through the service after 10 and after 1,000 games (it applies one game to the stored snapshot, so both
should cost the same), in a throwaway database."""

import random
import statistics
import time

from chouette.core import session as core
from chouette.core.errors import ChouetteError
from chouette.core.scoring import BOX, TEAM, CubeEvent, GameEntry
from chouette.core.settlement import EXACT_LIMIT, fewest_transfers
from chouette.core.table_options import Rules

PLAYERS = list(range(1, 9))


def long_night(games: int, seed: int = 7) -> list[core.Event]:
    rng = random.Random(seed)
    events = [core.Event(core.START, order=tuple(PLAYERS))]
    for _ in range(games):
        doubles = tuple(CubeEvent(BOX, ((p, rng.choice(["take", "drop"])),)) for p in rng.sample(PLAYERS, 2))
        events.append(
            core.Event(
                core.GAME,
                entry=GameEntry(winner=rng.choice([BOX, TEAM]), kind=rng.choice(["single", "gammon"]), events=doubles),
            )
        )
    return events


def replay_seconds(events) -> tuple[float, int]:
    stakes = dict.fromkeys(PLAYERS, 100)
    start = time.perf_counter()
    state = core.SessionState()
    for event in events:
        try:
            core.apply(state, event, rules=Rules(), stakes=stakes)
        except ChouetteError:  # a random double the rules refuse: skipped, as the service would refuse it
            continue
    return time.perf_counter() - start, len(state.games)


def settle_seconds(players: int, rounds: int = 5) -> float:
    rng = random.Random(players)
    worst = 0.0
    for _ in range(rounds):
        amounts = [rng.randint(-5000, 5000) for _ in range(players - 1)]
        balances = dict(enumerate([*amounts, -sum(amounts)]))
        start = time.perf_counter()
        fewest_transfers(balances)
        worst = max(worst, time.perf_counter() - start)
    return worst


def main() -> None:
    seconds, played = replay_seconds(long_night(300))
    print(f"chouette_replay_{played}_games_seconds: {seconds:.3f} s (goal <= 0.5 s)")
    print(f"chouette_settle_10_players_seconds: {settle_seconds(10):.3f} s (goal <= 0.1 s)")
    print(f"chouette_settle_{EXACT_LIMIT}_players_seconds: {settle_seconds(EXACT_LIMIT):.3f} s (goal <= 2 s)")
    bench_django()


def entry_ms(record, session, actor, rounds: int = 20) -> float:
    """Median milliseconds of entering one more game through the service (the session row reloaded each time)."""
    timings = []
    for _ in range(rounds):
        session.refresh_from_db()
        start = time.perf_counter()
        record(actor=actor, session=session, game={"winner": "team"})
        timings.append((time.perf_counter() - start) * 1000)
    return statistics.median(timings)


def bench_django() -> None:
    from bench.scratch import scratch_database
    from chouette import services
    from tests.chouette.factories import table
    from tests.clubs.factories import ClubFactory

    with scratch_database():
        club = ClubFactory()
        short, _players, director = table(club, names=("A", "B", "C", "D"))
        long, _others, _director = table(club, names=("P", "Q", "R", "S"), director=director)
        for _ in range(10):
            short.refresh_from_db()
            services.record_game(actor=director, session=short, game={"winner": "team"})
        for _ in range(1000):
            long.refresh_from_db()
            services.record_game(actor=director, session=long, game={"winner": "team"})
        after_10 = entry_ms(services.record_game, short, director)
        after_1000 = entry_ms(services.record_game, long, director)
        print(f"chouette_entry_after_10: {after_10:.1f} ms")
        print(f"chouette_entry_after_1000: {after_1000:.1f} ms")
        print(f"chouette_entry_ratio_1000_to_10: {after_1000 / after_10:.2f} x (goal <= 1.2)")


if __name__ == "__main__":
    main()
