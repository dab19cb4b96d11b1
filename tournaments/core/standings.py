"""Standings of a round-based flight (Swiss, round robin, groups, triple elimination) with configurable
tie-breaks.

A player's score is the number of matches won. The standings sort by the criteria of `order`, first to last;
players equal on every criterion share a rank (and keep the order they were passed in, the seed order).

Criteria (all "more is better"; each is a class of tournaments.core.tiebreaks, with its name and abbreviation):

- ``wins`` – matches won, byes and forfeits won included.
- ``buchholz`` – the sum of the wins of every opponent met over the board (one term per match played).
- ``median_buchholz`` – the Buchholz without the best and the worst opponent's wins (with three or more
  opponents; with fewer nothing is dropped).
- ``sonneborn_berger`` – the sum of the wins of every opponent beaten over the board.
- ``head_to_head`` – matches won against the other players still tied at this criterion (so it only
  separates players equal on every earlier criterion; put it after the criteria it should break).
- ``points_difference`` – match points scored minus match points conceded.
- ``points_for`` – match points scored.

Byes and forfeits (the documented convention): a bye and a forfeit win count as a win, a forfeit loss and a
double forfeit as a loss. None of them has an opponent met over the board, so they add nothing to the
Buchholz, median Buchholz or Sonneborn-Berger of either side and no match points. A forfeit does count in
head-to-head: the director decided that match. Pending and not-scored pairings are not passed in at all.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field

from tournaments.core.errors import BracketError
from tournaments.core.tiebreaks import TIEBREAKS, Tally

PLAYED, BYE, FORFEIT, DOUBLE_FORFEIT = "played", "bye", "forfeit", "double_forfeit"

#: The criteria's keys; each is a class of tournaments.core.tiebreaks (its name, abbreviation and computation).
CRITERIA: tuple[str, ...] = tuple(TIEBREAKS)
DEFAULT_ORDER: tuple[str, ...] = ("wins", "buchholz", "median_buchholz", "sonneborn_berger", "head_to_head")
#: Round robin: everyone met everyone, so the opponents' strength says nothing and the match itself decides.
ROUND_ROBIN_ORDER: tuple[str, ...] = ("wins", "head_to_head", "sonneborn_berger", "points_difference")
MAX_CRITERIA = len(CRITERIA)


@dataclass(frozen=True)
class Game:
    """One scored pairing. `b` is None for a bye; `winner` is a or b, or None for a double forfeit."""

    a: Hashable
    b: Hashable | None
    kind: str = PLAYED
    winner: Hashable | None = None
    points_a: int = 0
    points_b: int = 0


@dataclass
class Standing:
    key: Hashable
    rank: int = 0
    wins: int = 0
    losses: int = 0
    played: int = 0
    byes: int = 0
    points_for: int = 0
    points_against: int = 0
    buchholz: int = 0
    median_buchholz: int = 0
    sonneborn_berger: int = 0
    head_to_head: int = 0
    opponents: list[Hashable] = field(default_factory=list)
    beaten: list[Hashable] = field(default_factory=list)

    @property
    def points_difference(self) -> int:
        return self.points_for - self.points_against


def validate_order(order: object) -> tuple[str, ...]:
    """The tie-break order as a tuple, or a BracketError naming the criteria that work."""
    if order in (None, [], ()):
        return DEFAULT_ORDER
    known = ", ".join(CRITERIA)
    if not isinstance(order, list | tuple) or not all(isinstance(c, str) for c in order):
        raise BracketError(
            "bad_tiebreaks", f"The tie-break order names each criterion once, from: {known}.", "tiebreaks", known=known
        )
    unknown = [c for c in order if c not in CRITERIA]
    if unknown or len(set(order)) != len(order) or len(order) > MAX_CRITERIA:
        raise BracketError(
            "bad_tiebreaks",
            f"The tie-break order names each criterion once, from: {known}.",
            "tiebreaks",
            known=known,
        )
    return tuple(order)


def tally(entries: Sequence[Hashable], results: Iterable[Game]) -> dict[Hashable, Standing]:
    """Wins, losses, byes, match points and the opponents met, per entry (before the tie-breaks)."""
    rows = {key: Standing(key=key) for key in entries}
    for game in results:
        a = rows[game.a]
        if game.kind == BYE or game.b is None:
            a.wins += 1
            a.byes += 1
            continue
        b = rows[game.b]
        for me, other, scored, conceded in ((a, b, game.points_a, game.points_b), (b, a, game.points_b, game.points_a)):
            if game.winner == me.key:
                me.wins += 1
            else:
                me.losses += 1
            if game.kind == PLAYED:
                me.played += 1
                me.points_for += scored
                me.points_against += conceded
                me.opponents.append(other.key)
                if game.winner == me.key:
                    me.beaten.append(other.key)
    whole = Tally(rows)
    for row in rows.values():
        row.buchholz = TIEBREAKS["buchholz"].value(row, whole)
        row.median_buchholz = TIEBREAKS["median_buchholz"].value(row, whole)
        row.sonneborn_berger = TIEBREAKS["sonneborn_berger"].value(row, whole)
    return rows


def _decided_against(results: Sequence[Game]) -> dict[Hashable, list[Hashable]]:
    """Who each player beat in a match that counts for head-to-head (played or forfeited), once per match."""
    beaten: dict[Hashable, list[Hashable]] = defaultdict(list)
    for game in results:
        if game.b is not None and game.winner is not None and game.kind in (PLAYED, FORFEIT):
            beaten[game.winner].append(game.b if game.winner == game.a else game.a)
    return beaten


def standings(
    entries: Sequence[Hashable], results: Iterable[Game], order: Sequence[str] = DEFAULT_ORDER
) -> list[Standing]:
    """The standings table, best first. `entries` in seed order (the last resort among full ties)."""
    order = validate_order(list(order))
    games = list(results)
    rows = tally(entries, games)
    criteria = [TIEBREAKS[key] for key in order]
    context = Tally(rows, _decided_against(games) if any(c.within_tie for c in criteria) else {})
    groups: list[list[Standing]] = [[rows[key] for key in entries]]
    for criterion in criteria:
        refined: list[list[Standing]] = []
        for group in groups:
            if len(group) == 1:
                refined.append(group)
                continue
            scores = [criterion.value(row, context, group) for row in group]
            if criterion.within_tie:  # the column shows the number that decided, among the players tied then
                for row, score in zip(group, scores, strict=True):
                    setattr(row, criterion.key, score)
            values = sorted(set(scores), reverse=True)
            refined.extend(
                [row for row, score in zip(group, scores, strict=True) if score == value] for value in values
            )
        groups = refined
    table: list[Standing] = []
    for group in groups:
        rank = len(table) + 1
        for row in group:
            row.rank = rank
            table.append(row)
    return table
