"""A signal-free extension point: later apps (tournaments, ratings) learn about confirmed results here.

    from games.matchplay.hooks import on_result_confirmed

    @on_result_confirmed
    def advance_bracket(match, report):
        ...

Services call `result_confirmed(match, report)` inside their transaction after a confirmation, a correction,
an override or an annulment, so a callback's writes commit or roll back together with the result. A callback
that raises aborts the confirmation. `report.outcome` says what happened (an annulment has outcome "annulled"
and no winner); `match` already carries the new denormalised result.
"""

from collections.abc import Callable

ResultCallback = Callable[[object, object], None]

_callbacks: list[ResultCallback] = []


def on_result_confirmed(callback: ResultCallback) -> ResultCallback:
    """Register `callback(match, report)`; usable as a decorator. Registering the same function twice is a no-op."""
    if callback not in _callbacks:
        _callbacks.append(callback)
    return callback


def remove_result_callback(callback: ResultCallback) -> None:
    if callback in _callbacks:
        _callbacks.remove(callback)


def result_confirmed(match, report) -> None:
    for callback in list(_callbacks):
        callback(match, report)
