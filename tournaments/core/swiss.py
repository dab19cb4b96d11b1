"""Pairing a round of a Swiss or a triple elimination (modified Swiss) flight, colour-free.

The players come best first (the standings). Within each score group (equal wins in a Swiss, equal losses in a
triple elimination) the order is shuffled by a generator seeded from the flight's stored seed and the round,
so the same state and seed pair the same round again. Then:

1. With an odd field, the bye goes to the lowest-ranked player who has not had one (when everyone has, to the
   lowest-ranked player: a second bye is then unavoidable).
2. Top-down, each player takes the first player below who is not a previous opponent. An odd score group's
   last player so floats down to the next group.
3. When that greedy pass leaves players who could only meet again, the lowest pairs are released one by one
   and the released players matched again (a maximum matching of the "have not met" graph among them,
   Edmonds' blossom algorithm), until everyone is seated: the top groups keep their pairs. Released down to
   the top it is a maximum matching of the whole field, which pairs everyone exactly when some rematch-free
   pairing exists, so a rematch is made only when no legal pairing avoids it; the players still unmatched
   then meet again, closest first.

The bye is a vertex of that graph too, joined to the players who may take it, so a bye that would force a
rematch moves to another eligible player.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from itertools import groupby

from tournaments.core.errors import BracketError

Pair = tuple[Hashable, Hashable | None]  # (a, b); b None is a bye
TRIPLE_OUT = 3  # losses that put a player out of a triple elimination


@dataclass(frozen=True)
class SwissPlayer:
    key: Hashable
    group: int = 0  # the score group: wins in a Swiss, -losses in a triple elimination (higher pairs first)
    had_bye: bool = False
    opponents: frozenset[Hashable] = field(default_factory=frozenset)


def order_for_round(players: Sequence[SwissPlayer], *, rng_seed: int, round_number: int) -> list[SwissPlayer]:
    """Score groups best first, shuffled within a group (stable in the standings order before the shuffle)."""
    rng = random.Random(f"{rng_seed}:{round_number}")
    groups: dict[int, list[SwissPlayer]] = {}
    for player in players:
        groups.setdefault(player.group, []).append(player)
    ordered: list[SwissPlayer] = []
    for score in sorted(groups, reverse=True):
        members = groups[score]
        rng.shuffle(members)
        ordered.extend(members)
    return ordered


def pair_round(players: Sequence[SwissPlayer], *, rng_seed: int, round_number: int) -> list[Pair]:
    """The round's pairs, table order (best first), the bye last."""
    keys = [p.key for p in players]
    if len(set(keys)) != len(keys):
        raise BracketError("duplicate_entrant", "An entrant appears twice.", "entries")
    if len(players) < 2:
        raise BracketError("too_few_entrants", "A round needs at least two players.", "entries")
    ordered = order_for_round(players, rng_seed=rng_seed, round_number=round_number)
    n = len(ordered)
    bye = n if n % 2 else None  # the bye is vertex n
    size = n + (1 if bye is not None else 0)
    met = [p.opponents for p in ordered]

    def allowed(i: int, j: int) -> bool:
        if i == bye or j == bye:
            k = j if i == bye else i
            return not ordered[k].had_bye or all(p.had_bye for p in ordered)
        return ordered[j].key not in met[i]

    mate = [-1] * size
    if bye is not None:
        for k in range(n - 1, -1, -1):
            if allowed(k, bye):
                mate[k], mate[bye] = bye, k
                break
    for i in range(n):
        if mate[i] != -1:
            continue
        for j in range(i + 1, n):
            if mate[j] == -1 and allowed(i, j):
                mate[i], mate[j] = j, i
                break
    if -1 in mate:  # rare: the "have not met" graph is built only when the greedy pass fails
        mate = _repair_from_bottom(size, allowed, mate)
    # Whoever is still unmatched can only meet an earlier opponent (or take a second bye): closest first.
    left = [i for i in range(size) if mate[i] == -1]
    for a, b in zip(left[::2], left[1::2], strict=True):
        mate[a], mate[b] = b, a
    pairs: list[Pair] = []
    bye_pair: list[Pair] = []
    for i in range(n):
        j = mate[i]
        if j == bye:
            bye_pair.append((ordered[i].key, None))
        elif i < j:
            pairs.append((ordered[i].key, ordered[j].key))
    return pairs + bye_pair


def _repair_from_bottom(size: int, allowed: Callable[[int, int], bool], mate: list[int]) -> list[int]:
    """Keep the greedy pairs from the top down as far as the players below them can still all be seated
    without a rematch: release the lowest pairs one by one and match the released players (a maximum matching
    of the "have not met" graph among them). Released down to the top, it is the maximum matching of the whole
    field, so a rematch-free pairing is found whenever one exists, and the top score groups stay as paired."""
    kept = sorted({min(i, mate[i]) for i in range(size) if mate[i] != -1})
    for cut in range(len(kept), -1, -1):
        fixed = {v for top in kept[:cut] for v in (top, mate[top])}
        free = [v for v in range(size) if v not in fixed]
        index = {v: k for k, v in enumerate(free)}
        adjacency = [[index[w] for w in free if w != v and allowed(v, w)] for v in free]
        sub = [index.get(mate[v], -1) for v in free]
        maximum_matching(adjacency, sub)
        if -1 not in sub or cut == 0:
            repaired = mate[:]
            for k, v in enumerate(free):
                repaired[v] = free[sub[k]] if sub[k] != -1 else -1
            return repaired
    return mate


def maximum_matching(adjacency: list[list[int]], mate: list[int]) -> None:
    """Edmonds' blossom algorithm: grows `mate` (partner index or -1, changed in place) to a maximum matching
    of the graph by augmenting paths from each unmatched vertex. O(V^3)."""
    n = len(adjacency)
    for root in range(n):
        if mate[root] != -1:
            continue
        end, parent = _augmenting_path(adjacency, mate, root)
        while end != -1:
            previous = parent[end]
            following = mate[previous]
            mate[end], mate[previous] = previous, end
            end = following


def _augmenting_path(adjacency: list[list[int]], mate: list[int], root: int) -> tuple[int, list[int]]:
    n = len(adjacency)
    used = [False] * n
    parent = [-1] * n
    base = list(range(n))
    used[root] = True
    queue = deque([root])

    def lca(a: int, b: int) -> int:
        seen = [False] * n
        while True:
            a = base[a]
            seen[a] = True
            if mate[a] == -1:
                break
            a = parent[mate[a]]
        while True:
            b = base[b]
            if seen[b]:
                return b
            b = parent[mate[b]]

    def mark(v: int, top: int, child: int, blossom: list[bool]) -> None:
        while base[v] != top:
            blossom[base[v]] = blossom[base[mate[v]]] = True
            parent[v] = child
            child = mate[v]
            v = parent[mate[v]]

    while queue:
        v = queue.popleft()
        for to in adjacency[v]:
            if base[v] == base[to] or mate[v] == to:
                continue
            if to == root or (mate[to] != -1 and parent[mate[to]] != -1):
                top = lca(v, to)
                blossom = [False] * n
                mark(v, top, to, blossom)
                mark(to, top, v, blossom)
                for i in range(n):
                    if blossom[base[i]]:
                        base[i] = top
                        if not used[i]:
                            used[i] = True
                            queue.append(i)
            elif parent[to] == -1:
                parent[to] = v
                if mate[to] == -1:
                    return to, parent
                used[mate[to]] = True
                queue.append(mate[to])
    return -1, parent


def swiss_players(
    keys: Sequence[Hashable], *, wins: dict, byes: set, opponents: dict[Hashable, set]
) -> list[SwissPlayer]:
    """SwissPlayers of a Swiss round from the standings' tallies (keys best first)."""
    return [
        SwissPlayer(k, group=wins.get(k, 0), had_bye=k in byes, opponents=frozenset(opponents.get(k, ()))) for k in keys
    ]


def triple_players(
    keys: Sequence[Hashable], *, losses: dict, byes: set, opponents: dict[Hashable, set]
) -> list[SwissPlayer]:
    """The players still in a triple elimination (fewer than three losses), grouped by equal losses."""
    return [
        SwissPlayer(k, group=-losses.get(k, 0), had_bye=k in byes, opponents=frozenset(opponents.get(k, ())))
        for k in keys
        if losses.get(k, 0) < TRIPLE_OUT
    ]


def triple_places(keys: Sequence[Hashable], *, losses: dict, out_round: dict) -> dict[Hashable, int]:
    """Final places of a finished triple elimination: the one player left first, then the others by the round
    they went out in, latest first (going out in the same round shares a place)."""
    places = {k: 1 for k in keys if losses.get(k, 0) < TRIPLE_OUT}
    better = len(places)
    out = sorted((k for k in keys if k not in places), key=lambda k: -out_round.get(k, 0))
    for _, group in groupby(out, key=lambda k: out_round.get(k, 0)):
        members = list(group)
        for key in members:
            places[key] = better + 1
        better += len(members)
    return places


def swiss_is_over(*, rounds: int | None, until_one_unbeaten: bool, played_rounds: int, unbeaten: int) -> bool:
    """A fixed number of rounds ends after the last; "until one unbeaten" ends when at most one player has not
    lost (whichever comes first when both are set)."""
    if rounds is not None and played_rounds >= rounds:
        return True
    return until_one_unbeaten and played_rounds > 0 and unbeaten <= 1


def check_settings(*, rounds: int | None, until_one_unbeaten: bool, entrants: int) -> None:
    """Impossible Swiss settings, refused with what would work."""
    if rounds is None and not until_one_unbeaten:
        raise BracketError("swiss_needs_an_end", "A Swiss needs a number of rounds or “until one unbeaten”.", "rounds")
    most = entrants if entrants % 2 else entrants - 1  # a round robin's rounds: beyond that, only rematches
    if rounds is not None and entrants >= 2 and rounds > most:
        raise BracketError(
            "too_many_rounds",
            f"{entrants} players can play at most {most} rounds without a rematch.",
            "rounds",
            entrants=entrants,
            most=most,
        )
