"""`LOADTEST_ONLY` names the scenarios to run alone; a name it does not know stops the run before the stack
starts (a typo must not quietly run nothing and print no figure)."""

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_an_unknown_scenario_name_stops_the_load_test_before_anything_starts():
    env = {**os.environ, "LOADTEST_ONLY": "calcutta,chouete", "LOADTEST_PORT": "1"}
    result = subprocess.run(
        [sys.executable, "-m", "loadtest"], cwd=REPO, env=env, capture_output=True, text=True, timeout=120
    )
    assert result.returncode != 0
    assert "unknown scenario(s) ['chouete']" in result.stderr
    assert "stack and fixture ready" not in result.stdout
