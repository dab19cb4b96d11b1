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
# Called as match_called(match, board) when a tournament match can be played: with board None as soon as the match
# is ready, and with the board (a tournaments.models.Board) after the transaction that called it to that board
# has committed, and again when the director moves it: the players are to be told where to play.
match_called = Hook()
on_match_called = match_called.register
remove_match_called_callback = match_called.remove
