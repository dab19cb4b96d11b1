"""Reads of round robin and groups flights: the numbered entrants of each group (the Berger numbers the schedule is
paired from) and each group's standings table, for the services, the flight's page and the API."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from tournaments.core.groups import label
from tournaments.core.standings import standings
from tournaments.models import SCORED_RESULTS, Entry, Flight, Pairing
from tournaments.selectors.rounds import StandingRow, games_of, tiebreak_order


@dataclass
class GroupTable:
    number: int  # 1, 2, ... as stored on the entries and pairings
    rows: list[StandingRow]

    @property
    def label(self) -> str:
        return label(self.number - 1)


def numbered_entries(*, flight: Flight) -> dict[int, list[Entry]]:
    """The numbered entrants by group (0 for a round robin), in Berger-number order, withdrawn ones included
    (one query)."""
    by_group: dict[int, list[Entry]] = defaultdict(list)
    for entry in Entry.objects.filter(flight=flight, draw_position__isnull=False).order_by("group", "draw_position"):
        by_group[entry.group].append(entry)
    return dict(by_group)


def group_tables(*, flight: Flight) -> list[GroupTable]:
    """Each group's standings, best first, group A first (two queries whatever the number of groups)."""
    members: dict[int, list[Entry]] = defaultdict(list)
    for entry in Entry.objects.filter(flight=flight, group__gt=0).select_related("player").order_by("seed", "pk"):
        members[entry.group].append(entry)
    games: dict[int, list] = defaultdict(list)
    scored = Pairing.objects.filter(flight=flight, result__in=SCORED_RESULTS, group__gt=0)
    fields = ("group", "entry_a", "entry_b", "result", "winner", "score_a", "score_b")
    for pairing in scored.only(*fields):
        games[pairing.group].append(pairing)
    order = tiebreak_order(flight)
    tables = []
    for number, entries in sorted(members.items()):
        by_id = {e.pk: e for e in entries}
        lines = standings([e.pk for e in entries], games_of(games[number]), order)
        tables.append(GroupTable(number=number, rows=[StandingRow(entry=by_id[line.key], line=line) for line in lines]))
    return tables
