"""Who may watch a flight's or an event's live pages: whoever may see the event (tournaments.selectors)."""

from base.compiled import CompiledRead
from base.live import group_name, notify_group, register_group
from clubs.models import Player
from tournaments import selectors
from tournaments.hooks import changed_players, on_flight_results_changed
from tournaments.models import Flight


def _event(user, pk: int) -> bool:
    return selectors.visible_events(user=user).filter(pk=pk).exists()


def _flight(user, pk: int) -> bool:
    return Flight.objects.filter(pk=pk, event__in=selectors.visible_events(user=user)).exists()


register_group("event", _event)
register_group("flight", _flight)


# The users of the players a result moved: every confirmed result asks (base.compiled).
_USERS_OF_PLAYERS = CompiledRead(
    lambda *players: Player.objects.filter(pk__in=players).order_by().values_list("user", flat=True)
)


def flight_changed(flight) -> None:
    """tournaments hook: a result or the bracket of this flight changed. Its bracket page and the event's
    dashboard refetch, and so do the own pages ("my next match", home) of the players the change moved (every
    entrant's when the caller did not say)."""
    players = changed_players(flight)
    if players is None:
        users = Flight.objects.filter(pk=flight.pk).values_list("entries__player__user", flat=True)
    elif players:
        users = _USERS_OF_PLAYERS.all(*players)
    else:
        users = []
    notify_group(
        group_name("flight", flight.pk),
        group_name("event", flight.event_id),
        *(group_name("user", pk) for pk in users if pk is not None),
    )


on_flight_results_changed(flight_changed)
