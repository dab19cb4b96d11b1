"""Move generation: time per legal_results call against gnubg-nn's C move generator on the same positions.

legal_results (backgammon.moves) is the public call that lists every result of a roll, as gnubg-nn's
moves() does; the verifier asks the same generator (through max_dice_playable and check_play) whenever a
written move leaves a die unused. It answers with the compiled generator (backgammon/compiled_moves.c) where
`make install` built it, else with the pure Python one; movegen_compiled says which, and movegen_python times
the pure Python generator (its reference) on its own. The positions come from random legal play (fixed seed)
and the dice with them, 3000 distinct positions; neither generator keeps a memo or cache between calls, so
generating the sample first does not flatter our figure (every pass is a cold one).
Goal: legal_results at most 3 times gnubg-nn's time per call on this machine.
"""

import time

import gnubg_nn

from backgammon import moves
from backgammon.moves import legal_results, python_results
from backgammon.random_play import random_positions

SAMPLE = 3000
GOAL_RATIO = 3
REPEATS = 5  # the machine is shared: the best of a few passes is the figure least disturbed by others


def best_time(run) -> float:
    timings = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        run()
        timings.append(time.perf_counter() - start)
    return min(timings)


def main() -> None:
    sample = list(random_positions(seed=2026, count=SAMPLE))
    gnubg_boards = [
        ([list(board.checkers[1 - side]), list(board.checkers[side])], dice) for board, side, dice in sample
    ]

    def run_ours() -> None:
        for board, side, dice in sample:
            legal_results(board, side, dice)

    def run_python() -> None:
        for board, side, dice in sample:
            python_results(board, side, dice)

    def run_gnubg() -> None:
        for board, dice in gnubg_boards:
            gnubg_nn.moves(board, dice[0], dice[1], 0)

    ours = best_time(run_ours) / SAMPLE * 1e6
    theirs = best_time(run_gnubg) / SAMPLE * 1e6
    python = best_time(run_python) / SAMPLE * 1e6
    print(f"movegen_positions: {SAMPLE} positions")
    print(f"movegen_compiled: {'yes' if moves.compiled is not None else 'no (make install builds it)'}")
    print(f"movegen_ours: {ours:.1f} us/call")
    print(f"movegen_gnubg_nn: {theirs:.1f} us/call")
    print(f"movegen_ratio: {ours / theirs:.1f} x (goal <= {GOAL_RATIO})")
    print(f"movegen_python: {python:.1f} us/call ({python / theirs:.1f} x gnubg-nn)")
