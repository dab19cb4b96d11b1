"""Who may watch a flight's or an event's live pages: whoever may see the event (tournaments.selectors)."""

from django.conf import settings
from django.utils import translation

from base.live import Fragment, group_name, notify_group, register_fragment, register_group
from clubs.models import Player
from tournaments import selectors
from tournaments.hooks import changed_players
from tournaments.models import Flight
from tournaments.views.events import public_bracket_body
from tournaments.views.rounds import public_rounds_body


def _event(user, pk: int) -> bool:
    return selectors.visible_events(user=user).filter(pk=pk).exists()


def _flight(user, pk: int) -> bool:
    return Flight.objects.filter(pk=pk, event__in=selectors.visible_events(user=user)).exists()


register_group("event", _event)
register_group("flight", _flight)


def flight_changed(flight) -> None:
    """tournaments hook: a result or the bracket of this flight changed. Its bracket page and the event's
    dashboard refetch, and so do the own pages ("my next match", home) of the players the change moved (every
    entrant's when the caller did not say)."""
    players = changed_players(flight)
    if players is None:
        users = Flight.objects.filter(pk=flight.pk).values_list("entries__player__user", flat=True)
    elif players:
        users = Player.objects.filter(pk__in=players).order_by().values_list("user", flat=True)
    else:
        users = []
    notify_group(
        group_name("flight", flight.pk),
        group_name("event", flight.event_id),
        *(group_name("user", pk) for pk in users if pk is not None),
    )


def _flight_fragment(pk: int, variant: str) -> Fragment | None:
    """The flight's public body (`variant`: "<language>.<projector 0 or 1>", as the page names it) for every open
    public page of the flight: the bracket, or a flight played in rounds' standings, tables and crosstable of the
    current round. The same string a reload serves a non-director, from the same cache entry
    (tournaments.views.events.public_bracket_body, tournaments.views.rounds.public_rounds_body), so it is rendered
    once per version however many watch. A viewer's own table is a region of its own, refetched on their own
    changes (their user group)."""
    language, _, projector = variant.partition(".")
    if language not in dict(settings.LANGUAGES) or projector not in ("0", "1"):
        return None
    flight = selectors.flight_with_version(pk=pk)
    if flight is None:
        return None
    with translation.override(language):
        if flight.is_round_based:
            return Fragment(
                version=flight.version, regions={"live-rounds": public_rounds_body(flight, projector=projector == "1")}
            )
        html = public_bracket_body(flight, projector=projector == "1")
    return Fragment(version=flight.version, regions={"live-bracket": html})


register_fragment("flight", _flight_fragment)
