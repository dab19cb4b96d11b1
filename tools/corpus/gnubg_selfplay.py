"""GNU Backgammon plays matches against itself; each is exported as a Jellyfish .mat record.

The generated records are the legal core of tests/data/corpus/gnubg: real moves, cube actions, resignations,
gammons, backgammons and Crawford games, judged by an engine the project does not share code with. The script
runs inside gnubg's embedded Python (Debian package `gnubg`, version 1.07), because gnubg's `-c` command
files cannot make it move:

    OUT=tests/data/corpus/gnubg VARIATION=standard SEEDS=1-60 /usr/games/gnubg -t -q -p tools/corpus/gnubg_selfplay.py

OUT: folder for the files. VARIATION: standard | nackgammon. SEEDS: first-last dice seeds, one match per seed,
so a run is reproducible: the same seed gives the same match. LENGTHS: comma-separated match lengths, picked
by seed (seed % len(LENGTHS)); the default cycles through the odd lengths tournaments use. The file name
`<variation>_<seed>_<length>p.mat` says how to play that match again. tools/corpus/generate.sh runs every
batch the corpus holds.
"""

import os

import gnubg  # type: ignore[import-not-found]  # only inside gnubg

ODD_LENGTHS = "1,3,5,7,9,11,13,15,17,21,25"

out = os.environ.get("OUT", "/tmp/gnubg-corpus")
variation = os.environ.get("VARIATION", "standard")
first, _, last = os.environ.get("SEEDS", "1-5").partition("-")
lengths = [int(length) for length in os.environ.get("LENGTHS", ODD_LENGTHS).split(",")]
os.makedirs(out, exist_ok=True)

gnubg.command("set display off")
gnubg.command("set rng mersenne")
gnubg.command(f"set variation {variation}")
for side in (0, 1):
    # 0-ply: quick, and still a strong enough player that every game is a real one.
    gnubg.command(f"set player {side} gnubg")
    gnubg.command(f"set player {side} chequerplay evaluation plies 0")
    gnubg.command(f"set player {side} cubedecision evaluation plies 0")
gnubg.command("set automatic game on")
for seed in range(int(first), int(last or first) + 1):
    length = lengths[seed % len(lengths)]
    gnubg.command(f"set seed {seed}")
    gnubg.command(f"new match {length}")
    gnubg.command(f"export match mat {out}/{variation}_{seed:04d}_{length}p.mat")
