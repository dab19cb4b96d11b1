"""Playwright driving Debian's Chromium (Playwright cannot download its own browsers here)."""

import os
import shutil

import pytest

# Playwright's sync API runs an event loop in this thread; the ORM calls in the tests are still synchronous.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="session")
def browser():
    if not shutil.which(CHROMIUM) and not os.path.exists(CHROMIUM):
        message = f"Chromium not found at {CHROMIUM}: apt-get install chromium (or set CHROMIUM_PATH)"
        if os.environ.get("REQUIRE_SERVICES") == "1":
            pytest.fail(message, pytrace=False)
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 390, "height": 844})  # a phone at the board
    page = context.new_page()
    page.set_default_timeout(15000)
    yield page
    context.close()


@pytest.fixture(autouse=True)
def _pages_closed_and_the_site_idle(transactional_db, request):
    """After each test and before its database is emptied: every page it opened closed, pages a test made for
    itself included, and the server done with their last requests. The database is set up here first, so that
    it is torn down last; left to the test's marker it came after the `page` fixture and was flushed while the
    page was still polling the server. (Every browser test is transactional: its server runs in another thread.)"""
    yield
    if "browser" in request.fixturenames:
        for context in request.getfixturevalue("browser").contexts:
            context.close()
        _wait_until_the_site_is_idle()


def _wait_until_the_site_is_idle(seconds: float = 15.0, quiet: float = 0.5) -> None:
    """Let the server finish what the closed pages asked of it before the test's database is emptied: a request
    still reading when the flush's TRUNCATE takes its locks one table at a time can deadlock with it, and
    PostgreSQL may then abort the flush (CI saw "Database … couldn't be flushed" after passing tests).

    First every request thread of the WSGI live server has ended (the browser closed its connections); then no
    other session of the test database has been active or in a transaction for `quiet` seconds on end, which
    covers the uvicorn server's worker threads and a request that was accepted but had not yet reached the
    database at the first look. Only PostgreSQL runs other sessions; SQLite's server thread shares its file lock."""
    import threading
    import time

    from django.db import connection

    if connection.vendor != "postgresql":
        return
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and any(
        "process_request_thread" in thread.name for thread in threading.enumerate()
    ):
        time.sleep(0.02)
    quiet_since = time.monotonic()
    while time.monotonic() < deadline:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
                " AND state IN ('active', 'idle in transaction')"
            )
            (busy,) = cursor.fetchone()
        now = time.monotonic()
        if busy:
            quiet_since = now
        elif now - quiet_since >= quiet:
            return
        time.sleep(0.05)


@pytest.fixture
def live_asgi_server(transactional_db):
    """The site served by uvicorn in a thread (HTTP and the live-push websockets), like production; pytest-django's
    live_server speaks WSGI only, so its pages fall back to polling. The channel layer is whatever the settings
    say: in-memory by default, Redis when CHANNEL_LAYER_URL is set (CI)."""
    import socket
    import threading
    import time
    from types import SimpleNamespace

    import uvicorn
    from channels.layers import channel_layers
    from django.db import connections
    from django.test.utils import modify_settings

    # A channel layer of this server's own: channels_redis lets one event loop at a time receive on a layer object,
    # and a server of an earlier test whose loop was still ending (a page kept its socket open) made every socket
    # here fail with "Two event loops are trying to receive() on one channel layer at once!" (seen in CI: the
    # page's socket opened, said "joined" and closed, over and over, and the test waited for it to go live).
    channel_layers.backends.clear()
    # Each request's connection closes as the request ends, as production's pool takes it back (config/asgi.py,
    # DATABASE_POOL): under ASGI a request's sync code runs on a thread of its own that ends with it, so a connection
    # kept for CONN_MAX_AGE (the tests' 60 s) stayed open with nobody to use it. One five-phone chouette night held
    # 63 of PostgreSQL's 100 connections, and a test beside it on the other worker was told "too many clients".
    # The dict is the one every thread's connection is made from (as the test database's name is).
    database = connections["default"].settings_dict
    kept_for = database["CONN_MAX_AGE"]
    database["CONN_MAX_AGE"] = 0
    with modify_settings(ALLOWED_HOSTS={"append": "127.0.0.1"}):
        from config.asgi import build_application

        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
        config = uvicorn.Config(build_application(), log_level="warning", lifespan="off", ws="websockets-sansio")
        server = uvicorn.Server(config)
        thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
        thread.start()
        deadline = time.monotonic() + 10
        while not server.started and time.monotonic() < deadline:
            time.sleep(0.02)
        assert server.started, "uvicorn did not start"
        yield SimpleNamespace(url=f"http://127.0.0.1:{port}")
        server.should_exit = True
        thread.join(5)
        if thread.is_alive():  # a connection that does not close holds a graceful shutdown: end it
            server.force_exit = True
            thread.join(10)
        sock.close()
        channel_layers.backends.clear()
        database["CONN_MAX_AGE"] = kept_for
