"""Time to read and verify every record of the repository's corpus, tests/data/corpus (goal: at most 2 s on
this machine). With the corpus missing the benchmark stops with an error naming it: a figure for zero work
would only look like a goal met.

Then the verifier beside a yardstick (bench/yardstick.py: gnubg-nn's C move generator in the thinnest replay
loop) on the same 440 self-played matches: seeded random legal play (backgammon.backward_play.random_match with no
backward rule), written by the project's .mat writer and read back by its reader. Reading the files is left
out on both sides (both replay the same parsed records); decoding each written move is inside both timings.
Goal: our verifier takes at most the yardstick's time.
"""

import sys
import time

from backgammon.backward_play import random_match
from backgammon.matchfiles.mat import parse_mat, write_mat
from backgammon.matchfiles.notation import _decode, _decode_token
from backgammon.moves import _die_sequences
from backgammon.verification import check_record, verify
from bench import yardstick
from tests.paths import CORPUS

GOAL_SECONDS = 2
GOAL_RATIO = 1.0
MATCHES = 440
REPEATS = 5  # the machine is shared: the best of a few passes is the figure least disturbed by others


def clear_caches() -> None:
    """Every pass starts with empty caches, as a fresh worker would: a later pass must not reuse the first's."""
    _decode.cache_clear()
    _decode_token.cache_clear()
    _die_sequences.cache_clear()


def main() -> None:
    files = sorted(CORPUS.glob("*/*.mat"))
    if not files:
        sys.exit(f"verify_corpus: no .mat records under {CORPUS}: the corpus is part of the repository, restore it")
    contents = [path.read_bytes() for path in files]
    best = float("inf")
    statuses: dict[str, int] = {}
    for _ in range(REPEATS):
        clear_caches()
        start = time.perf_counter()
        results = [check_record(data)[0] for data in contents]
        best = min(best, time.perf_counter() - start)
    for status in results:
        statuses[status] = statuses.get(status, 0) + 1
    moves = sum(data.count(b":") for data in contents)
    print(f"verify_corpus: {best:.2f} s (goal <= {GOAL_SECONDS} s)")
    print(f"verify_corpus_files: {len(files)} files")
    print(f"verify_corpus_valid: {statuses.get('valid', 0)} files")
    print(f"verify_per_roll: {best / max(moves, 1) * 1e6:.1f} us")
    verify_against_yardstick()


def verify_against_yardstick() -> None:
    records = [parse_mat(write_mat(random_match(seed=seed, length=1, rule=None))) for seed in range(MATCHES)]
    rolls = sum(action.dice is not None for record in records for game in record.games for action in game.actions)
    verdicts = [verify(record) for record in records]
    wrong = sum(yardstick.replay(record) for record in records)
    if not all(verdict.valid for verdict in verdicts) or wrong:
        sys.exit(f"verify_440: the self-played records are not all legal ({wrong} plays gnubg does not list)")
    ours = theirs = float("inf")
    for _ in range(REPEATS):  # alternating, so a busy moment of the shared machine hits both sides alike
        clear_caches()
        start = time.perf_counter()
        for record in records:
            verify(record)
        ours = min(ours, time.perf_counter() - start)
        start = time.perf_counter()
        for record in records:
            yardstick.replay(record)
        theirs = min(theirs, time.perf_counter() - start)
    print(f"verify_440_rolls: {rolls} rolls")
    print(f"verify_440_ours: {ours:.2f} s")
    print(f"verify_440_yardstick: {theirs:.2f} s")
    print(f"verify_ratio: {ours / theirs:.2f} x (goal <= {GOAL_RATIO})")
