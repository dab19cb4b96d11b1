"""The nardy benchmark times real work, and refuses to print a figure when it has no positions."""

import pytest

from bench import bench_nardy


def test_no_positions_stop_the_benchmark_before_any_figure(monkeypatch, capsys):
    monkeypatch.setattr(bench_nardy, "SAMPLE", 0)
    with pytest.raises(SystemExit) as stopped:
        bench_nardy.main()
    assert "need 0 of each" in str(stopped.value.code)
    assert "us/call" not in capsys.readouterr().out


def test_no_records_stop_the_verify_figure(monkeypatch, capsys):
    monkeypatch.setattr(bench_nardy, "MATCHES", 0)
    with pytest.raises(SystemExit) as stopped:
        bench_nardy.verify_records()
    assert "need 0 matches" in str(stopped.value.code)
    assert "nardy_verify_per" not in capsys.readouterr().out


def test_the_benchmark_reports_both_games_on_the_positions_it_timed(monkeypatch, capsys):
    monkeypatch.setattr(bench_nardy, "SAMPLE", 50)
    monkeypatch.setattr(bench_nardy, "REPEATS", 1)
    monkeypatch.setattr(bench_nardy, "MATCHES", 1)
    bench_nardy.main()
    out = dict(line.split(": ", 1) for line in capsys.readouterr().out.splitlines())
    assert out["nardy_movegen_positions"] == "50 positions"
    for name in ("nardy_movegen", "nardy_movegen_backgammon_plays", "nardy_movegen_backgammon_results"):
        value, unit = out[name].split()
        assert float(value) > 0 and unit == "us/call"
    matches, rolls = out["nardy_verify_records"].split(", ")
    assert matches == "1 matches" and int(rolls.split()[0]) > 50
    assert float(out["nardy_verify_per_roll"].split()[0]) > 0
