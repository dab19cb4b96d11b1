"""A dependency's fault is a clear answer a client can retry (base.faults): 503 (the database) or 507 (a full media
disk) with Retry-After, in the API's error body or the site's layout, never Django's HTML "Server Error (500)";
nothing of the failed request is stored, and every write that was answered 201 is stored whole.

A database restart is what its requests see of it: their connection terminated by the server
(`pg_terminate_backend`, "terminating connection due to administrator command"). The requests are caught at a
known point: each waits on a chouette table's row lock the test holds, and the connection is terminated while it
waits. The pool tests run a real uvicorn (the ASGI path, with its psycopg pool) on the test database; every other
test runs in process. A full disk is a storage that writes half a file and raises ENOSPC, as a full disk does.

Broker down: no write waits for the broker; base.queue logs a failed send, the row stays due, and the sweep sends
it again. So such a write answers 201 honestly: tests/services/test_lost_work.py (an upload, a correction and a
recompute with the private Redis stopped).
"""

import errno
import json
import logging
import os
import socket
import subprocess
import sys
import threading
import time
from contextlib import contextmanager
from decimal import Decimal

import httpx
import psycopg
import pytest
from django.core.files.storage import FileSystemStorage
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.handlers.exception import response_for_exception
from django.db import OperationalError, connection
from django.test import Client, RequestFactory
from django.utils import translation

from accounts.services import create_token
from chouette.models import ChouetteSession, LedgerEntry, SessionEvent
from games.models import GameRecord, UploadBatch
from tests.chouette.factories import table
from tests.clubs.factories import ClubFactory, UserFactory
from tests.paths import CORPUS
from tests.services.worker import database_url_for_test_db

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

UNAVAILABLE = "The database is not answering right now; nothing of this request was stored. Try again in a moment."
UNAVAILABLE_DE = "Die Datenbank antwortet gerade nicht"
FULL = "There is no room left to store files right now; nothing of this request was stored. Try again later."
SERVER_NAME = "faults-web"  # the application_name of the uvicorn's connections


@pytest.fixture
def setting():
    session, players, _director = table(ClubFactory())
    return session, players["A"].user


def games_url(session) -> str:
    return f"/api/v1/chouette/sessions/{session.pk}/games/"


def conninfo() -> str:
    return database_url_for_test_db().replace("postgres://", "postgresql://", 1)


@contextmanager
def table_held(session):
    """Another connection holds the chouette table's row (a slow request would): entries wait on it."""
    with psycopg.connect(conninfo()) as holder, holder.transaction(), holder.cursor() as cursor:
        cursor.execute(f"SELECT 1 FROM {ChouetteSession._meta.db_table} WHERE id = %s FOR UPDATE", [session.pk])
        yield


def waiting_backends(cursor, *, pid: int | None = None) -> list[int]:
    """The backends of the test database waiting on a row lock: `pid`, or the uvicorn's."""
    cursor.execute("SELECT pg_stat_clear_snapshot()")
    cursor.execute(
        "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'"
        " AND (pid = %s::int OR (%s::int IS NULL AND application_name = %s))",
        [pid, pid, SERVER_NAME],
    )
    return [row[0] for row in cursor.fetchall()]


def wait_for_waiters(count: int, *, pid: int | None = None, seconds: float = 15) -> list[int]:
    with psycopg.connect(conninfo(), autocommit=True) as watcher, watcher.cursor() as cursor:
        deadline = time.monotonic() + seconds
        while len(pids := waiting_backends(cursor, pid=pid)) < count:
            assert time.monotonic() < deadline, f"{count} request(s) never waited on the row lock"
            time.sleep(0.02)
        return pids


def terminate(pids) -> None:
    with psycopg.connect(conninfo(), autocommit=True) as admin:
        for pid in pids:
            admin.execute("SELECT pg_terminate_backend(%s)", [pid])


@contextmanager
def terminated_while_waiting(pid: int | None = None):
    """Terminate the request's connection (`pid`, else the uvicorn's one) once it waits on the held row: the
    database going away in the middle of a write."""
    killed: list[int] = []

    def kill():
        killed.extend(wait_for_waiters(1, pid=pid))
        terminate(killed)

    killer = threading.Thread(target=kill)
    killer.start()
    try:
        yield killed
    finally:
        killer.join()


def assert_retryable_503(response) -> None:
    assert response.status_code == 503
    assert response.headers["Content-Type"] == "application/json"
    assert response.headers["Retry-After"] == "5"
    assert response.json() == {"code": "database_unavailable", "detail": UNAVAILABLE, "field": None, "retry_after": 5}


def assert_games_whole(session, count: int) -> None:
    """The session's games are numbered 1..count, each with its four ledger lines summing to zero."""
    games = SessionEvent.objects.filter(session=session, kind="game", is_current=True)
    assert sorted(games.values_list("game_number", flat=True)) == list(range(1, count + 1))
    for number in range(1, count + 1):
        lines = LedgerEntry.objects.filter(session=session, game_number=number)
        assert lines.count() == 4
        assert sum(line.points for line in lines) == Decimal(0) and sum(line.cents for line in lines) == 0


# --- in process: the API, a page, and what a middleware meets --------------------------------------------------


def test_a_write_whose_database_connection_dies_answers_503_in_the_contract_and_stores_nothing(setting, api_as):
    session, user = setting
    client = api_as(user)
    assert client.post(games_url(session), {"winner": "team"}, format="json").status_code == 201
    connection.ensure_connection()
    pid = connection.connection.info.backend_pid
    with table_held(session), terminated_while_waiting(pid) as killed, translation.override("en"):
        response = client.post(games_url(session), {"winner": "box"}, format="json")
    assert killed
    assert_retryable_503(response)
    connection.close_if_unusable_or_obsolete()  # what a server does at the end of every request
    assert_games_whole(session, 1)
    # the same request again, once the database answers, is done
    assert client.post(games_url(session), {"winner": "box"}, format="json").status_code == 201
    assert_games_whole(session, 2)


def test_a_page_whose_database_connection_dies_answers_503_inside_the_layout_in_german(setting):
    session, user = setting
    client = Client(headers={"accept-language": "de"})
    client.force_login(user)
    connection.ensure_connection()
    page = f"/chouette/{session.club.slug}/{session.pk}/games/"
    with table_held(session), terminated_while_waiting(connection.connection.info.backend_pid):
        response = client.post(page, {"winner": "team", "expected_number": "1"})
    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    assert response["Content-Type"].startswith("text/html")
    assert UNAVAILABLE_DE in response.text
    assert 'class="site-header"' in response.text and "Server Error" not in response.text
    connection.close_if_unusable_or_obsolete()
    assert_games_whole(session, 0)


def test_a_signed_in_request_during_an_outage_answers_503_before_its_view_reads_anything(setting, api_as):
    """The connection is gone before the request: the user is loaded from the session (AuthenticationMiddleware,
    lazily) or by the API's authentication, and that first query fails."""
    session, user = setting
    page_client = Client()
    page_client.force_login(user)
    token = create_token(user=user, name="phone")[1]
    api = Client(headers={"authorization": f"Token {token}"})
    for client, path in ((page_client, "/"), (api, f"/api/v1/chouette/sessions/{session.pk}/")):
        connection.ensure_connection()
        terminate([connection.connection.info.backend_pid])
        with translation.override("en"):
            response = client.get(path)
        assert response.status_code == 503, path
        assert response["Retry-After"] == "5"
        assert UNAVAILABLE in response.content.decode()
        connection.close_if_unusable_or_obsolete()
    assert api.get(f"/api/v1/chouette/sessions/{session.pk}/").status_code == 200


def test_what_a_middleware_raises_in_an_outage_answers_503_and_is_logged_once_without_a_traceback(caplog):
    """A session saved at the end of a request meets the dead connection outside any view: Django's own
    handler for that (response_for_exception, then handler500) answers like the rest."""
    caplog.set_level(logging.WARNING)
    for path in ("/api/v1/clubs/", "/clubs/"):
        connection.ensure_connection()
        terminate([connection.connection.info.backend_pid])
        caplog.clear()
        try:
            with connection.cursor() as cursor:
                cursor.execute("SELECT 1")
        except OperationalError as exc:
            with translation.override("en"):
                response = response_for_exception(RequestFactory().get(path), exc)
        else:
            pytest.fail("the terminated connection answered")
        connection.close_if_unusable_or_obsolete()
        assert response.status_code == 503 and response["Retry-After"] == "5"
        assert UNAVAILABLE in response.content.decode()
        assert [record.name for record in caplog.records] == ["base.faults"]
        assert "AdminShutdown: terminating connection" in caplog.records[0].getMessage()
        assert caplog.records[0].exc_info is None
    # any other error under /api/ is the error body too, not Django's HTML
    try:
        raise ValueError("a bug")
    except ValueError as exc:
        with translation.override("en"):
            response = response_for_exception(RequestFactory().get("/api/v1/clubs/"), exc)
    assert response.status_code == 500 and json.loads(response.content)["code"] == "server_error"


# --- a full media disk ------------------------------------------------------------------------------------------


class DiskFillsUp(FileSystemStorage):
    """The media disk after `room` more files: the next write stores half its bytes, then fails with ENOSPC."""

    room = 0

    def _save(self, name, content):
        if DiskFillsUp.room > 0:
            DiskFillsUp.room -= 1
            return super()._save(name, content)
        data = content.read()
        os.makedirs(os.path.dirname(self.path(name)), exist_ok=True)
        with open(self.path(name), "xb") as half:
            half.write(data[: len(data) // 2])
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


@pytest.fixture
def disk_full_after_one_file(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.STORAGES = {
        **settings.STORAGES,
        "default": {"BACKEND": f"{__name__}.DiskFillsUp", "OPTIONS": {"location": str(tmp_path / "media")}},
    }
    DiskFillsUp.room = 1
    yield tmp_path / "media"


def stored_files(root) -> list[str]:
    return [os.path.join(folder, name) for folder, _dirs, names in os.walk(root) for name in names]


RECORDS = [(CORPUS / "gnubg" / name).read_bytes() for name in ("standard_0001_3p.mat", "standard_0002_5p.mat")]


def test_an_upload_to_a_full_disk_answers_507_in_the_contract_and_leaves_nothing(disk_full_after_one_file, api_as):
    files = [SimpleUploadedFile(f"record{number}.mat", data) for number, data in enumerate(RECORDS)]
    with translation.override("en"):
        response = api_as(UserFactory()).post("/api/v1/game-records/", {"files": files}, format="multipart")
    assert response.status_code == 507
    assert response["Retry-After"] == "60"
    assert response.json() == {"code": "storage_full", "detail": FULL, "field": None, "retry_after": 60}
    # the first file was stored before the disk filled up, the second half-written: neither is left
    assert stored_files(disk_full_after_one_file) == []
    assert not GameRecord.objects.exists() and not UploadBatch.objects.exists()


def test_an_upload_page_on_a_full_disk_answers_507_inside_the_layout(disk_full_after_one_file):
    client = Client()
    client.force_login(UserFactory())
    files = [SimpleUploadedFile(f"record{number}.mat", data) for number, data in enumerate(RECORDS)]
    with translation.override("en"):
        response = client.post("/records/upload/", {"files": files})
    assert response.status_code == 507 and response["Retry-After"] == "60"
    assert FULL in response.text and 'class="site-header"' in response.text
    assert stored_files(disk_full_after_one_file) == []
    assert not GameRecord.objects.exists()


# --- through uvicorn, with the psycopg pool -------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
def server(tmp_path):
    """Start uvicorn (config.asgi, so DATABASE_POOL is on) on the test database with a pool of `size` waiting at
    most `timeout` s; returns its base URL. Its connections are named SERVER_NAME in pg_stat_activity."""
    started = []

    def start(*, size: int, timeout: int) -> str:
        port = free_port()
        env = {
            **os.environ,
            "DATABASE_URL": f"{database_url_for_test_db()}?application_name={SERVER_NAME}",
            "DATABASE_POOL_MAX_SIZE": str(size),
            "DATABASE_POOL_TIMEOUT": str(timeout),
            "LOCK_TIMEOUT_MS": "60000",  # entries wait on the held table; the test, not the lock, decides
            "DEBUG": "0",
            "SECRET_KEY": "faults-test",
            "STATIC_MANIFEST": "0",
            "ALLOWED_HOSTS": "127.0.0.1",
            "SECURE_COOKIES": "0",
            "MEDIA_ROOT": str(tmp_path / "media"),
        }
        log = open(tmp_path / f"uvicorn-{port}.log", "w")  # noqa: SIM115 - closed after the process
        process = subprocess.Popen(
            [sys.executable, "-m", "uvicorn", "config.asgi:application", "--host=127.0.0.1", f"--port={port}",
             "--no-access-log", "--log-level=warning"],
            env=env, stdout=log, stderr=subprocess.STDOUT,
        )  # fmt: skip
        started.append((process, log))
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while True:
            assert process.poll() is None, (tmp_path / f"uvicorn-{port}.log").read_text()[-3000:]
            try:
                httpx.get(f"{url}/api/v1/no-such-path/", timeout=5)  # answered without the database
                return url
            except httpx.TransportError:
                assert time.monotonic() < deadline, "uvicorn did not start"
                time.sleep(0.2)

    yield start
    for process, log in started:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        log.close()


def token_headers(user) -> dict:
    return {"Authorization": f"Token {create_token(user=user, name='phone')[1]}", "Accept-Language": "en"}


def test_a_pool_held_by_others_answers_503_within_its_bound_on_the_api_and_on_a_page(setting, server):
    session, user = setting
    url = server(size=2, timeout=1)
    headers = token_headers(user)
    assert httpx.get(f"{url}/api/v1/chouette/sessions/{session.pk}/", headers=headers).status_code == 200
    answers: list[int] = []
    with table_held(session):
        writers = [
            threading.Thread(
                target=lambda: answers.append(
                    httpx.post(
                        f"{url}{games_url(session)}", json={"winner": "team"}, headers=headers, timeout=60
                    ).status_code
                )
            )
            for _ in range(2)
        ]
        for writer in writers:
            writer.start()
        wait_for_waiters(2)  # both of the pool's connections are lent out, waiting on the table
        started = time.monotonic()
        api = httpx.get(f"{url}/api/v1/chouette/sessions/{session.pk}/", headers=headers, timeout=30)
        api_waited = time.monotonic() - started
        started = time.monotonic()
        page = httpx.get(f"{url}/", headers={"Accept-Language": "en"}, timeout=30)  # the visitors' home lists clubs
        page_waited = time.monotonic() - started
    for writer in writers:
        writer.join()
    print(f"\nFIGURE pool held: API {api.status_code} after {api_waited:.2f} s, page after {page_waited:.2f} s")
    assert_retryable_503(api)
    assert 0.9 < api_waited < 4  # the pool's bound (1 s), not the writers' 60 s lock wait nor the old 10 s
    assert page.status_code == 503 and page.headers["Retry-After"] == "5" and page_waited < 4
    assert page.headers["Content-Type"].startswith("text/html")
    assert UNAVAILABLE in page.text and 'class="site-header"' in page.text
    assert answers == [201, 201]  # the holders went on once the table was free
    assert_games_whole(session, 2)


def test_after_the_database_drops_every_pooled_connection_the_next_requests_succeed(setting, server):
    """A database restart ends every connection the pool holds. The pool checks each as it lends it, and the first
    fault answered checks the whole pool, so after a restart at most one request answers a retryable 503 and every one
    after it is served (four answered 500 before)."""
    session, user = setting
    url = server(size=4, timeout=3)
    headers = token_headers(user)
    with httpx.Client(headers=headers, timeout=30) as client:
        threads = [
            threading.Thread(target=client.get, args=(f"{url}/api/v1/chouette/sessions/{session.pk}/",))
            for _ in range(6)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        with psycopg.connect(conninfo(), autocommit=True) as admin:
            pooled = [
                row[0]
                for row in admin.execute(
                    "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = %s",
                    [SERVER_NAME],
                ).fetchall()
            ]
        assert len(pooled) > 1, "the pool kept fewer than two connections"
        # one connection dies (a network blip, a server's idle timeout): the pool lends the others in turn, and
        # checks the dead one when its turn comes instead of handing it to a request
        terminate(pooled[:1])
        one_dead = [client.get(f"{url}/api/v1/chouette/sessions/{session.pk}/").status_code for _ in range(6)]
        assert one_dead == [200] * 6
        # all die (a restart)
        terminate(pooled[1:])
        statuses = [client.get(f"{url}/api/v1/chouette/sessions/{session.pk}/").status_code for _ in range(6)]
        statuses += [client.post(f"{url}{games_url(session)}", json={"winner": "team"}).status_code for _ in range(3)]
    print(f"\nFIGURE after every pooled connection was terminated: {statuses}")
    # One request may meet the dead connections one by one (the pool waits 1 s, 2 s, ... between them) and answer a
    # retryable 503 within its bound; it checks the rest of the pool as it answers, so every later one is served.
    # Which request that is depends on the order the pool lends its connections in: the one that replaced the
    # first dead connection is alive, and a request that gets it first is served (seen in CI: 200, 503, 200, ...).
    assert statuses.count(503) <= 1, statuses
    if 503 in statuses:
        assert statuses.index(503) < 6  # a read met the dead connections; the writes came after the check
        assert all(status in (200, 201) for status in statuses[statuses.index(503) + 1 :])
    assert [status for status in statuses if status != 503] == [200] * (6 - statuses.count(503)) + [201] * 3
    assert_games_whole(session, 3)


def test_writes_through_a_database_restart_answer_201_or_503_and_every_201_is_stored_whole(setting, server):
    """Every other entry has its connection terminated mid-write; the client retries it after Retry-After."""
    session, user = setting
    url = server(size=4, timeout=3)
    headers = token_headers(user)
    answers = []
    with httpx.Client(headers=headers, timeout=30) as client:
        for attempt in range(6):
            if attempt % 2:
                with table_held(session), terminated_while_waiting():
                    response = client.post(f"{url}{games_url(session)}", json={"winner": "box"})
                assert_retryable_503(response)
                answers.append(response.status_code)
            response = client.post(f"{url}{games_url(session)}", json={"winner": "box"})
            assert response.status_code == 201, response.text
            answers.append(response.status_code)
    assert answers.count(503) == 3
    assert_games_whole(session, answers.count(201))
