"""Reads for event points that need the tournaments app (the awards themselves are read in ratings.selectors)."""

from clubs import access
from tournaments.models import Event


def club_events(*, club, user):
    """The club's events whose points the user may see: all of them for its directors, the public ones for
    everyone else (the one rule for the points page and the API)."""
    events = Event.objects.filter(club=club)
    if not access.can(user, "club.direct", club):
        events = events.filter(is_public=True)
    return events
