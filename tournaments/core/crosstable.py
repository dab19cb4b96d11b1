"""The crosstable of a flight played in rounds: for each player, in standings order, what came of each round —
whom they met (by their line in the same table, so a reader finds the opponent one row away) and how it ended.

Pure: the page's selector hands in the standings order and the flight's pairings as plain tuples. A player
absent from a round (a late entry before it, a player dropped after it) has no cell there; a bye has no
opponent; an opponent outside the table (another group) is shown without a line number.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass

WIN, LOSS, PENDING, NOT_SCORED, BYE = "win", "loss", "pending", "not_scored", "bye"


@dataclass(frozen=True)
class Table:
    """One stored table as the crosstable reads it: `result` is the stored result's name ("played", "bye",
    "forfeit", "double_forfeit", "not_scored", "pending"), `winner` the winning key or None."""

    round: int
    a: Hashable
    b: Hashable | None
    result: str
    winner: Hashable | None = None
    score_a: int | None = None
    score_b: int | None = None


@dataclass(frozen=True)
class Cell:
    round: int
    opponent: Hashable | None  # None: a bye
    line: int | None  # the opponent's line (1-based) in this table, None when not in it
    outcome: str  # WIN, LOSS, PENDING, NOT_SCORED or BYE
    forfeit: bool = False
    score: tuple[int, int] | None = None  # own score first


@dataclass(frozen=True)
class Row:
    key: Hashable
    cells: tuple[Cell | None, ...]  # one per round, 1 … rounds


def crosstable(order: Sequence[Hashable], tables: Iterable[Table]) -> tuple[int, list[Row]]:
    """(number of rounds, one row per key of `order`, in that order). Tables of players not in `order` are
    ignored, so one flight's tables serve each of its groups."""
    line = {key: i for i, key in enumerate(order, start=1)}
    by_key: dict[Hashable, dict[int, Cell]] = {key: {} for key in order}
    rounds = 0
    for t in tables:
        for me, them, mine, theirs in ((t.a, t.b, t.score_a, t.score_b), (t.b, t.a, t.score_b, t.score_a)):
            if me is None or me not in by_key:
                continue
            rounds = max(rounds, t.round)
            by_key[me][t.round] = _cell(t, me, them, line.get(them) if them is not None else None, mine, theirs)
    return rounds, [Row(key, tuple(by_key[key].get(r) for r in range(1, rounds + 1))) for key in order]


def _cell(t: Table, me, them, their_line, mine, theirs) -> Cell:
    if them is None:
        return Cell(t.round, None, None, BYE if t.result != NOT_SCORED else NOT_SCORED)
    if t.result == "pending":
        outcome = PENDING
    elif t.result == NOT_SCORED:
        outcome = NOT_SCORED
    else:
        outcome = WIN if t.winner == me else LOSS
    score = (mine, theirs) if t.result == "played" and mine is not None and theirs is not None else None
    forfeit = t.result in ("forfeit", "double_forfeit")
    return Cell(t.round, them, their_line, outcome, forfeit=forfeit, score=score)
