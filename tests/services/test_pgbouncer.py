"""PgBouncer in transaction mode is supported with DATABASE_PGBOUNCER=1 (config/settings.py, docs/connections.md):
no prepared statements, no server-side cursors, the app's pool in front. A PgBouncer of the test's own, on a
private port, in front of the test database with two server connections; a process configured from the environment
as in production runs real services through it (tests/services/pgbouncer_client.py)."""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from django.db import connection

from tests.conftest import REQUIRE_SERVICES

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

PORT = 5450 + int(os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw"))
BINARY = shutil.which("pgbouncer") or ("/usr/sbin/pgbouncer" if Path("/usr/sbin/pgbouncer").exists() else None)
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def pgbouncer():
    if BINARY is None:
        reason = "pgbouncer is not installed (apt-get install pgbouncer; .ci/run installs it)"
        if REQUIRE_SERVICES:
            pytest.fail(f"REQUIRE_SERVICES=1 but {reason}", pytrace=False)
        pytest.skip(reason)
    database = connection.settings_dict
    # not under pytest's tmp_path: its parent is private to root, and PgBouncer runs as postgres
    folder = Path(tempfile.mkdtemp(prefix="bgclub-pgbouncer-"))
    folder.chmod(0o755)
    user = database["USER"] or "postgres"
    (folder / "users.txt").write_text(f'"{user}" ""\n')
    (folder / "pgbouncer.ini").write_text(
        "[databases]\n"
        f"* = host={database['HOST'] or '127.0.0.1'} port={database['PORT'] or 5432}\n"
        "[pgbouncer]\n"
        f"listen_addr = 127.0.0.1\nlisten_port = {PORT}\nunix_socket_dir =\n"
        f"auth_type = trust\nauth_file = {folder / 'users.txt'}\n"
        "pool_mode = transaction\ndefault_pool_size = 2\nmax_client_conn = 200\n"
        f"logfile = {folder / 'pgbouncer.log'}\npidfile = {folder / 'pgbouncer.pid'}\n"
    )
    command = [BINARY, str(folder / "pgbouncer.ini")]
    if os.geteuid() == 0:  # PgBouncer will not run as root
        for path in [folder, *folder.iterdir()]:
            shutil.chown(path, "postgres")
        command[1:1] = ["-u", "postgres"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 10
    while subprocess.run(["pg_isready", "-q", "-h", "127.0.0.1", "-p", str(PORT)], check=False).returncode != 0:
        assert process.poll() is None, f"pgbouncer exited: {process.stdout.read().decode()}"
        assert time.monotonic() < deadline, "pgbouncer did not start"
        time.sleep(0.1)
    yield f"postgres://{user}@127.0.0.1:{PORT}/{database['NAME']}"
    process.terminate()
    process.wait(10)
    shutil.rmtree(folder, ignore_errors=True)


def client_process(url: str, **env) -> subprocess.CompletedProcess:
    environment = {**os.environ, "DATABASE_URL": url, "DATABASE_PGBOUNCER": "1", "DATABASE_POOL": "1", **env}
    environment["ALLOWED_HOSTS"] = "testserver"
    environment.pop("CELERY_BROKER_URL", None)  # tasks in-process: this is about the database
    return subprocess.run(
        [sys.executable, "-m", "tests.services.pgbouncer_client"],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def run_client(url: str, **env) -> dict:
    done = client_process(url, **env)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_reports_confirmations_iterators_and_pages_run_through_pgbouncer_in_transaction_mode(pgbouncer):
    out = run_client(pgbouncer)
    assert out["server_side_binding"] is None and out["prepare_threshold"] is None  # nothing prepared
    assert out["server_side_cursors_disabled"] is True and out["pool"] is True
    assert out["confirmed"] is True and out["slot_result"] == "played"
    assert out["iterated"] == out["iterated_in_transaction"] == 5000
    assert out["errors"] == [] and out["requests"] == 80 and out["statuses"] == [200]
    assert out["prepared_here"] == 0


def test_prepared_statements_fail_behind_pgbouncer_in_transaction_mode_which_is_why_they_are_off(pgbouncer):
    """The reason for the setting: PgBouncer 1.18-1.20 cannot keep a statement prepared on one server connection for
    a client whose next transaction runs on another (1.21+ can, with max_prepared_statements)."""
    done = client_process(pgbouncer, DATABASE_PREPARED="1")
    version = subprocess.run([BINARY, "--version"], capture_output=True, text=True, check=False).stdout
    if not version.startswith("PgBouncer 1.1") and not version.startswith("PgBouncer 1.20"):
        pytest.skip(f"{version.splitlines()[0]} may keep prepared statements")
    assert done.returncode != 0 or json.loads(done.stdout.strip().splitlines()[-1])["errors"]
    assert "prepared statement" in done.stderr + done.stdout
