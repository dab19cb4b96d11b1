"""An idle web pool gives its connections back (DATABASE_POOL_MIN_SIZE, DATABASE_POOL_MAX_IDLE_SECONDS): after a
burst, one connection closes every max_idle seconds down to the minimum, leaving PostgreSQL's slots to the worker,
`migrate` and `psql`. Pools that kept what a burst opened (10 minutes) locked every new client out for 20 s after a
load test at max_connections 20 (docs/connections.md)."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import connection

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]


def test_an_idle_pool_shrinks_to_one_connection_within_seconds_of_a_burst():
    database = connection.settings_dict
    user, host, port = database["USER"] or "postgres", database["HOST"] or "127.0.0.1", database["PORT"] or 5432
    url = f"postgres://{user}@{host}:{port}/{database['NAME']}"
    environment = {**os.environ, "DATABASE_URL": url, "DATABASE_POOL": "1", "DATABASE_POOL_MAX_IDLE_SECONDS": "1"}
    done = subprocess.run(
        [sys.executable, "-m", "tests.services.pool_burst"],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    sizes = json.loads(done.stdout.strip().splitlines()[-1])["sizes"]
    assert sizes[0][1] == 10  # the burst opened ten
    seconds, size = sizes[-1]
    assert size == 1, sizes  # DATABASE_POOL_MIN_SIZE
    assert seconds < 15, sizes  # about one a second (max_idle 1 s), not after ten minutes
