"""What the games app has in place once Django has started, before any request: its access rules (match.*,
record.attach, registered by GamesConfig.ready since backgammon/ is the rules engine, not an access-rules
module) and the record verification task that its services send by name.

Why a fresh interpreter: inside the test run every module is already imported, so a rule or task registered
only as a side effect of some later import would look present here too."""

import json
import os
import subprocess
import sys

from games.records import services
from games.records.tasks import verify_game_record
from tests.paths import REPO

PROBE = """
import json
import django
django.setup()
from celery import current_app
from clubs import access
from games.records.services import VERIFY_TASK
print(json.dumps({
    "actions": access.actions(),
    "task_registered": VERIFY_TASK in current_app.tasks,
}))
"""


def test_after_setup_the_games_rules_and_the_named_task_exist():
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings", "SECRET_KEY": "t", "STATIC_MANIFEST": "0"}
    out = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=REPO, env=env, capture_output=True, text=True, check=True, timeout=120
    )
    loaded = json.loads(out.stdout.strip().splitlines()[-1])
    assert {"match.create", "match.play", "match.dispute", "record.attach"} <= set(loaded["actions"])
    assert loaded["task_registered"]  # the web process can send it by name without importing games.records.tasks


def test_the_services_send_the_task_that_verifies_a_record_by_its_registered_name():
    assert verify_game_record.name == services.VERIFY_TASK
