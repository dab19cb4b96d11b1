"""The nardy benchmark times real work, and refuses to print a figure when it has no positions."""

import pytest

from bench import bench_nardy


@pytest.mark.parametrize(
    ("emptied", "run", "words", "figure"),
    [
        ("SAMPLE", "main", "need 0 of each", "us/call"),
        ("MATCHES", "verify_records", "need 0 matches", "nardy_verify_per"),
    ],
)
def test_missing_input_stops_the_benchmark_before_any_figure(monkeypatch, capsys, emptied, run, words, figure):
    monkeypatch.setattr(bench_nardy, emptied, 0)
    with pytest.raises(SystemExit) as stopped:
        getattr(bench_nardy, run)()
    assert words in str(stopped.value.code)
    assert figure not in capsys.readouterr().out


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
