#!/bin/sh
# Writes every file of tests/data/corpus again from scratch: gnubg self-play batches (seeded, so the same moves
# come out), then the dialect samples, flawed and untidy records made from them. Needs /usr/games/gnubg (1.07).
# Tests never run this: the corpus is committed, and `git diff` after a run shows what changed.
set -eu
cd "$(dirname "$0")/../.."
OUT=tests/data/corpus
GNUBG=${GNUBG:-/usr/games/gnubg}
SCRIPT=tools/corpus/gnubg_selfplay.py
mkdir -p "$OUT/gnubg"
# Four batches at once: gnubg waits on its own display loop most of the time.
OUT=$OUT/gnubg VARIATION=standard SEEDS=1-30 "$GNUBG" -t -q -p "$SCRIPT" >/dev/null &
OUT=$OUT/gnubg VARIATION=standard SEEDS=31-60 "$GNUBG" -t -q -p "$SCRIPT" >/dev/null &
OUT=$OUT/gnubg VARIATION=standard SEEDS=61-74 LENGTHS=2,4,6,8,10,12,14,16,18,19,20,22,23,24 \
    "$GNUBG" -t -q -p "$SCRIPT" >/dev/null &
OUT=$OUT/gnubg VARIATION=nackgammon SEEDS=101-120 "$GNUBG" -t -q -p "$SCRIPT" >/dev/null &
wait
${PYTHON:-.venv/bin/python} tools/corpus/dialects.py "$OUT"
