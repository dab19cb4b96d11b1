"""Reads of chained stages: the knockout a stage feeds, whether the stage is over, and the ties at its qualifying
line with who decided them (tournaments.services.stages writes them)."""

from __future__ import annotations

from dataclasses import dataclass, field

from clubs.models import public_name_of
from tournaments.core.groups import label as group_label
from tournaments.models import Entry, FeedRule, Flight, FlightStatus, QualifyingTie


@dataclass
class Tie:
    row: QualifyingTie
    names: list[str]  # the tied players, in standings order
    qualified: list[str] = field(default_factory=list)  # once decided: who went on
    entries: list[tuple[int, str]] = field(default_factory=list)

    @property
    def group_label(self) -> str:
        return group_label(self.row.group - 1) if self.row.group else ""


@dataclass
class NextStage:
    cut: Flight | None
    over: bool
    ties: list[Tie]

    @property
    def waiting(self) -> list[Tie]:
        return [t for t in self.ties if not t.row.order]


def next_stage(*, flight: Flight) -> NextStage:
    """The stage's knockout and its ties (three queries at most, whatever the field)."""
    cut = flight.fed_flights.filter(feed_rule=FeedRule.CUT).order_by("order", "pk").first()
    rows = list(QualifyingTie.objects.filter(flight=flight).select_related("decided_by", "match"))
    ids = {e for row in rows for e in row.tied}
    names = dict(
        Entry.objects.filter(pk__in=ids)
        .annotate(shown=public_name_of("player__", club="flight__event__club__"))
        .values_list("pk", "shown")
    )
    ties = []
    for row in rows:
        decided = row.order[: row.places] if row.order else []
        ties.append(
            Tie(
                row=row,
                names=[names.get(e, "?") for e in row.tied],
                qualified=[names.get(e, "?") for e in decided],
                entries=[(e, names.get(e, "?")) for e in row.tied],
            )
        )
    return NextStage(cut=cut, over=flight.status == FlightStatus.FINISHED, ties=ties)


def qualifying_tie_in(*, flight: Flight, pk) -> QualifyingTie | None:
    return QualifyingTie.objects.filter(flight=flight, pk=pk).select_related("flight__event").first()
