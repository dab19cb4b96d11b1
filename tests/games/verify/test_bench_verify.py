"""The verify benchmark measures the repository's corpus, and refuses to print a figure when it is missing; its
yardstick (gnubg-nn's generator in the thinnest replay loop) tells a legal record from a wrong one."""

import dataclasses

import pytest

from backgammon.backward_play import random_match
from backgammon.matchfiles.mat import ActionKind, parse_mat, write_mat
from bench import bench_verify, yardstick


def test_missing_corpus_stops_the_benchmark_with_its_name(monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(bench_verify, "CORPUS", tmp_path / "corpus")
    with pytest.raises(SystemExit) as stopped:
        bench_verify.main()
    assert "no .mat records under" in str(stopped.value.code) and str(tmp_path / "corpus") in str(stopped.value.code)
    assert "verify_corpus:" not in capsys.readouterr().out  # no figure printed for zero work


def test_benchmark_reports_the_files_it_verified(monkeypatch, capsys):
    monkeypatch.setattr(bench_verify, "REPEATS", 1)
    monkeypatch.setattr(bench_verify, "MATCHES", 2)
    bench_verify.main()
    out = dict(line.split(": ", 1) for line in capsys.readouterr().out.splitlines())
    files = len(list(bench_verify.CORPUS.glob("*/*.mat")))
    assert out["verify_corpus_files"] == f"{files} files" and files >= 100
    flawed = len(list(bench_verify.CORPUS.glob("flawed/*.mat")))
    assert out["verify_corpus_valid"] == f"{files - flawed} files"


def test_yardstick_accepts_self_played_matches_and_catches_a_wrong_result():
    record = random_match(seed=3, length=1, rule=None)
    assert yardstick.replay(parse_mat(write_mat(record))) == 0
    game = record.games[0]
    index = next(i for i, action in enumerate(game.actions) if action.kind == ActionKind.ROLL and " " in action.move)
    action = game.actions[index]
    wrong = dataclasses.replace(action, move=action.move.split(" ")[0])  # only the first die of a roll played
    actions = (*game.actions[:index], wrong, *game.actions[index + 1 :])
    bad = dataclasses.replace(record, games=(dataclasses.replace(game, actions=actions),))
    assert yardstick.replay(parse_mat(write_mat(bad))) >= 1


def test_benchmark_sets_the_verifier_beside_the_yardstick(monkeypatch, capsys):
    monkeypatch.setattr(bench_verify, "REPEATS", 1)
    monkeypatch.setattr(bench_verify, "MATCHES", 4)
    bench_verify.verify_against_yardstick()
    out = dict(line.split(": ", 1) for line in capsys.readouterr().out.splitlines())
    assert int(out["verify_440_rolls"].split()[0]) > 4 * 20  # a random one-point game takes dozens of rolls
    assert float(out["verify_440_ours"].split()[0]) >= 0 and float(out["verify_440_yardstick"].split()[0]) >= 0
    assert float(out["verify_ratio"].split()[0]) > 0 and out["verify_ratio"].endswith("x (goal <= 1.0)")
