"""Round-1 draws: bracket size, standard seed placement, byes among on-time entrants, club separation,
late entries into a bye."""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from dataclasses import dataclass

from ratings.core.fibs import START_RATING
from tournaments.core.errors import BracketError


@dataclass(frozen=True)
class DrawEntrant:
    key: Hashable
    rating: float = START_RATING
    club: Hashable | None = None
    on_time: bool = True


def bracket_size(n: int) -> int:
    """The next power of two at or above n (at least 2)."""
    size = 2
    while size < n:
        size *= 2
    return size


def seed_order(size: int) -> list[int]:
    """Seed numbers (1-based) along the round-1 line in standard placement: 1 and 2 meet only in the final,
    seeds 1-4 only in the semi-finals, and in every round-1 pair the seeds add up to size + 1."""
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [s for seed in order for s in (seed, total - seed)]
    return order


def draw(
    entrants: Sequence[DrawEntrant],
    *,
    rng_seed: int,
    seeded: bool = False,
    separate_clubs: bool = False,
    seed_top_n: int | None = None,
) -> list[Hashable | None]:
    """The round-1 line: position i holds an entrant key or None (a bye). Positions 2k and 2k+1 meet in
    round 1. Byes (size - n of them) go to on-time entrants only, each to a different round-1 pair, so no
    pair is two byes and nobody can reach round 2 without an opponent waiting. `rng_seed` makes it
    reproducible: the same entrants and seed give the same draw. `seed_top_n` (with `seeded`): only the best
    N on-time entrants take seed numbers 1..N; everyone else gets the remaining numbers at random."""
    n = len(entrants)
    if n < 2:
        raise BracketError("too_few_entrants", "A draw needs at least two entrants.", "entries")
    keys = [e.key for e in entrants]
    if len(set(keys)) != n:
        raise BracketError("duplicate_entrant", "An entrant appears twice.", "entries")
    size = bracket_size(n)
    byes = size - n
    on_time = [e for e in entrants if e.on_time]
    late = [e for e in entrants if not e.on_time]
    if byes > len(on_time):
        raise BracketError(
            "byes_need_on_time",
            f"{byes} byes but only {len(on_time)} entrants registered in time: byes go to on-time entrants.",
            "entries",
            byes=byes,
            on_time=len(on_time),
        )
    rng = random.Random(rng_seed)
    if seeded and seed_top_n is not None:
        best = sorted(on_time, key=lambda e: -e.rating)
        top, rest = best[:seed_top_n], best[seed_top_n:]
        rng.shuffle(rest)
        rng.shuffle(late)
        ranked = top + rest + late
    elif seeded:
        ranked = sorted(on_time, key=lambda e: -e.rating) + sorted(late, key=lambda e: -e.rating)
        # Byes go to the best on-time players: seeds 1..byes meet the seeds n+1..size that do not exist.
    else:
        rng.shuffle(on_time)
        rng.shuffle(late)
        ranked = on_time + late
    by_seed = {i + 1: e for i, e in enumerate(ranked)}
    # A random draw is a seeded one with random seed numbers: byes stay spread over the bracket as in
    # standard placement (two bye holders meet as late as possible).
    line = [by_seed.get(seed) for seed in seed_order(size)]
    if separate_clubs:
        _separate(line)
    return [None if e is None else e.key for e in line]


def _separate(line: list) -> None:
    """Swap players between round-1 pairs until no pair has two players of one club, where that is possible
    (greedy: a swap is taken only if it creates no new same-club pair)."""

    def club(i):
        e = line[i]
        return None if e is None else e.club

    def clash(i):
        j = i ^ 1
        return club(i) is not None and club(i) == club(j)

    for i in range(len(line)):
        if not clash(i):
            continue
        for k in range(len(line)):
            if k // 2 == i // 2 or line[k] is None or club(k) == club(i):
                continue
            # Moving line[i] to k and line[k] to i: check both pairs afterwards.
            if club(k) == club(i ^ 1) or club(i) == club(k ^ 1):
                continue
            line[i], line[k] = line[k], line[i]
            break


def late_entry_position(line: Sequence[Hashable | None]) -> int:
    """Where a late entrant goes: into a bye, so the player who had it now has an opponent and the late
    entrant gets no bye either. Raises when no bye is left."""
    for position, key in enumerate(line):
        if key is None and line[position ^ 1] is not None:
            return position
    raise BracketError(
        "no_bye_left", "No bye is left in the draw: a late entry needs a free place next to a bye.", "player"
    )


def swap(line: Sequence[Hashable | None], a: int, b: int, *, late: frozenset = frozenset()) -> list[Hashable | None]:
    """A director's edit of a draft draw: positions a and b change places. Refused when it would pair two
    byes (a player would reach round 2 without an opponent) or give a bye to a late entrant (`late`)."""
    size = len(line)
    if not (0 <= a < size and 0 <= b < size) or a == b:
        raise BracketError(
            "swap_positions",
            f"Give two different positions of the draw line, 0 to {size - 1}.",
            "positions",
            last=size - 1,
        )
    out = list(line)
    out[a], out[b] = out[b], out[a]
    for position in (a, b):
        pair = (out[position & ~1], out[position | 1])
        if pair == (None, None):
            raise BracketError(
                "swap_two_byes", "This swap would pair two byes: swap a player with a player instead.", "positions"
            )
        if None in pair and any(p in late for p in pair if p is not None):
            raise BracketError(
                "swap_bye_to_late",
                "This swap would give a bye to a late entrant: byes go to on-time entrants.",
                "positions",
            )
    return out
