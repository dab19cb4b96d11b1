"""Reads of the data app: feed tokens and what the calendar feeds show."""

from __future__ import annotations

import datetime

from django.utils import timezone

from data.models import FeedToken
from tournaments import selectors as tournament_selectors

#: A club feed holds the events from this many days back on, and every later one.
FEED_PAST_DAYS = 400
#: A person's feed holds at most this many open tables (each event's tables of the day are far fewer).
FEED_TABLES = 200


def feed_token_of(*, user) -> FeedToken | None:
    if not getattr(user, "is_authenticated", False):
        return None
    return FeedToken.objects.filter(user=user).first()


def user_of_feed_token(token: str):
    """The active user whose feed token this is, or None (an unknown or revoked token)."""
    if not token or len(token) > 64:
        return None
    row = FeedToken.objects.select_related("user").filter(token=token).first()
    if row is None or not row.user.is_active:
        return None
    return row.user


def club_feed_events(*, club, user) -> list:
    """The club's events the user may see (an anonymous calendar app: the public events of a public club), from
    FEED_PAST_DAYS back on, the soonest first."""
    since = timezone.localdate() - datetime.timedelta(days=FEED_PAST_DAYS)
    events = tournament_selectors.visible_events(user=user).filter(club=club, ends_on__gte=since)
    return list(events.order_by("starts_on", "pk"))


def own_tables(*, user) -> list:
    """The user's tables still to play that have a match (a round paired, a bracket match made, a board
    called), soonest first."""
    tables = tournament_selectors.player_tables(user=user, limit=FEED_TABLES)
    return [table for table in tables if table.match is not None]
