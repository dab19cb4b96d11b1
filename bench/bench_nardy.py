"""Long nardy move generation: time per legal_plays call beside standard backgammon's on comparable positions.

Both samples are positions real play reaches: seeded random legal games of each game (backgammon.nardy.random_play
and backgammon.random_play), the same number of positions with the dice rolled there. Both calls list one play
per distinct result with its steps; backgammon's legal_results (its fast road, results only) is printed too.
Then the time to verify a whole self-played 3-point match record (read and replay every roll), per roll.
With no positions or no records the benchmark stops with an error: a figure for zero work would only look fast.
"""

import sys
import timeit

from backgammon.moves import legal_plays as backgammon_plays
from backgammon.moves import legal_results as backgammon_results
from backgammon.nardy.moves import legal_plays as nardy_plays
from backgammon.nardy.random_play import random_match
from backgammon.nardy.random_play import random_positions as nardy_positions
from backgammon.nardy.record import write_nardy
from backgammon.nardy.verification import check_nardy_record
from backgammon.random_play import random_positions as backgammon_positions

SAMPLE = 2000
MATCHES = 5
SEED = 2026
REPEATS = 5  # the machine is shared: the best of a few passes is the figure least disturbed by others


def best_time(run) -> float:
    return min(timeit.repeat(run, number=1, repeat=REPEATS))


def main() -> None:
    nardy = list(nardy_positions(seed=SEED, count=SAMPLE))
    backgammon = list(backgammon_positions(seed=SEED, count=SAMPLE))
    if not nardy or len(nardy) != len(backgammon):
        sys.exit(f"nardy_movegen: {len(nardy)} nardy and {len(backgammon)} backgammon positions; need {SAMPLE} of each")

    runs = {
        "nardy_movegen": lambda: [nardy_plays(b, side, dice, first_turn=first) for b, side, dice, first in nardy],
        "nardy_movegen_backgammon_plays": lambda: [backgammon_plays(*position) for position in backgammon],
        "nardy_movegen_backgammon_results": lambda: [backgammon_results(*position) for position in backgammon],
    }
    per_call = {name: best_time(run) / len(nardy) * 1e6 for name, run in runs.items()}
    print(f"nardy_movegen_positions: {len(nardy)} positions")
    for name, micros in per_call.items():
        print(f"{name}: {micros:.1f} us/call")
    ratio = per_call["nardy_movegen"] / per_call["nardy_movegen_backgammon_plays"]
    print(f"nardy_movegen_ratio: {ratio:.2f} x backgammon legal_plays")
    verify_records()


def verify_records() -> None:
    records = [write_nardy(random_match(seed=SEED + index, length=3)) for index in range(MATCHES)]
    rolls = sum(text.count(":") - text.count(" : ") for text in records)  # a roll is `dd:`, a score `A : n`
    if not records or not rolls:
        sys.exit(f"nardy_verify: {len(records)} records holding {rolls} rolls; need {MATCHES} matches")
    statuses = [check_nardy_record(text)[0] for text in records]
    if statuses != ["valid"] * len(records):
        sys.exit(f"nardy_verify: the self-played records verify as {statuses}, not all valid")
    seconds = best_time(lambda: [check_nardy_record(text) for text in records])
    print(f"nardy_verify_records: {len(records)} matches, {rolls} rolls")
    print(f"nardy_verify_per_match: {seconds / len(records) * 1e3:.1f} ms")
    print(f"nardy_verify_per_roll: {seconds / rolls * 1e6:.1f} us")
