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
    from django.test.utils import modify_settings

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
        thread.join(10)
        sock.close()
