"""Match calling: which waiting match goes to which free board, and how late a called player is.

Why a pure core: the rules (longest-waiting first, a player is never on two boards at once, a match that needs
a step-free or clock board only goes to one) decide whether a tournament day runs fairly; kept free of the
database they are checked here, by properties over many random days, and the adapter
(tournaments.services.boards) only reads the rows and stores the calls.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

#: One penalty point per this many minutes late (games.matchplay's lateness rule counts from the call).
DEFAULT_GRACE_MINUTES = 5


@dataclass(frozen=True)
class FreeBoard:
    """A board nobody plays at now; `tags` are its features ("step-free", "clock")."""

    number: int
    tags: frozenset[str] = field(default_factory=frozenset)


@dataclass(frozen=True)
class Waiting:
    """A match both of whose players are known: `since` orders the queue (earlier waits longer, any
    comparable value), `players` are its two players, `needs` the board features it must have."""

    match: int
    since: float
    players: frozenset[int]
    needs: frozenset[str] = field(default_factory=frozenset)


@dataclass(frozen=True)
class Call:
    match: int
    board: int


def queue(waiting: Iterable[Waiting]) -> list[Waiting]:
    """The waiting matches, longest-waiting first (ties by match id, so the order is stable)."""
    return sorted(waiting, key=lambda w: (w.since, w.match))


def plan(
    waiting: Iterable[Waiting], free: Iterable[FreeBoard], busy: Iterable[int], *, limit: int | None = None
) -> list[Call]:
    """The calls to make now: each waiting match in queue order goes to the lowest-numbered free board that has
    what it needs, unless one of its players is `busy` (playing a called match) or already called in this plan.
    A match no free board fits waits on without blocking the matches behind it. At most `limit` calls."""
    boards = sorted(free, key=lambda b: b.number)
    taken: set[int] = set(busy)
    calls: list[Call] = []
    for match in queue(waiting):
        if limit is not None and len(calls) >= limit:
            break
        if not boards:
            break
        if match.players & taken:
            continue
        board = next((b for b in boards if match.needs <= b.tags), None)
        if board is None:
            continue
        boards.remove(board)
        taken |= match.players
        calls.append(Call(match.match, board.number))
    return calls


def minutes_since(called_at: float, now: float) -> float:
    """Minutes between two POSIX timestamps, never negative (a clock set back does not make anyone early)."""
    return max(0.0, (now - called_at) / 60)


def penalty_due(*, minutes_waited: float, grace_minutes: int, penalty_for: Callable[[float], int]) -> int:
    """The penalty points the lateness rule gives after `minutes_waited` since the call, or 0 while the grace
    period lasts. `penalty_for(minutes)` is the rule itself (games.matchplay.state.lateness_penalty)."""
    if minutes_waited < grace_minutes:
        return 0
    return int(penalty_for(minutes_waited))
