"""Error rates from GNU Backgammon (backgammon.analysis): the statistics parser, the runner's figures against what
the program itself prints for the same record, and the limits (a program that hangs is killed at its limit)."""

import re
import subprocess
import time
from pathlib import Path

import pytest

from backgammon.analysis import gnubg_stats, review, runner
from tests.conftest import REQUIRE_SERVICES
from tests.paths import REPO

CORPUS = REPO / "tests" / "data" / "corpus" / "gnubg"
SAMPLE = REPO / "tests" / "data" / "analysis" / "gnubg_1.07_statistics_standard_0016_11p_1ply.txt"
# Skipped only on a machine without the engine; where the services are required (CI, which installs gnubg) a
# missing engine fails these tests instead of skipping them.
needs_gnubg = pytest.mark.skipif(
    not runner.available() and not REQUIRE_SERVICES, reason="GNU Backgammon is not installed at /usr/games/gnubg"
)


def test_the_parser_reads_each_players_figures_as_losses_with_the_cube_apart():
    gnubg, root = gnubg_stats.parse(SAMPLE.read_text())
    assert (gnubg.name, root.name) == ("gnubg", "root")
    assert (gnubg.checker_error_rate, gnubg.cube_error_rate, gnubg.error_rate) == (2.4, 4.8, 2.7)
    assert (root.checker_error_total, root.cube_error_total, root.error_total) == (0.337, 0.010, 0.348)
    assert (gnubg.unforced_moves, gnubg.cube_decisions, gnubg.doubtful, gnubg.very_bad) == (82, 12, 1, 0)
    # a count with its equity in parentheses: "1 (-0.017 ( -0.082%))"
    assert (gnubg.cube_errors, root.cube_errors) == (2, 1)
    assert (gnubg.luck_rate, root.luck_rate) == (-31.2, 27.3)
    assert root.pr_like == pytest.approx(500 * 0.348 / (97 + 10))


def test_a_text_without_statistics_is_refused_with_what_is_missing():
    with pytest.raises(gnubg_stats.StatisticsError, match="no player line"):
        gnubg_stats.parse("gnubg: cannot open file")
    broken = SAMPLE.read_text().replace("Overall statistics", "")
    with pytest.raises(gnubg_stats.StatisticsError, match="Overall statistics"):
        gnubg_stats.parse(broken)


@needs_gnubg
def test_the_runners_error_rates_are_what_gnubg_prints_for_the_same_record():
    record = CORPUS / "standard_0016_11p.mat"
    analysis = runner.analyse_with_gnubg(record.read_bytes(), plies=1)
    assert (analysis.engine, analysis.plies) == ("gnubg", 1)
    assert analysis.version.startswith("1.07") and "MET" in analysis.met
    # the program run directly, its commands on standard input, its overall error rates read off its output
    assert (analysis.players[0].error_rate, analysis.players[1].error_rate) == _printed_error_rates(record, 1)
    assert analysis.players[0].error_rate > 0 or analysis.players[1].error_rate > 0  # 1 ply finds 0-ply's slips


def _printed_error_rates(record: Path, plies: int) -> tuple[float, float]:
    """Both players' overall error rates (mEMG) as the program itself prints them for `record` at `plies`, its
    commands on standard input, run directly (no sandbox, no parser of ours but this regular expression)."""
    script = (
        f"set analysis chequerplay evaluation plies {plies}\nset analysis cubedecision evaluation plies {plies}\n"
        f"import mat {record}\nanalyse match\nshow statistics match\n"
    )
    printed = subprocess.run(
        [runner.GNUBG, "-t", "-q"], input=script, capture_output=True, text=True, timeout=300, check=True
    ).stdout
    overall = printed[printed.index("Overall statistics") :]
    rates = re.search(r"Error rate mEMG \(MWC\)\s+(-?[\d.]+)\s+\([^)]*\)\s+(-?[\d.]+)", overall)
    return abs(float(rates.group(1))), abs(float(rates.group(2)))


@needs_gnubg
@pytest.mark.parametrize("name", sorted(path.name for path in CORPUS.glob("*.mat")))
def test_every_corpus_records_error_rates_are_what_gnubg_prints_at_0_ply(name):
    """Every record of the corpus (standard and nackgammon, 1 to 25 points): the runner's per-player error rates
    equal what the program prints for the same file at 0 ply."""
    analysis = runner.analyse_with_gnubg((CORPUS / name).read_bytes(), plies=0)
    assert (analysis.players[0].error_rate, analysis.players[1].error_rate) == _printed_error_rates(CORPUS / name, 0)


def test_an_engine_that_hangs_is_killed_at_its_limit(tmp_path):
    hang = tmp_path / "gnubg"
    pidfile = tmp_path / "pid"
    hang.write_text(f"#!/bin/sh\necho $$ > {pidfile}\nsleep 60 & wait\n")
    hang.chmod(0o755)
    started = time.monotonic()
    with pytest.raises(runner.AnalysisFailed, match="timed out after 1 s"):
        runner.analyse_with_gnubg(b" 1 point match\n", plies=0, program=str(hang), time_limit=1)
    assert time.monotonic() - started < 10
    pid = int(pidfile.read_text())
    assert not Path(f"/proc/{pid}").exists() or "Z" in Path(f"/proc/{pid}/stat").read_text().split()[2]


def test_a_program_that_fails_gives_a_verdict_saying_so(tmp_path):
    failing = tmp_path / "gnubg"
    failing.write_text("#!/bin/sh\necho 'no such file' >&2\nexit 3\n")
    failing.chmod(0o755)
    with pytest.raises(runner.AnalysisFailed, match="exited 3: no such file"):
        runner.analyse_with_gnubg(b"", plies=1, program=str(failing))
    with pytest.raises(runner.AnalysisFailed, match="plies must be one of 0, 1, 2"):
        runner.analyse_with_gnubg(b"", plies=5, program=str(failing))


def test_a_bear_off_with_one_obviously_best_play_has_zero_loss_for_it():
    from backgammon.analysis import nn

    opponent, mover = [0] * 25, [0] * 25
    opponent[5] = 2  # two checkers on their 6 point: off in one roll only with doubles of 3 or more
    mover[0] = mover[5] = 1  # on the 1 and the 6 point, rolling 6-1: both off wins at once
    for plies in (0, 1):
        plays = nn.play_losses([opponent, mover], 6, 1, plies=plies)
        best = plays[0]
        assert set(best.steps) == {(6, 0), (1, 0)} and best.loss == 0.0 and best.equity == pytest.approx(1.0)
        assert all(p.loss > 0.2 for p in plays[1:])  # leaving a checker lets the opponent's doubles win


@needs_gnubg
def test_a_wrong_pass_is_a_cube_error_in_emg_as_gnubgs_own_statistics_count_it():
    record = REPO / "tests" / "data" / "corpus" / "analysis" / "wrong_pass_11p.mat"
    result = review.review_with_gnubg(record.read_bytes(), plies=0)
    cube = [d for d in result.decisions if d.kind == "cube"]
    (wrong,) = [d for d in cube if d.game == 2]  # game 2: gnubg passes root's double
    assert (wrong.side, wrong.played, wrong.best) == (0, "pass", "take")
    assert wrong.position == "ZpuJAEwzOwcBJA" and wrong.dice == ()  # root's position as root doubles
    # the loss is gnubg's own: the cube error its statistics of game 2 give gnubg (its only cube decision error)
    assert wrong.loss == pytest.approx(result.games[1][0].cube_error_total, abs=1e-6)
    assert wrong.loss > 0.05
    assert result.games[1][1].cube_error_total == 0
    assert {d.played for d in cube} <= set(review.CUBE_ACTIONS) and {d.best for d in cube} <= set(review.CUBE_ACTIONS)


def test_the_runner_and_the_review_share_one_sandbox_and_its_checks(tmp_path):
    spy = tmp_path / "gnubg"
    spy.write_text('#!/bin/sh\necho "home=$HOME here=$(pwd) args=$*"\nls\necho \'{"games": []}\' > out.json\n')
    spy.chmod(0o755)
    run = runner.run_gnubg_sandboxed(
        {"match.mat": b"x", "../escape.txt": "y"}, ["-t", "-p", "a.py"], plies=0, program=str(spy), keep=["out.json"]
    )
    home = re.search(r"home=(\S+) here=(\S+) args=(.*)", run.output)
    assert home.group(1) == home.group(2) != str(tmp_path)  # its own folder, which is its HOME too
    assert home.group(3) == "-t -p a.py"
    assert "escape.txt" in run.output and not (tmp_path / "escape.txt").exists()  # written inside, by name
    assert run.files == {"out.json": b'{"games": []}\n'} and not Path(home.group(1)).exists()  # gone after
    for analyse in (runner.analyse_with_gnubg, review.review_with_gnubg):
        with pytest.raises(runner.AnalysisFailed, match="^engine not installed$"):
            analyse(b"", plies=1, program=str(tmp_path / "missing"))
        with pytest.raises(runner.AnalysisFailed, match="plies must be one of 0, 1, 2"):
            analyse(b"", plies=3, program=str(spy))
    with pytest.raises(runner.AnalysisFailed, match="gnubg wrote no analysis"):
        review.review_with_gnubg(b"", plies=0, program=str(spy))  # it wrote out.json, not review.json


@pytest.mark.parametrize("plies", [0, 1])
def test_the_gnubg_nn_review_of_a_whole_record_takes_each_loss_from_the_packages_own_evaluation(plies):
    """Where the program is not installed, gnubg-nn reviews the record: every roll replayed from the start, each
    play's loss the package's own equity of the best play's position less the played one's (evaluated here again,
    from the Position ID the decision keeps), and the match figures the per-decision losses added up."""
    import gnubg_nn

    from backgammon.analysis import nn, nn_review

    result = nn_review.review_with_nn((CORPUS / "standard_0016_11p.mat").read_bytes(), plies=plies)
    assert (result.analysis.engine, result.analysis.plies, result.analysis.checker_only) == ("gnubg-nn", plies, True)
    players = result.analysis.players
    assert all(p.unforced_moves > 50 and p.cube_decisions == 0 for p in players)
    for side, figures in enumerate(players):
        assert figures.error_total == pytest.approx(sum(g[side].error_total for g in result.games))
        assert figures.error_rate == pytest.approx(1000 * figures.error_total / figures.unforced_moves)
    assert result.decisions == sorted(result.decisions, key=lambda d: -d.loss) and result.decisions[0].loss > 0
    for decision in result.decisions[:5]:
        gnubg_board = [list(side) for side in gnubg_nn.board_from_position_id(decision.position)]  # [opponent, mover]
        equities = {}
        for key, _steps in gnubg_nn.moves(gnubg_board, decision.dice[0], decision.dice[1], 1):
            opponent, mover = gnubg_nn.board_from_position_key(key)
            equities[key] = -nn.cubeless_equity(gnubg_nn.probabilities([list(mover), list(opponent)], plies))
        plays = {
            nn_review._written(tuple(tuple(s) for s in steps if tuple(s) != (0, 0))): key
            for key, steps in gnubg_nn.moves(gnubg_board, decision.dice[0], decision.dice[1], 1)
        }
        loss = equities[plays[decision.best]] - equities[plays[decision.played]]
        assert decision.loss == pytest.approx(loss, abs=1e-9)


def test_the_gnubg_nn_review_refuses_a_ply_it_does_not_offer_and_a_record_not_from_the_usual_start():
    from backgammon.analysis import nn_review

    with pytest.raises(runner.AnalysisFailed, match="0 or 1 ply, not 2"):
        nn_review.review_with_nn(b"", plies=2)
    nackgammon = (CORPUS / "nackgammon_0104_11p.mat").read_bytes()
    with pytest.raises(runner.AnalysisFailed, match="standard backgammon only"):
        nn_review.review_with_nn(nackgammon, plies=0)
