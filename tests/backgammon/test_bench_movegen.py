"""The move-generation benchmark prints our figure, gnubg-nn's, their ratio against the goal, which generator
served, and the pure Python figure."""

from backgammon import moves
from bench import bench_movegen


def test_benchmark_prints_the_ratio_and_which_generator_served(monkeypatch, capsys):
    monkeypatch.setattr(bench_movegen, "SAMPLE", 200)
    monkeypatch.setattr(bench_movegen, "REPEATS", 1)
    bench_movegen.main()
    out = dict(line.split(": ", 1) for line in capsys.readouterr().out.splitlines())
    assert out["movegen_positions"] == "200 positions"
    assert out["movegen_compiled"] == ("yes" if moves.compiled is not None else "no (make install builds it)")
    ours, theirs = (float(out[name].split()[0]) for name in ("movegen_ours", "movegen_gnubg_nn"))
    assert ours > 0 and theirs > 0 and out["movegen_ratio"].endswith("x (goal <= 3)")
    assert "x gnubg-nn" in out["movegen_python"]
