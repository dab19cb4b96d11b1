"""Analysis time of a real 11-point corpus match (tests/data/corpus/gnubg/standard_0016_11p.mat), median of three
runs (one at 2 ply, some 30 s):

- the gnubg-nn package's review (the engine where the program is not installed: checker play only; goal at 1 ply
  <= 5 s);
- GNU Backgammon at each ply it offers through backgammon.analysis.runner (the limits, the private directory and
  the parse included), beside the program alone on the same command file in the same run (no sandbox, no limits,
  no parse): the goal is the runner no slower than the program alone plus 10 %;
- the whole record as the worker analyses it (per-game progress, the biggest errors' positions) at 1 ply.

Measured outside the project: the program alone takes a median 0.5 s at 0 ply, 1.9 s at 1 ply, 27 s at 2 ply."""

import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from backgammon.analysis import nn_review, review, runner
from tests.paths import CORPUS

RECORD = CORPUS / "gnubg" / "standard_0016_11p.mat"


def program_alone(record: bytes, plies: int) -> float:
    """The program on the runner's command file, run directly: the time the runner's own work is measured against."""
    with tempfile.TemporaryDirectory(prefix="bg-bench-") as folder:
        Path(folder, "match.mat").write_bytes(record)
        Path(folder, "commands.txt").write_text(runner.commands("match.mat", plies))
        started = time.monotonic()
        subprocess.run(
            [runner.GNUBG, "-t", "-q", "-c", "commands.txt"],
            cwd=folder,
            env={"HOME": folder, "PATH": "/usr/bin:/bin:/usr/games", "LANG": "C", "LC_ALL": "C"},  # the runner's
            capture_output=True,
            check=True,
        )
        return time.monotonic() - started


def main() -> None:
    record = RECORD.read_bytes()
    for plies in (0, 1):
        times = [nn_review.review_with_nn(record, plies=plies).analysis.seconds for _ in range(3)]
        print(f"analysis_gnubgnn_review_11p_{plies}ply: {statistics.median(times):.2f} s (goal at 1 ply <= 5 s)")
    if not runner.available():
        # a bench that cannot measure the analysis must not pass as if it had: install gnubg (Debian package)
        print("analysis_gnubg: FAILED: GNU Backgammon is not installed at /usr/games/gnubg (apt-get install gnubg)")
        raise SystemExit(1)
    version = runner.program_version()
    for plies in runner.PLIES:
        runs = 1 if plies >= 2 else 3
        alone = statistics.median(program_alone(record, plies) for _ in range(runs))
        ours = statistics.median(runner.analyse_with_gnubg(record, plies=plies).seconds for _ in range(runs))
        print(f"analysis_gnubg_program_alone_11p_{plies}ply: {alone:.2f} s")
        ratio = f"{ours / alone:.2f} x the program alone; goal <= 1.10"
        print(f"analysis_gnubg_{version}_11p_{plies}ply: {ours:.2f} s ({ratio})")
    times = [review.review_with_gnubg(record, plies=1).analysis.seconds for _ in range(3)]
    print(f"analysis_gnubg_review_11p_1ply: {statistics.median(times):.2f} s")


if __name__ == "__main__":
    main()
