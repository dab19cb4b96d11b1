"""A signal-free extension point for apps that react to bracket changes (ratings award event points, the
Calcutta re-settles).

    from tournaments.hooks import on_flight_results_changed

    @on_flight_results_changed
    def resettle(flight):
        ...

The tournaments services call every callback inside their transaction whenever a result in a flight is
confirmed, corrected, re-routed or voided (after the bracket has been updated), and when the flight or its
event finishes. Read `tournaments.selectors.flight_placements(flight=flight)`, and the event's status from
the database (`Event.objects.get(pk=flight.event_id)`): the flight and event objects passed along are the
caller's and may be behind the stored state. A callback that raises aborts the change.
"""

from base.hooks import Hook

# Called as flight_results_changed(flight).
flight_results_changed = Hook()
on_flight_results_changed = flight_results_changed.register
remove_flight_callback = flight_results_changed.remove

# Called as draw_released(flight) once a flight's draw is published and its round-1 matches exist.
draw_released = Hook()
# Called as match_called(match, board) when a tournament match can be played: `board` is the board's label when
# one was assigned (the boards app calls it again then), or None when the match is merely ready.
match_called = Hook()
