"""The tie-break criteria of a round-based flight's standings, one class each: its key (stored in
`Flight.tiebreaks`, never changed once published), its display name and abbreviation (the standings page's column
header, the API's `tiebreaks_in_effect`), a one-line explanation (the header's title) and how it is computed from
the tallied rows.

Why classes and not `if criterion == ...` branches: the page, the API and the standings core each need the name,
the abbreviation and the computation of the same criterion; one class keeps them together, and a new criterion
is one class and one line of `TIEBREAKS`.

Every criterion is "more is better". Most are a property of a player's row given the whole table (the Buchholz
reads the opponents' wins); head-to-head is computed among the players still tied at that point of the order
(`within_tie`), so it depends on the criteria before it.

The names are English, marked with `gettext_noop` so the catalogue extraction finds them without this pure core
importing Django; the edge (selectors, templates) translates them with `gettext`.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import ClassVar, Protocol


def gettext_noop(text: str) -> str:
    """Marks a text for the translation catalogue (the name Django's makemessages looks for); returns it as is."""
    return text


class Row(Protocol):
    """What a criterion reads of a tallied standings row (tournaments.core.standings.Standing)."""

    key: Hashable
    wins: int
    points_for: int
    points_against: int
    opponents: list[Hashable]
    beaten: list[Hashable]


@dataclass(frozen=True)
class Tally:
    """The whole table a criterion may look into: every row by key, and who beat whom in a match that counts for
    head-to-head (played or forfeited, once per match)."""

    rows: Mapping[Hashable, Row]
    decided: Mapping[Hashable, Sequence[Hashable]] = field(default_factory=dict)


class Tiebreak:
    key: ClassVar[str]
    name: ClassVar[str]
    abbreviation: ClassVar[str]
    explanation: ClassVar[str]
    #: Computed among the players tied on every earlier criterion, not once for the whole table.
    within_tie: ClassVar[bool] = False

    def value(self, row: Row, tally: Tally, tied: Sequence[Row] = ()) -> int:
        """The row's number for this criterion (`tied`: the players still tied with it, for `within_tie`)."""
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<Tiebreak {self.key}>"


class Wins(Tiebreak):
    key = "wins"
    name = gettext_noop("Wins")
    abbreviation = gettext_noop("W")
    explanation = gettext_noop("wins")

    def value(self, row: Row, tally: Tally, tied: Sequence[Row] = ()) -> int:
        return row.wins


class Buchholz(Tiebreak):
    key = "buchholz"
    name = gettext_noop("Buchholz")
    abbreviation = gettext_noop("Bh")
    explanation = gettext_noop("Buchholz: the wins of all opponents")

    def value(self, row: Row, tally: Tally, tied: Sequence[Row] = ()) -> int:
        return sum(tally.rows[o].wins for o in row.opponents)


class MedianBuchholz(Tiebreak):
    key = "median_buchholz"
    name = gettext_noop("Median Buchholz")
    abbreviation = gettext_noop("MBh")
    explanation = gettext_noop("Median Buchholz: without the best and the worst opponent")

    def value(self, row: Row, tally: Tally, tied: Sequence[Row] = ()) -> int:
        scores = sorted(tally.rows[o].wins for o in row.opponents)
        return sum(scores[1:-1]) if len(scores) >= 3 else sum(scores)


class SonnebornBerger(Tiebreak):
    key = "sonneborn_berger"
    name = gettext_noop("Sonneborn-Berger")
    abbreviation = gettext_noop("SB")
    explanation = gettext_noop("Sonneborn-Berger: the wins of the opponents beaten")

    def value(self, row: Row, tally: Tally, tied: Sequence[Row] = ()) -> int:
        return sum(tally.rows[o].wins for o in row.beaten)


class HeadToHead(Tiebreak):
    key = "head_to_head"
    name = gettext_noop("Head-to-head")
    abbreviation = gettext_noop("H2H")
    explanation = gettext_noop("Head-to-head: wins among the players tied")
    within_tie = True

    def value(self, row: Row, tally: Tally, tied: Sequence[Row] = ()) -> int:
        members = {other.key for other in tied}
        return sum(1 for other in tally.decided.get(row.key, ()) if other in members)


class PointsDifference(Tiebreak):
    key = "points_difference"
    name = gettext_noop("Points difference")
    abbreviation = "+/−"
    explanation = gettext_noop("Match points scored minus conceded")

    def value(self, row: Row, tally: Tally, tied: Sequence[Row] = ()) -> int:
        return row.points_for - row.points_against


class PointsFor(Tiebreak):
    key = "points_for"
    name = gettext_noop("Points scored")
    abbreviation = gettext_noop("Pts")
    explanation = gettext_noop("Match points scored")

    def value(self, row: Row, tally: Tally, tied: Sequence[Row] = ()) -> int:
        return row.points_for


#: Every criterion by key, in the order of tournaments.core.standings.CRITERIA.
TIEBREAKS: dict[str, Tiebreak] = {
    tiebreak.key: tiebreak
    for tiebreak in (
        Wins(),
        Buchholz(),
        MedianBuchholz(),
        SonnebornBerger(),
        HeadToHead(),
        PointsDifference(),
        PointsFor(),
    )
}
