"""Round robin schedules from the Berger tables: every entrant meets every other once (single) or twice (double).

Why the Berger tables and not any round robin: they are the published schedule (FIDE Handbook C.05, Annex 1)
players and directors already know, so a printed round of ours can be checked against the book. They are the
circle method with the last number fixed: round 1 pairs 1 v N, 2 v N-1, ... (the table with N on board 1);
each next round adds N/2 to every other number (counted round 1..N-1), keeping the board order, and N changes
side every round (second in odd rounds, first in even ones). With an odd count the missing number N is the
dummy: whoever meets it has the bye in that round.

A double round robin plays the first cycle with its last two rounds exchanged (the FIDE recommendation, so
that nobody plays three rounds in a row on the same side across the change of cycle) and then the whole
table again in its published order with the sides swapped: each pair meets once as first-named and once as
second-named player. Backgammon has no colour advantage, but the first-named player is the one the match
sheet lists first (player A), so the swap keeps that even.

An entrant's number is its position in the sequence given (1-based); `draw_numbers` draws them by lot from a
stored seed, as the Berger system has it.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from typing import NamedTuple

from tournaments.core.errors import BracketError

SINGLE = 1
DOUBLE = 2
#: More entrants than this make a schedule nobody can play (a 1,024 round robin is 523,776 matches); it also keeps
#: a typed number from building a huge table.
MAX_ENTRANTS = 1024


class Game(NamedTuple):
    """One match of the schedule: `first` is named first (player A of the match sheet). A named tuple, not a
    dataclass: a 512-entrant schedule builds 130,816 of them, and a tuple is built several times faster."""

    round: int  # 1-based over both cycles
    table: int  # 1-based board in the published order, byes left out
    first: Hashable
    second: Hashable


class Round(NamedTuple):
    number: int
    games: tuple[Game, ...]
    bye: Hashable | None  # the entrant paired with the dummy (odd counts only)


def rounds_in_cycle(n: int) -> int:
    """Rounds of one cycle: n - 1 for an even count, n for an odd one (everybody sits out once)."""
    return n - 1 if n % 2 == 0 else n


def check(n: int, cycles: int) -> None:
    """Refuse a schedule that cannot be played, saying what would work."""
    if cycles not in (SINGLE, DOUBLE):
        raise BracketError("round_robin_cycles", "A round robin is played once (single) or twice (double).", "cycles")
    if n < 2:
        raise BracketError(
            "round_robin_too_small",
            f"A round robin needs at least 2 entrants; it has {n}.",
            "entries",
            entrants=n,
        )
    if n > MAX_ENTRANTS:
        raise BracketError(
            "round_robin_too_large",
            f"A round robin takes at most {MAX_ENTRANTS} entrants; it has {n}. Split them into groups.",
            "entries",
            entrants=n,
            most=MAX_ENTRANTS,
        )


def berger_table(n: int) -> list[list[tuple[int, int]]]:
    """The published Berger table for n players as rounds of (first, second) numbers, board 1 first. For an
    odd n it is the table of n + 1, whose number n + 1 is the dummy (the bye)."""
    size = n + n % 2
    half = size // 2
    cycle = size - 1
    first_round = [(1, size)] + [(i, size + 1 - i) for i in range(2, half + 1)]
    table = []
    for r in range(cycle):
        shift = r * half

        def moved(x: int, shift: int = shift) -> int:
            return (x - 1 + shift) % cycle + 1

        fixed = moved(1)
        games = [(fixed, size) if r % 2 == 0 else (size, fixed)]
        games += [(moved(a), moved(b)) for a, b in first_round[1:]]
        table.append(games)
    return table


def round_order(n: int, cycles: int = SINGLE) -> list[tuple[int, bool]]:
    """(index into the Berger table, sides swapped) for each round played, in playing order."""
    rounds = rounds_in_cycle(n + n % 2)
    first = list(range(rounds))
    if cycles == SINGLE:
        return [(r, False) for r in first]
    if rounds >= 2:
        first[-2], first[-1] = first[-1], first[-2]
    return [(r, False) for r in first] + [(r, True) for r in range(rounds)]


def schedule(entrants: Sequence[Hashable], *, cycles: int = SINGLE) -> list[Round]:
    """Every round of a single (cycles=1) or double (cycles=2) round robin of `entrants`, numbered in the order
    given. Deterministic: the same entrants in the same order give the same schedule."""
    _check_entrants(entrants, cycles)
    order = enumerate(round_order(len(entrants), cycles), start=1)
    return [_round(entrants, number, index, swapped) for number, (index, swapped) in order]


def round_of(entrants: Sequence[Hashable], number: int, *, cycles: int = SINGLE) -> Round:
    """Round `number` (1-based) of the schedule alone, in time linear in the field: an adapter that pairs one
    round at a time needs no full table."""
    _check_entrants(entrants, cycles)
    order = round_order(len(entrants), cycles)
    if not 1 <= number <= len(order):
        raise BracketError(
            "no_such_round", f"This round robin has rounds 1 to {len(order)}.", "round", rounds=len(order)
        )
    index, swapped = order[number - 1]
    return _round(entrants, number, index, swapped)


def _check_entrants(entrants: Sequence[Hashable], cycles: int) -> None:
    check(len(entrants), cycles)
    if len(set(entrants)) != len(entrants):
        raise BracketError("duplicate_entrant", "An entrant appears twice.", "entries")


def _round(entrants: Sequence[Hashable], number: int, index: int, swapped: bool) -> Round:
    """Round `number`, which plays row `index` of the Berger table (sides swapped in a double's second cycle).

    Row r is row 1 with every number but N moved on by r * N/2 (counted 1..N-1): number a of row 1 holds, in
    row r, the entrant numbered rotated[a - 1]. N (the last entrant, or the dummy of an odd count) stays put."""
    n = len(entrants)
    size = n + n % 2
    half, cycle = size // 2, size - 1
    shift = index * half % cycle
    rotated = list(entrants[shift:cycle]) + list(entrants[:shift])
    firsts = rotated[1:half]  # boards 2..N/2: row 1 pairs i v N + 1 - i
    seconds = rotated[half:cycle][::-1]
    if swapped:
        firsts, seconds = seconds, firsts
    games = []
    last = entrants[cycle] if n == size else None
    if last is not None:  # board 1: N against the moved number 1, N second in the table's odd rows
        pair = (rotated[0], last) if index % 2 == 0 else (last, rotated[0])
        games.append(Game(number, 1, *(pair[::-1] if swapped else pair)))
    boards = enumerate(zip(firsts, seconds, strict=True), start=len(games) + 1)
    games += [Game(number, table, a, b) for table, (a, b) in boards]
    return Round(number, tuple(games), None if last is not None else rotated[0])


def draw_numbers(entrants: Sequence[Hashable], *, rng_seed: int) -> list[Hashable]:
    """The entrants in Berger-number order, drawn by lot: the same seed gives the same numbers."""
    order = list(entrants)
    random.Random(rng_seed).shuffle(order)
    return order
