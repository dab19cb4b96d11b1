"""iCalendar feeds (the `icalendar` library): a club's events, and a person's own matches.

A calendar app fetches a feed without signing in. The club feed shows what an anonymous visitor sees (the public
events of a public club; a private club's feed is a 404), or, with the person's feed token (`?token=`), what that
person sees. The person's own feed is found by the token alone (`/feeds/<token>/matches.ics`).
"""

from __future__ import annotations

import datetime

from django.http import HttpResponse
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from icalendar import Calendar
from icalendar import Event as CalendarEvent

from tournaments.selectors.tables import CALLED

#: How long a match is shown in a calendar (a start is known; the end is not).
MATCH_DURATION = datetime.timedelta(hours=1)
PRODID = "-//bgclub//calendar feeds//EN"


def _calendar(name: str) -> Calendar:
    calendar = Calendar()
    calendar.add("prodid", PRODID)
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    calendar.add("x-wr-calname", name)
    return calendar


def club_calendar(*, club, events, absolute) -> Calendar:
    """One all-day VEVENT per event (its first to its last day), its URL the event page."""
    calendar = _calendar(_("Events of %(club)s") % {"club": club.name})
    stamp = timezone.now()
    for event in events:
        item = CalendarEvent()
        item.add("uid", f"event-{event.pk}@bgclub")
        item.add("dtstamp", stamp)
        item.add("summary", event.name)
        item.add("dtstart", event.starts_on)
        item.add("dtend", event.ends_on + datetime.timedelta(days=1))  # DTEND of an all-day event is exclusive
        item.add("url", absolute(event.get_absolute_url()))
        if club.city:
            item.add("location", f"{club.name}, {club.city}")
        item.add("status", "CONFIRMED")
        calendar.add_component(item)
    return calendar


def _table_start(table) -> datetime.datetime:
    """When the table is due: the board call, else the match's own time, else when it was made (the round
    paired, the bracket's match known)."""
    if table.call is not None:
        return table.call.called_at
    return table.match.scheduled_at or table.match.created_at


def matches_calendar(*, user, tables, absolute) -> Calendar:
    """One VEVENT per table: "Round 3: Anna – Bernd", with the board once called; the same UID for the same
    table, so a calendar app moves the entry when the board is called."""
    calendar = _calendar(_("My backgammon matches"))
    stamp = timezone.now()
    for table in tables:
        start = _table_start(table)
        title = f"{table.label}: {table.name_a or '?'} – {table.name_b or '?'}"
        if table.state == CALLED and table.board is not None:
            title += " · " + _("Board %(n)s") % {"n": table.board.number}
        item = CalendarEvent()
        item.add("uid", f"table-{table.key}@bgclub")
        item.add("dtstamp", stamp)
        item.add("summary", title)
        item.add("dtstart", start)
        item.add("dtend", start + MATCH_DURATION)
        item.add("location", f"{table.event.name} ({table.flight.name})")
        item.add("description", table.state_label)
        item.add("url", absolute(reverse("games:match-detail", args=[table.match.pk])))
        calendar.add_component(item)
    return calendar


def ics_response(calendar: Calendar, *, private: bool) -> HttpResponse:
    response = HttpResponse(calendar.to_ical(), content_type="text/calendar; charset=utf-8")
    response["Cache-Control"] = "private, no-store" if private else "public, max-age=300"
    return response
