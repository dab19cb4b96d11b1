"""The one way app code queues background work: after the transaction commits, and never failing the request.

Why: a task sent inside a transaction can run before the rows it needs are committed (or after they were rolled
back), so work is sent in `on_commit`. And by then the request has succeeded: if the broker is unreachable,
raising would turn a committed upload or correction into a 500 although its data is stored. So a failed send is
logged, not raised, and the row it was for stays due in the database — `status="pending"`, `recompute_pending`
and the like. The periodic sweep (`core.sweep`, run by Celery beat) finds such rows and sends their work again,
and each task claims its row once, so work sent twice still runs once.

Each app has a sweeper in `sweepers` (listed in config/pipeline.py, SWEEPERS): a function that re-enqueues that
app's due work and returns how many tasks it sent.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from functools import partial

from celery import Task, current_app
from django.db import transaction

from base.hooks import Hook

logger = logging.getLogger(__name__)


def registered(task: Task | str) -> Task:
    """The task itself, or the task registered under this name ("ratings.tasks.recompute_rating_pool"): a service
    sends its app's task by name, so it need not import the tasks module that imports it (every app's tasks
    module is loaded at start-up, in BaseConfig.ready)."""
    return current_app.tasks[task] if isinstance(task, str) else task


def enqueue_many(
    task: Task | str, calls: list[tuple], *, on_failure: Callable[[list[tuple]], None] | None = None
) -> int:
    """Send `task(*args)` for each args in `calls` now; returns how many the broker took. With no broker
    configured each runs in this process (and its errors propagate, as any in-process call's would).

    At the first send the broker refuses, the failure is logged, the rest are not tried (each would wait for the
    broker too: a zip of 200 records must not hold its request for minutes), and `on_failure` gets the args not
    sent, to mark their rows due again at once."""
    task = registered(task)
    if task.app.conf.task_always_eager:
        for args in calls:
            task.apply(args=args, throw=True)
        return len(calls)
    for sent, args in enumerate(calls):
        try:
            task.apply_async(args=args)
        except Exception as error:  # noqa: BLE001 - any send failure: the row stays due and the sweep sends it later
            unsent = calls[sent:]
            logger.error(
                "could not queue %s for %r (%s: %s); the sweep sends it again",
                task.name,
                unsent,
                type(error).__name__,
                error,
            )
            if on_failure is not None:
                try:
                    on_failure(unsent)
                except Exception:  # noqa: BLE001 - the database may be what failed; the sweep still finds the rows
                    logger.exception("could not mark %s for %r as due again", task.name, unsent)
            return sent
    return len(calls)


def enqueue(task: Task | str, *args, on_failure: Callable[[], None] | None = None) -> bool:
    """Send `task(*args)` now; True when the broker took it (see `enqueue_many`)."""
    return enqueue_many(task, [args], on_failure=on_failure and (lambda _unsent: on_failure())) == 1


def enqueue_on_commit(task: Task | str, *args, on_failure: Callable[[], None] | None = None) -> None:
    """Send `task(*args)` once the current transaction commits (at once outside one); see `enqueue_many`."""
    transaction.on_commit(partial(enqueue, task, *args, on_failure=on_failure))


def enqueue_many_on_commit(
    task: Task | str, calls: list[tuple], *, on_failure: Callable[[list[tuple]], None] | None = None
) -> None:
    """`enqueue_many` once the current transaction commits (at once outside one)."""
    if calls:
        transaction.on_commit(partial(enqueue_many, task, calls, on_failure=on_failure))


class Sweepers(Hook):
    """The registered sweepers; calling it runs each one and returns the total of tasks they sent."""

    def sweep(self) -> int:
        sent = 0
        for sweeper in list(self._callbacks):
            try:
                sent += sweeper() or 0
            except Exception:  # noqa: BLE001 - one app's failing sweep must not stop the others'
                logger.exception("sweeper %s failed", getattr(sweeper, "__qualname__", sweeper))
        return sent


sweepers = Sweepers()
