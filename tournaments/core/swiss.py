"""Pairing a round of a Swiss or a triple elimination (modified Swiss) flight, colour-free.

The players come in the published standings order, best first, each with its shared standings rank. The
pairing order is: score group (wins in a Swiss, fewest losses in a triple elimination) best first, then the
standings rank; players who share a rank and a group are put in order by lot, drawn by a generator seeded from
the flight's stored seed and the round number. The seed decides nothing else, so the same state and seed pair
the same round again, and round 1 (everyone equal) is a seeded random draw. Then, in this order of importance:

1. No rematch while any pairing avoids one (else as few rematches as possible).
2. With an odd field, the bye goes to the lowest player in the pairing order who has not had one, unless the
   others cannot then be paired without a rematch: only then does it move up to the next such player. When
   everyone has had a bye the lowest player takes a second one.
3. As few floats as possible: a float is a table whose two players are in different score groups. (So when
   one float across two groups saves one, a 2-win player meets a 0-win player rather than a 1-win player
   meeting each.)
4. Among those, the smallest total score-group difference over the floats.
5. Last, the tables closest in the pairing order (the smallest sum of squared distances), which keeps the
   top-down style inside a group: 1 meets 2 and 3 meets 4, or 1-3 and 2-4 when 1 and 2 have met.

All five at once are one maximum-weight matching (networkx's `max_weight_matching`, Edmonds' blossom
algorithm, with maxcardinality) over the players and a "bye" vertex joined to the players who may take it.
Each table's weight folds the five criteria into one integer, each criterion's unit larger than the most the
criteria below it can add up to over a round, so the heaviest pairing is the best by criterion 1, then 2, and
so on. Two ways keep a large field fast, neither changing the result when it applies:

- By blocks (`_by_blocks`): with the bye on the lowest eligible player, the field is cut at every score-group
  boundary with an even number of players above it, and each block is matched alone. When no block needs a
  rematch or more than the one float its odd boundaries force, that is provably the best pairing of the field.
- Above `EXACT_UP_TO` players a matching is searched over a sparser graph (`_near`): each player with the
  `WINDOW` nearest not-yet-met players above and below, and each group's lowest players with every lower
  group's highest. An optimal pairing rarely reaches further (the property tests compare it with the full
  search); if that graph cannot seat everyone without a rematch, the full graph is searched.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from itertools import groupby

import networkx as nx

from tournaments.core.errors import BracketError

Pair = tuple[Hashable, Hashable | None]  # (a, b); b None is a bye
TRIPLE_OUT = 3  # losses that put a player out of a triple elimination
EXACT_UP_TO = 64  # fields up to this size are matched over every possible table (64 players: under 0.01 s)
WINDOW = 12  # a larger field: the tables a player may get, nearest not-yet-met players above and below


@dataclass(frozen=True)
class SwissPlayer:
    key: Hashable
    group: int = 0  # the score group: wins in a Swiss, -losses in a triple elimination (higher pairs first)
    had_bye: bool = False
    opponents: frozenset[Hashable] = field(default_factory=frozenset)
    rank: int = 0  # the shared standings rank (1 best); players equal on it (0: not ranked) are ordered by lot


def order_for_round(players: Sequence[SwissPlayer], *, rng_seed: int, round_number: int) -> list[SwissPlayer]:
    """The pairing order: score group best first, then standings rank, then a seeded lot among players who
    share both (the only thing the seed decides)."""
    rng = random.Random(f"{rng_seed}:{round_number}")
    lots = list(range(len(players)))
    rng.shuffle(lots)
    lot = {player.key: lots[i] for i, player in enumerate(players)}
    return sorted(players, key=lambda p: (-p.group, p.rank, lot[p.key]))


def pair_round(players: Sequence[SwissPlayer], *, rng_seed: int, round_number: int) -> list[Pair]:
    """The round's pairs, table order (best first), the bye last."""
    keys = [p.key for p in players]
    if len(set(keys)) != len(keys):
        raise BracketError("duplicate_entrant", "An entrant appears twice.", "entries")
    if len(players) < 2:
        raise BracketError("too_few_entrants", "A round needs at least two players.", "entries")
    ordered = order_for_round(players, rng_seed=rng_seed, round_number=round_number)
    return pair_ordered(ordered, window=None if len(ordered) <= EXACT_UP_TO else WINDOW)


def pair_ordered(ordered: Sequence[SwissPlayer], *, window: int | None) -> list[Pair]:
    """Pair players already in the pairing order: the best pairing (see the module docstring), searched over
    every table (`window` None) or over each player's `window` nearest not-yet-met players above and below."""
    n = len(ordered)
    mate = _by_blocks(ordered, window)
    bye = n if n % 2 else None  # the bye is vertex n
    if mate is None and window is not None:
        mate = _match(ordered, bye, _near(ordered, window, rematches=False), rematches=False)
    if mate is None:
        mate = _match(ordered, bye, _all(ordered, rematches=False), rematches=False)
    if mate is None:  # no rematch-free pairing exists: the fewest rematches
        tables = _all(ordered, rematches=True) if window is None else _near(ordered, window, rematches=True)
        mate = _match(ordered, bye, tables, rematches=True)
    assert mate is not None  # every table allowed: any pairing is possible
    pairs: list[Pair] = []
    bye_pair: list[Pair] = []
    for i in range(n):
        j = mate[i]
        if j == n:
            bye_pair.append((ordered[i].key, None))
        elif i < j:
            pairs.append((ordered[i].key, ordered[j].key))
    return pairs + bye_pair


def _by_blocks(ordered: Sequence[SwissPlayer], window: int | None) -> list[int] | None:
    """The same best pairing, found block by block when the field allows it (a large field's round in a
    fraction of the time), or None.

    Give the bye to the lowest eligible player and cut the others in blocks at each score-group boundary with
    an even number of players above it. Inside a block every boundary has an odd number above, so some table
    crosses each of them: a block of several groups needs at least one float, and one float, crossing them
    all, is also the least group difference. So when every block pairs without a rematch with at most that
    one float, no pairing of the whole field can do better on rematches, bye, floats or group difference, and
    every pairing that good stays inside the blocks: the blocks' best pairings are the field's best. When a
    block cannot (a rematch or an extra float), the caller matches the whole field at once."""
    n = len(ordered)
    bye = None
    if n % 2:
        bye = max((k for k in range(n) if not ordered[k].had_bye), default=n - 1)
    rest = [k for k in range(n) if k != bye]
    blocks: list[list[int]] = []
    for k in rest:
        if blocks and (len(blocks[-1]) % 2 or ordered[k].group == ordered[blocks[-1][-1]].group):
            blocks[-1].append(k)
        else:
            blocks.append([k])
    mate = [-1] * (n + (1 if bye is not None else 0))
    if bye is not None:
        mate[bye], mate[n] = n, bye
    for block in blocks:
        members = [ordered[k] for k in block]
        whole = window is None or len(block) <= EXACT_UP_TO
        tables = _all(members, rematches=False) if whole else _near(members, window or 0, rematches=False)
        inside = _match(members, None, tables, rematches=False, at=block)
        if inside is None:
            return None
        floats = sum(members[a].group != members[b].group for a, b in enumerate(inside) if a < b)
        if floats > (members[0].group != members[-1].group):
            return None
        for a, b in enumerate(inside):
            mate[block[a]] = block[b]
    return mate


def _all(ordered: Sequence[SwissPlayer], *, rematches: bool) -> list[tuple[int, int]]:
    """Every table (i above j), rematches only if allowed."""
    n = len(ordered)
    return [
        (i, j) for i in range(n) for j in range(i + 1, n) if rematches or ordered[j].key not in ordered[i].opponents
    ]


def _near(ordered: Sequence[SwissPlayer], window: int, *, rematches: bool) -> list[tuple[int, int]]:
    """The tables a large field is searched over (rematches only if allowed): each player with the `window`
    nearest players above and below in the pairing order, and the `window` lowest players of each score group
    with the `window` highest of every lower group, so that one float may cross several groups when that
    saves a float. With rematches allowed a window of two or more can seat any field: whoever takes the bye,
    the players around them are joined across them."""
    n = len(ordered)
    tables: set[tuple[int, int]] = set()

    def join(i: int, candidates: Iterable[int]) -> None:
        taken = 0
        for j in candidates:
            if rematches or ordered[j].key not in ordered[i].opponents:
                tables.add((min(i, j), max(i, j)))
                taken += 1
                if taken == window:
                    return

    starts = [k for k in range(n) if k == 0 or ordered[k].group != ordered[k - 1].group] + [n]
    for i in range(n):
        join(i, range(i + 1, n))
        join(i, range(i - 1, -1, -1))
    for g, end in enumerate(starts[1:-1], start=1):  # end: the first player below group g - 1
        for i in range(max(starts[g - 1], end - window), end):
            for lower in range(g, len(starts) - 1):
                join(i, range(starts[lower], starts[lower + 1]))
    return sorted(tables)


def _match(
    ordered: Sequence[SwissPlayer],
    bye: int | None,
    tables: list[tuple[int, int]],
    *,
    rematches: bool,
    at: Sequence[int] | None = None,
) -> list[int] | None:
    """The heaviest pairing over `tables` (and the bye vertex), as each vertex's partner; None if these tables
    cannot seat everyone.

    A table's cost is (rematch, bye place, float, group difference, squared distance), folded into one
    integer: each criterion's unit exceeds the most the criteria below can add up to in a round (at most
    `tables_per_round` tables), so the smallest total cost is the best lexicographically. The weight is a
    constant minus the cost, so every weight is positive and the heaviest perfect matching is the cheapest.
    `at`: the players' places in the whole field's pairing order (a block's players), for the distances."""
    n = len(ordered)
    place = list(at) if at is not None else list(range(n))
    size = n + (1 if bye is not None else 0)
    tables_per_round = size // 2
    groups = [p.group for p in ordered]
    span = max(groups) - min(groups)
    unit_difference = tables_per_round * (place[-1] - place[0]) ** 2 + 1
    unit_float = unit_difference * (tables_per_round * span + 1)
    unit_bye = unit_float * (tables_per_round + 1)
    unit_rematch = unit_bye * (n + 1)
    top = unit_rematch * (tables_per_round + 1)
    graph = nx.Graph()
    graph.add_nodes_from(range(size))
    for i, j in tables:
        difference = groups[i] - groups[j]
        cost = (place[j] - place[i]) ** 2 + difference * unit_difference + (difference != 0) * unit_float
        if rematches and ordered[j].key in ordered[i].opponents:
            cost += unit_rematch
        graph.add_edge(i, j, weight=top - cost)
    if bye is not None:
        eligible = [k for k in range(n) if not ordered[k].had_bye] or list(range(n))
        for higher, k in enumerate(reversed(eligible)):  # the lowest eligible player costs nothing
            graph.add_edge(k, bye, weight=top - higher * unit_bye)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    if 2 * len(matching) < size:
        return None
    mate = [-1] * size
    for a, b in matching:
        mate[a], mate[b] = b, a
    return mate


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
