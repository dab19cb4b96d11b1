"""Analysis time of a real 11-point corpus match (tests/data/corpus/gnubg/standard_0016_11p.mat) by GNU
Backgammon at 0 and 1 ply, through backgammon.analysis.runner (the limits, the private directory and the
parse included), median of three runs. Measured outside the project: the program alone takes a median 0.5 s
at 0 ply and 1.9 s at 1 ply. Then the same record reviewed by the gnubg-nn package (the engine where the program
is not installed: checker play only; goal at 1 ply <= 5 s)."""

import statistics

from backgammon.analysis import nn_review, review, runner
from tests.paths import CORPUS

RECORD = CORPUS / "gnubg" / "standard_0016_11p.mat"


def main() -> None:
    record = RECORD.read_bytes()
    for plies in (0, 1):
        times = [nn_review.review_with_nn(record, plies=plies).analysis.seconds for _ in range(3)]
        print(f"analysis_gnubgnn_review_11p_{plies}ply: {statistics.median(times):.2f} s (goal at 1 ply <= 5 s)")
    if not runner.available():
        # a bench that cannot measure the analysis must not pass as if it had: install gnubg (Debian package)
        print("analysis_gnubg: FAILED: GNU Backgammon is not installed at /usr/games/gnubg (apt-get install gnubg)")
        raise SystemExit(1)
    for plies in (0, 1):
        times = [runner.analyse_with_gnubg(record, plies=plies).seconds for _ in range(3)]
        print(f"analysis_gnubg_{runner.program_version()}_11p_{plies}ply: {statistics.median(times):.2f} s")
    # the whole record as the worker analyses it (per-game progress, the biggest errors' positions) at 1 ply
    times = [review.review_with_gnubg(record, plies=1).analysis.seconds for _ in range(3)]
    print(f"analysis_gnubg_review_11p_1ply: {statistics.median(times):.2f} s")


if __name__ == "__main__":
    main()
