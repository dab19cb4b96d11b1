"""The signed-in user's own tournament things: next tables, entries, events they direct."""

from __future__ import annotations

from django.db.models import Exists, OuterRef

from clubs import selectors as club_selectors
from clubs.models import Membership
from tournaments.models import (
    Entry,
    EntryStatus,
    Event,
    EventStatus,
)
from tournaments.selectors import tables
from tournaments.selectors.tables import Table


def my_next_tables(*, user, limit: int = 5) -> list[Table]:
    """The signed-in user's tables still to play in events not finished, every format, the soonest first (the
    kinds of table there are loaded with the user: no query for a player without one)."""
    kinds = getattr(user, "open_table_kinds", None)
    if kinds == 0:
        return []
    return tables.player_tables(user=user, limit=limit, kinds=kinds)


def my_entries(*, user, limit: int = 10) -> list:
    """The signed-in user's entries in events not finished (withdrawn ones left out)."""
    return list(
        Entry.objects.filter(player__user=user)
        .exclude(status=EntryStatus.WITHDRAWN)
        .exclude(flight__event__status=EventStatus.FINISHED)
        .select_related("flight__event__club")
        .order_by("flight__event__starts_on", "flight__event__name")[:limit]
    )


def _directs_the_club(club_ref: str):
    """A director's or admin's active membership of the club named by `club_ref`, for the user of the outer query."""
    return Membership.objects.filter(
        club=OuterRef(club_ref), player__user=OuterRef(OuterRef("pk")), is_active=True, role__in=["director", "admin"]
    )


def directs_open_events_subquery():
    """Whether the user of the outer query directs an event not finished: loaded with the user (accounts.badges),
    so the home page asks for the list only when there is one, and a player's home costs no query for it."""
    return Exists(Event.objects.exclude(status=EventStatus.FINISHED).filter(Exists(_directs_the_club("club"))))


def directed_events(*, user, limit: int = 5) -> list:
    """The events not finished at the clubs the user directs, the soonest first: a director's way from the home
    page to the event page and its dashboard, where the draw and the results are handled."""
    return list(
        Event.objects.filter(club__in=club_selectors.directed_clubs(user=user))
        .exclude(status=EventStatus.FINISHED)
        .select_related("club")
        .order_by("starts_on", "name")[:limit]
    )
