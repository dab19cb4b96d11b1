"""A signal-free extension point for apps that react to bracket changes (ratings award event points, the
Calcutta re-settles).

    from tournaments.hooks import on_flight_results_changed

    @on_flight_results_changed
    def resettle(flight):
        ...

The tournaments services call every callback inside their transaction whenever a result in a flight is
confirmed, corrected, re-routed or voided (after the bracket has been updated), and when the flight or its
event finishes. Read `tournaments.selectors.flight_placements(flight=flight)` and `flight.event.status`.
A callback that raises aborts the change.
"""

from collections.abc import Callable

FlightCallback = Callable[[object], None]

_callbacks: list[FlightCallback] = []


def on_flight_results_changed(callback: FlightCallback) -> FlightCallback:
    """Register `callback(flight)`; usable as a decorator. Registering the same function twice is a no-op."""
    if callback not in _callbacks:
        _callbacks.append(callback)
    return callback


def remove_flight_callback(callback: FlightCallback) -> None:
    if callback in _callbacks:
        _callbacks.remove(callback)


def flight_results_changed(flight) -> None:
    for callback in list(_callbacks):
        callback(flight)
