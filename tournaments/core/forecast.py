"""When will each round start and a flight end? A forecast from the club's own match durations.

Why a pure core: the arithmetic is what a director checks by hand ("a 7-point match takes us about an hour,
five rounds..."), so it lives apart from the database and is tested with plain numbers. The service feeds it the
durations of the club's finished matches (started_at to finished_at) and the flight's rounds.

The model: a round ends when its matches are done, which on average takes as long as one match of the round's
length (the boards play in parallel). The expected duration of a length is the mean of the club's matches of
that length; a length never played is scaled from the club's mean minutes per point; a club without any
finished match uses DEFAULT_MINUTES_PER_POINT. A round that has already started starts when it actually did.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

DEFAULT_MINUTES_PER_POINT = 9.0  # a 7-point match in about an hour: the usual figure of a club evening
MIN_MINUTES = 1.0  # a duration below a minute is a data-entry slip (a result typed in afterwards), not a match


@dataclass(frozen=True)
class Played:
    """One finished match: its length in points and how long it took."""

    length: int
    minutes: float


@dataclass(frozen=True)
class RoundForecast:
    round: int
    length: int
    starts_at: datetime
    ends_at: datetime


@dataclass(frozen=True)
class FlightForecast:
    rounds: tuple[RoundForecast, ...]

    @property
    def ends_at(self) -> datetime | None:
        return self.rounds[-1].ends_at if self.rounds else None


class Durations:
    """Expected minutes of a match by its length, learnt from the matches played."""

    def __init__(self, played: Iterable[Played], default_per_point: float = DEFAULT_MINUTES_PER_POINT) -> None:
        by_length: dict[int, list[float]] = {}
        for p in played:
            if p.length >= 1 and p.minutes >= MIN_MINUTES:
                by_length.setdefault(p.length, []).append(p.minutes)
        self.means = {length: sum(m) / len(m) for length, m in by_length.items()}
        points = sum(length * len(m) for length, m in by_length.items())
        minutes = sum(sum(m) for m in by_length.values())
        self.per_point = minutes / points if points else default_per_point

    def minutes(self, length: int) -> float:
        return self.means.get(length, self.per_point * length)


def forecast_flight(
    *,
    start: datetime,
    round_lengths: Sequence[int],
    durations: Durations,
    started: Mapping[int, datetime] | None = None,
) -> FlightForecast:
    """Round r (1-based) starts when round r-1 is expected to end (round 1 at `start`), or when it actually
    started if `started` names it; it lasts the expected duration of its length."""
    started = started or {}
    rounds = []
    at = start
    for number, length in enumerate(round_lengths, start=1):
        at = started.get(number, at)
        ends = at + timedelta(minutes=durations.minutes(length))
        rounds.append(RoundForecast(number, length, at, ends))
        at = ends
    return FlightForecast(tuple(rounds))


def ends_late(forecast: FlightForecast, closes_at: datetime | None) -> bool:
    """True when the flight is expected to end after the venue closes."""
    return closes_at is not None and forecast.ends_at is not None and forecast.ends_at > closes_at
