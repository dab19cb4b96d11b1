"""Long nardy move generation: time per legal_plays call beside standard backgammon's on comparable positions.

Both samples are positions real play reaches: seeded random legal games of each game (games.nardy.random_play
and games.rules.random_play), the same number of positions with the dice rolled there. Both calls list one play
per distinct result with its steps; backgammon's legal_results (its fast road, results only) is printed too.
With no positions the benchmark stops with an error: a figure for zero work would only look fast.
"""

import sys
import timeit

from games.nardy.moves import legal_plays as nardy_plays
from games.nardy.random_play import random_positions as nardy_positions
from games.rules.moves import legal_plays as backgammon_plays
from games.rules.moves import legal_results as backgammon_results
from games.rules.random_play import random_positions as backgammon_positions

SAMPLE = 2000
SEED = 2026
REPEATS = 5  # the machine is shared: the best of a few passes is the figure least disturbed by others


def best_time(run) -> float:
    return min(timeit.repeat(run, number=1, repeat=REPEATS))


def main() -> None:
    nardy = list(nardy_positions(seed=SEED, count=SAMPLE))
    backgammon = list(backgammon_positions(seed=SEED, count=SAMPLE))
    if not nardy or len(nardy) != len(backgammon):
        sys.exit(f"nardy_movegen: {len(nardy)} nardy and {len(backgammon)} backgammon positions; need {SAMPLE} of each")

    def run_nardy() -> None:
        for board, side, dice, first_turn in nardy:
            nardy_plays(board, side, dice, first_turn=first_turn)

    def run_backgammon_plays() -> None:
        for board, side, dice in backgammon:
            backgammon_plays(board, side, dice)

    def run_backgammon_results() -> None:
        for board, side, dice in backgammon:
            backgammon_results(board, side, dice)

    count = len(nardy)
    ours = best_time(run_nardy) / count * 1e6
    plays = best_time(run_backgammon_plays) / count * 1e6
    results = best_time(run_backgammon_results) / count * 1e6
    print(f"nardy_movegen_positions: {count} positions")
    print(f"nardy_movegen: {ours:.1f} us/call")
    print(f"nardy_movegen_backgammon_plays: {plays:.1f} us/call")
    print(f"nardy_movegen_backgammon_results: {results:.1f} us/call")
    print(f"nardy_movegen_ratio: {ours / plays:.2f} x backgammon legal_plays")
