"""Signal-free extension points for apps that react to bracket changes (the boards are freed, the Calcutta
re-settles, the event's points are awarded). The callbacks of each, in order and with the locks they take, are
listed in config/pipeline.py (the one place that registers them; the `on_…`/`remove_…` names are for tests).

The tournaments services call every callback inside their transaction whenever a result in a flight is
confirmed, corrected, re-routed or voided (after the bracket has been updated), and when the flight or its
event finishes. Read `tournaments.selectors.flight_placements(flight=flight)`, and the event's status from
the database (`Event.objects.get(pk=flight.event_id)`): the flight and event objects passed along are the
caller's and may be behind the stored state. A callback that raises aborts the change.
"""

from base.hooks import Hook

# Called as flight_results_changed(flight); through notify_flight when the caller knows whose pages changed.
flight_results_changed = Hook()
on_flight_results_changed = flight_results_changed.register
remove_flight_callback = flight_results_changed.remove


def notify_flight(flight, players=None) -> None:
    """Call the flight_results_changed callbacks, telling them (`changed_players`) which players' own pages the
    change touched: a result moves two or three players, and telling every entrant's phone to refetch cost a
    confirmation one push per entrant. The flight object carries it only for the length of the call, so a later
    call with the same object says nothing it did not mean."""
    flight.changed_players = None if players is None else frozenset(players)
    try:
        flight_results_changed(flight)
    finally:
        del flight.changed_players


def changed_players(flight) -> frozenset[int] | None:
    """The players (Player ids) whose own pages changed with this flight, or None for every entrant's (a draw,
    a round paired, a flight's end, or a caller that did not say)."""
    return getattr(flight, "changed_players", None)


# Called as draw_released(flight) once a flight's draw is published and its round-1 matches exist.
draw_released = Hook()
# Called as match_called(match, board) when a tournament match can be played: with board None as soon as the match
# is ready, and with the board (a tournaments.models.Board) after the transaction that called it to that board
# has committed, and again when the director moves it: the players are to be told where to play.
match_called = Hook()
on_match_called = match_called.register
remove_match_called_callback = match_called.remove

# Called as place_offered(spot) when a capped flight's waiting list offers a freed place (the flight is locked):
# the player is to be told, with how long they have to accept it.
place_offered = Hook()
