"""Reads for events, flights, brackets and prize lists, scoped to what the asking user may see."""

from __future__ import annotations

from dataclasses import dataclass

from tournaments.models import Entry, Flight


@dataclass(frozen=True)
class Placement:
    entry_id: int
    player_id: int
    place: int | None  # None while the entry is still alive


def flight_placements(*, flight: Flight) -> list[Placement]:
    """Every entry of the flight with its place (standard competition ranking by elimination round: winner 1,
    finalist 2, losing semi-finalists 3, quarter-finalists 5, ...; None while alive). One query."""
    rows = Entry.objects.filter(flight=flight).order_by("place", "id").values_list("id", "player_id", "place")
    return [Placement(entry_id=e, player_id=p, place=place) for e, p, place in rows]
