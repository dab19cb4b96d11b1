"""`manage.py verify_match PATH … [--json]`: one verdict per file, exit 0 / 1 / 2."""

import json
import subprocess
import sys

import pytest
from django.core.management import call_command

from tests.paths import CORPUS, REPO

VALID = CORPUS / "gnubg" / "standard_0001_3p.mat"
FLAWED = CORPUS / "flawed" / "resign_cube2_wrong_points.mat"
RENAMED = CORPUS / "untidy" / "player_renamed.mat"


def run(capsys, *args):
    code = 0
    try:
        call_command("verify_match", *map(str, args))
    except SystemExit as exit_:
        code = exit_.code
    return code, capsys.readouterr().out


def test_valid_files_exit_0_with_one_json_line_each(capsys):
    code, out = run(capsys, VALID, VALID, "--json")
    lines = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and len(lines) == 2
    first = lines[0]
    assert first["file"] == str(VALID) and first["valid"] is True and first["match_length"] == 3
    assert first["players"] == ["gnubg", "root"] and first["final_score"] == [1, 4] and first["winner"] == "root"
    assert first["games"][0] == {
        "number": 1,
        "winner": "root",
        "points": 2,
        "kind": "resign",
        "cube": 1,
        "crawford": False,
    }
    assert first["errors"] == [] and first["warnings"] == []


def test_untidy_record_is_valid_and_lists_its_warnings(capsys):
    code, out = run(capsys, RENAMED, "--json")
    verdict = json.loads(out)
    assert code == 0 and verdict["valid"] is True and verdict["errors"] == []
    assert [(w["code"], w["game"], w["line"], w["player"], w["text"]) for w in verdict["warnings"]] == [
        ("player_renamed", 2, 34, "gnubg", "GNU Bg")
    ]
    code, out = run(capsys, RENAMED)
    assert code == 0 and "valid, 10 games" in out and "1 warning" in out and "line 34:" in out


def test_invalid_file_exits_1_and_lists_its_errors(capsys):
    code, out = run(capsys, VALID, FLAWED, "--json")
    verdict = json.loads(out.splitlines()[1])
    assert code == 1 and verdict["valid"] is False
    assert verdict["errors"][0] == {
        "game": 3,
        "move": 30,
        "line": 92,
        "player": "root",
        "text": "Wins 5 points",
        "code": "wrong_points",
        "message": verdict["errors"][0]["message"],
    }


def test_unreadable_file_exits_2_with_one_format_error(capsys, tmp_path):
    bad = tmp_path / "bad.mat"
    bad.write_bytes(b"\x00\xff not a record")
    code, out = run(capsys, VALID, FLAWED, bad, "--json")
    verdict = json.loads(out.splitlines()[2])
    assert code == 2
    assert [(e["code"], e["line"]) for e in verdict["errors"]] == [("format", 1)]


def test_missing_file_is_unreadable(capsys, tmp_path):
    code, out = run(capsys, tmp_path / "nope.mat")
    assert code == 2 and "unreadable" in out


@pytest.mark.parametrize("path", [VALID])
def test_human_output_names_the_verdict(capsys, path):
    code, out = run(capsys, path)
    assert code == 0 and "valid, 3 games, 1–4, won by root" in out


def clean_run(*args: str) -> subprocess.CompletedProcess:
    """A subprocess with no environment at all, as in a fresh checkout: no SECRET_KEY, no DEBUG."""
    return subprocess.run(
        [sys.executable, *args], cwd=REPO, env={}, capture_output=True, text=True, timeout=120, check=False
    )


def test_verify_match_runs_with_no_environment_set():
    done = clean_run("manage.py", "verify_match", str(VALID), "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["winner"] == "root"


def test_the_web_server_still_refuses_to_start_without_a_key():
    # The WSGI application (what a web server loads) and any other command need SECRET_KEY when DEBUG is off.
    served = clean_run("-c", "import config.wsgi")
    assert served.returncode != 0 and "SECRET_KEY is required" in served.stderr
    checked = clean_run("manage.py", "check")
    assert checked.returncode != 0 and "SECRET_KEY is required" in checked.stderr
