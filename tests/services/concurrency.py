"""Truly simultaneous calls for the PostgreSQL race tests: each runs in its own thread with its own database
connection, and all are released by one barrier so they overlap in the database."""

import threading
import time
from collections.abc import Callable

from django.db import connection

from tests.schema_check import SchemaCheckingClient, api_schema

# How long a patched step keeps what it took (a row lock, or an unlocked read) before the request goes on. The
# barrier releases the requests together; this wait inside the critical step makes the second one certainly
# arrive while the first still holds it. Each race test pairs it with a control that removes the lock and
# shows the race then happens, so the wait is what makes the overlap, not what makes the test pass.
OVERLAP_SECONDS = 0.4


def then_wait(step: Callable) -> Callable:
    """`step`, followed by a wait of OVERLAP_SECONDS before its result is returned (patch it over a lock)."""

    def waiting(*args, **kwargs):
        result = step(*args, **kwargs)
        time.sleep(OVERLAP_SECONDS)
        return result

    return waiting


class HoldUntilWaitedOn:
    """Patch it over a lock: the first caller, once it holds the lock, sets `held` and keeps the lock until
    another backend waits on a lock (PostgreSQL's pg_stat_activity says so), at most 20 s. Later callers just
    take the lock. For a race whose order matters (a leave, then an entry that began while the player still sat):
    the second party starts after `held` and is certainly queued behind the first, however busy the machine,
    where a fixed sleep only made that likely."""

    def __init__(self, step: Callable) -> None:
        self.step = step
        self.held = threading.Event()

    def __call__(self, *args, **kwargs):
        result = self.step(*args, **kwargs)
        if self.held.is_set():
            return result
        self.held.set()
        deadline = time.monotonic() + 20
        with connection.cursor() as cursor:
            while time.monotonic() < deadline:
                cursor.execute("SELECT pg_stat_clear_snapshot()")  # a transaction sees one snapshot otherwise
                cursor.execute(
                    "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
                    " AND pid <> pg_backend_pid() AND datname = current_database()"
                )
                if cursor.fetchone()[0]:
                    break
                time.sleep(0.01)
        return result


def then_meet(step: Callable, parties: int = 2) -> Callable:
    """`step`, after which each caller waits until `parties` callers have done it: for the controls without a
    lock, so both requests certainly read the same state before either writes, however slowly a busy machine
    brings them there (a fixed wait let one request finish first under load and hid the race)."""
    barrier = threading.Barrier(parties)

    def meeting(*args, **kwargs):
        result = step(*args, **kwargs)
        try:
            barrier.wait(timeout=20)
        except threading.BrokenBarrierError:
            barrier.reset()
        return result

    return meeting


def run_at_once(*calls, timeout: float = 60) -> list:
    """Call each function at the same instant; return what each returned, or the exception it raised."""
    barrier = threading.Barrier(len(calls))
    results: list = [None] * len(calls)

    def run(index, call):
        try:
            barrier.wait(timeout=10)
            results[index] = call()
        except Exception as error:  # noqa: BLE001 - the caller asserts on it
            results[index] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, call)) for i, call in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=timeout)
    return results


def post_at_once(*requests) -> list[tuple[int, object]]:
    """POST each (user, path, body) as JSON at the same instant; return (status code, decoded body) for each."""

    def sender(user, path, body):
        def send():
            client = SchemaCheckingClient()  # race answers (409s among them) are checked against the schema too
            client.force_authenticate(user)
            response = client.post(path, body, format="json")
            try:
                return response.status_code, response.json()
            except ValueError:
                return response.status_code, None

        return send

    api_schema()  # built once before the threads: drf-spectacular's lazy set-up is not thread-safe
    answers = run_at_once(*(sender(*request) for request in requests), timeout=30)
    for answer in answers:
        if isinstance(answer, Exception):
            raise answer
    return answers


def second_while_first_is_held(first: Callable, second: Callable, *, hold_seconds: float) -> float:
    """Run `first` inside a transaction held open (everything it wrote and locked kept) until `second` is done
    in another thread, or `hold_seconds` pass; returns the seconds `second` took. A `second` that waited on a
    lock of `first` takes the whole hold. Raises what either raised."""
    from django.db import transaction

    held, done = threading.Event(), threading.Event()
    took: dict[str, float] = {}
    errors: list[BaseException] = []

    def hold_first():
        try:
            with transaction.atomic():
                first()
                held.set()
                done.wait(timeout=hold_seconds)
        except BaseException as error:  # noqa: BLE001 - raised in the test's thread below
            errors.append(error)
            held.set()
        finally:
            connection.close()

    def run_second():
        held.wait(timeout=30)
        start = time.perf_counter()
        try:
            second()
        except BaseException as error:  # noqa: BLE001 - raised in the test's thread below
            errors.append(error)
        finally:
            took["second"] = time.perf_counter() - start
            done.set()
            connection.close()

    threads = [threading.Thread(target=hold_first), threading.Thread(target=run_second)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    if errors:
        raise errors[0]
    return took["second"]
