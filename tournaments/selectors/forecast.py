"""The finish-time forecast of an event's flights from the club's own match durations."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Min

from tournaments.core import forecast
from tournaments.core.draw import bracket_size
from tournaments.core.errors import BracketError
from tournaments.core.layout import G, L, Layout
from tournaments.models import (
    Flight,
    FlightKind,
    FlightStatus,
    Slot,
)
from tournaments.selectors.events import drawable_entries, flights


@dataclass
class FlightTimes:
    flight: Flight
    forecast: forecast.FlightForecast
    late: bool


def club_durations(*, club) -> forecast.Durations:
    """The club's own pace: every finished match of its events with both times (the newest 500)."""
    rows = (
        Slot.objects.filter(flight__event__club=club, match__finished_at__isnull=False, match__started_at__isnull=False)
        .order_by("-match__finished_at")
        .values_list("match__length", "match__started_at", "match__finished_at")[:500]
    )
    return forecast.Durations(
        forecast.Played(length, (finished - started).total_seconds() / 60) for length, started, finished in rows
    )


def _round_lengths(flight: Flight, size: int) -> list[int]:
    layout = Layout.for_flight(
        size=size,
        double=flight.kind == FlightKind.DOUBLE_ELIMINATION,
        feed_rule=flight.feed_rule,
        feed_rounds=flight.feed_rounds,
        reset=flight.grand_final_reset,
    )
    count = (
        len(layout.rounds(L)) + len(layout.rounds(G))  # a second grand final counted as if it were needed
        if flight.kind == FlightKind.DOUBLE_ELIMINATION
        else len(layout.rounds(layout.first_section))
    )
    return [flight.length_for(r, is_final=r == count) for r in range(1, count + 1)]


def event_forecast(*, event, now) -> list[FlightTimes]:
    """Expected round starts and end of each bracket flight still to finish, and whether it ends after the
    event's closing time. A flight not released yet is forecast from now (or its check-in deadline, if later),
    sized by its entries; a running one from the actual start of each round begun."""
    durations = club_durations(club=event.club)
    started: dict[int, dict[int, object]] = {}  # flight -> round -> its first match's start (one query)
    for row in (
        Slot.objects.filter(flight__event=event, match__started_at__isnull=False)
        .exclude(section=L)
        .values("flight_id", "round")
        .annotate(first=Min("match__started_at"))
    ):
        started.setdefault(row["flight_id"], {})[row["round"]] = row["first"]
    out = []
    for flight in flights(event=event):
        if flight.kind == FlightKind.SIDE_POOL or flight.status == FlightStatus.FINISHED:
            continue
        size = flight.size
        if size is None:
            count = drawable_entries(flight).count()
            if count < 2 or flight.source_id is not None:
                continue
            size = bracket_size(count)
        try:
            lengths = _round_lengths(flight, size)
        except BracketError:
            continue  # too small to lay out (a fed flight of a tiny source): nothing to forecast
        start = max(now, flight.check_in_deadline) if flight.check_in_deadline else now
        times = forecast.forecast_flight(
            start=start, round_lengths=lengths, durations=durations, started=started.get(flight.pk, {})
        )
        out.append(FlightTimes(flight, times, forecast.ends_late(times, event.closes_at)))
    return out
