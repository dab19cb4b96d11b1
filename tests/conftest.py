"""Shared fixtures: users in each role, API clients, and the rules for tests that need real services.

`make test` runs the suite on several processes (pytest-xdist, see README): each worker has its own test
database (pytest-django suffixes its name with the worker id), its own prefix on a Redis channel layer and its
own private Redis port (tests/services/broker.py); the whole-suite check below combines what every worker saw."""

import os
from pathlib import Path

import pytest
from django.conf import settings

from config.celery import app as celery_app
from tests.clubs.factories import ClubFactory, MembershipFactory, PlayerFactory, UserFactory
from tests.schema_check import SEEN, SchemaCheckingClient, operations

REQUIRE_SERVICES = os.environ.get("REQUIRE_SERVICES") == "1"
TESTS = Path(__file__).resolve().parent


def services_missing() -> list[str]:
    missing = []
    if settings.DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql":
        missing.append("PostgreSQL (set DATABASE_URL=postgres://...)")
    if not settings.CELERY_BROKER_URL or not settings.CELERY_BROKER_URL.startswith("redis"):
        missing.append("Redis (set CELERY_BROKER_URL=redis://...)")
    return missing


def pytest_runtest_setup(item):
    if item.get_closest_marker("services") is None:
        return
    missing = services_missing()
    if not missing:
        return
    reason = "needs " + " and ".join(missing)
    if REQUIRE_SERVICES:
        pytest.fail(f"REQUIRE_SERVICES=1 but this test {reason}", pytrace=False)
    pytest.skip(reason)


@pytest.fixture(autouse=True)
def eager_celery(request):
    """Run tasks in-process in tests, even when a broker is configured; the real-worker tests opt out."""
    eager = request.node.get_closest_marker("real_worker") is None
    previous = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = eager
    yield
    celery_app.conf.task_always_eager = previous


@pytest.fixture
def club(db):
    return ClubFactory()


@pytest.fixture
def admin_user(club):
    """A club admin of `club`."""
    return MembershipFactory(club=club, role="admin").player.user


@pytest.fixture
def director_user(club):
    return MembershipFactory(club=club, role="director").player.user


@pytest.fixture
def member_user(club):
    return MembershipFactory(club=club, role="player").player.user


@pytest.fixture
def outsider_user(db):
    """Signed in, but no member of `club`."""
    return PlayerFactory().user


@pytest.fixture
def api():
    """An anonymous API client; every response it receives must match the OpenAPI schema."""
    return SchemaCheckingClient()


@pytest.fixture
def api_as():
    """API clients signed in as a user (None: anonymous), checking every response against the schema too."""

    def make(user):
        client = SchemaCheckingClient()
        if user is not None:
            client.force_authenticate(user)
        return client

    return make


@pytest.fixture
def user_factory(db):
    return UserFactory


def worker_id() -> str | None:
    """The pytest-xdist worker this process is ("gw0", "gw1", ...), None when the suite runs in one process."""
    return os.environ.get("PYTEST_XDIST_WORKER")


def pytest_configure(config):
    # Hashing test passwords with PBKDF2 costs most of the suite's time and proves nothing.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    # Every test that reaches a row lock checks it against the lock order (base.locks).
    settings.LOCK_ORDER_CHECK = True
    _static_files_listed_once()
    _channel_layer_of_this_worker()


def _static_files_listed_once() -> None:
    """WhiteNoise lists and stats every static file each time its middleware is built, and Django's test client
    builds the middleware anew for every client: 70 ms for each of the suite's thousands of clients, most of the
    permission matrix's time. The files do not change during a run, so the listing is made once per set of
    settings it reads and each new middleware gets the same (immutable) entries: what it serves is unchanged."""
    from whitenoise.middleware import WhiteNoiseMiddleware

    list_files = WhiteNoiseMiddleware.add_files_from_finders
    listed: dict[tuple, dict] = {}

    def add_files_from_finders(self) -> None:
        read = sorted(name for name in dir(settings) if name.startswith(("WHITENOISE_", "STATIC")))
        values = tuple((name, repr(getattr(settings, name))) for name in read)
        key = (settings.DEBUG, tuple(settings.INSTALLED_APPS), values)
        if key not in listed:
            before = dict(self.files)
            list_files(self)
            listed[key] = {url: entry for url, entry in self.files.items() if before.get(url) is not entry}
        self.files.update(listed[key])

    WhiteNoiseMiddleware.add_files_from_finders = add_files_from_finders


def _channel_layer_of_this_worker() -> None:
    """Workers share the one Redis of CHANNEL_LAYER_URL, and their test databases hand out the same ids: without
    a prefix of its own, a test in one worker would hear the pushes to "match-1" of a test in the other."""
    layer = settings.CHANNEL_LAYERS["default"]
    if worker_id() is None or "hosts" not in layer.get("CONFIG", {}):  # the in-memory layer is per process
        return
    config = {**layer.get("CONFIG", {}), "prefix": f"asgi-test-{worker_id()}"}
    settings.CHANNEL_LAYERS = {**settings.CHANNEL_LAYERS, "default": {**layer, "CONFIG": config}}


def _whole_suite(config) -> bool:
    """Whether this run is the whole suite (`make test`), not a chosen file, keyword or marker, nor a listing."""
    if config.option.collectonly:
        return False
    if os.environ.get("SCHEMA_CHECK_ALL_OPERATIONS") == "1":
        return True
    chosen = {Path(str(arg).split("::")[0]).resolve() for arg in config.args}
    return (
        chosen == {TESTS}
        and not config.option.keyword
        and not config.option.deselect
        and config.option.markexpr == "not browser"
    )


# What the workers saw (the controller's own SEEN stays empty: it runs no test), combined as each one finishes.
SEEN_BY_WORKERS: set[tuple[str, str, int]] = set()


@pytest.hookimpl(optionalhook=True)  # an xdist hook: without xdist (`-p no:xdist`) it is never called
def pytest_testnodedown(node, error):
    """(pytest-xdist, in the controller) A worker is done: add the responses it checked to the whole run's."""
    SEEN_BY_WORKERS.update(tuple(seen) for seen in getattr(node, "workeroutput", {}).get("schema_seen", []))


def pytest_sessionfinish(session, exitstatus):
    """A green run of the whole suite must have seen every API operation answer with success at least once,
    each answer checked against the schema; an operation nobody calls is one whose schema nobody checks.
    Under xdist each worker hands what it saw to the controller, which judges the whole run."""
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None:  # a worker: it saw only its share of the tests
        workeroutput["schema_seen"] = sorted(SEEN)
        return
    if exitstatus != pytest.ExitCode.OK or not _whole_suite(session.config):
        return
    succeeded = {(method, path) for method, path, status in SEEN | SEEN_BY_WORKERS if 200 <= status < 300}
    missing = [f"{method} {path}" for method, path in operations() if (method, path) not in succeeded]
    if missing:
        reporter = session.config.pluginmanager.get_plugin("terminalreporter")
        reporter.write_line("No test saw these API operations succeed (checked against the schema):", red=True)
        for line in missing:
            reporter.write_line(f"  {line}", red=True)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
