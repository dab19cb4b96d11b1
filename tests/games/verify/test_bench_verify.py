"""The verify benchmark measures the repository's corpus, and refuses to print a figure when it is missing."""

import pytest

from bench import bench_verify


def test_missing_corpus_stops_the_benchmark_with_its_name(monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(bench_verify, "CORPUS", tmp_path / "corpus")
    with pytest.raises(SystemExit) as stopped:
        bench_verify.main()
    assert "no .mat records under" in str(stopped.value.code) and str(tmp_path / "corpus") in str(stopped.value.code)
    assert "verify_corpus:" not in capsys.readouterr().out  # no figure printed for zero work


def test_benchmark_reports_the_files_it_verified(monkeypatch, capsys):
    monkeypatch.setattr(bench_verify, "REPEATS", 1)
    bench_verify.main()
    out = dict(line.split(": ", 1) for line in capsys.readouterr().out.splitlines())
    files = len(list(bench_verify.CORPUS.glob("*/*.mat")))
    assert out["verify_corpus_files"] == f"{files} files" and files >= 100
    flawed = len(list(bench_verify.CORPUS.glob("flawed/*.mat")))
    assert out["verify_corpus_valid"] == f"{files - flawed} files"
