"""The crosstables of a flight played in rounds (one for the flight, or one per group): who met whom in each
round and how it ended, rows in standings order. One query whatever the field: the flight's tables are read
once and each table of standings takes its players' games from them (tournaments.core.crosstable)."""

from __future__ import annotations

from dataclasses import dataclass

from tournaments.core import crosstable as core
from tournaments.models import Flight, Pairing
from tournaments.selectors.rounds import StandingRow


@dataclass
class CrossRow:
    standing: StandingRow
    cells: tuple[core.Cell | None, ...]


@dataclass
class CrossTable:
    rounds: list[int]
    rows: list[CrossRow]


def crosstables(*, flight: Flight, tables: list[list[StandingRow]]) -> list[CrossTable]:
    """One crosstable per list of standings rows (the flight's, or each group's), in the same order."""
    fields = ("round", "entry_a", "entry_b", "result", "winner", "score_a", "score_b")
    games = [
        core.Table(p["round"], p["entry_a"], p["entry_b"], p["result"], p["winner"], p["score_a"], p["score_b"])
        for p in Pairing.objects.filter(flight=flight).order_by("round", "table").values(*fields)
    ]
    result = []
    for rows in tables:
        count, lines = core.crosstable([r.entry.pk for r in rows], games)
        result.append(
            CrossTable(
                rounds=list(range(1, count + 1)),
                rows=[CrossRow(standing=row, cells=line.cells) for row, line in zip(rows, lines, strict=True)],
            )
        )
    return result
