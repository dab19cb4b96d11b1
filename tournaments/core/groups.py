"""Groups → knockout: split the seeded entrants into round robin groups, then seed the groups' qualifiers into a
knockout so that players of one group meet again as late as possible.

Splitting. With N entrants and a largest group size s there are ceil(N / s) groups of balanced sizes (they
differ by at most one, none is larger than s). Seeds are dealt in a snake: seed 1 to group A, 2 to B, ...,
then back from the last group to A, so every group gets an equal share of the strong and the weak.

Settings that cannot work are refused with a message that says what would: a group of 1 (no games), a group
larger than the field, nobody or everybody advancing from a group (at least one must advance, and at least one
must stay behind, or the group decides nothing), a group left with one player (pairs from an odd field), a knockout
of fewer than 2 qualifiers.

Cross-over seeding. The qualifiers become knockout seeds rank by rank: the group winners are seeds 1..g in group
order (so byes, which go to the best seeds, go to group winners first), then the runners-up, and so on. The
knockout uses the standard seed placement (`draw.seed_order`), so rank r meets rank k + 1 - r in round 1 when
the bracket is full: winners meet runners-up. Which group's runner-up takes which runner-up seed is chosen
seed by seed, the seeds facing the best opponents first: the group whose players already placed would meet
this one latest (two of one group in different halves when k = 2, never in round 1 while another group is
left), and among those the cross-over partner of the round-1 opponent's group (A↔B, C↔D, ...; for the last
group of an odd count and when that partner is taken, the next groups in order). For two groups that is the
classic A1 v B2, B1 v A2; for four groups A1 v B2, D1 v C2 in one half and B1 v A2, C1 v D2 in the other.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

from tournaments.core.draw import bracket_size, seed_order
from tournaments.core.errors import BracketError

#: No field is larger (a round robin core's limit too); keeps a typed number from building huge lists.
MAX_ENTRANTS = 1024


def group_count(entrants: int, group_size: int) -> int:
    return -(-entrants // group_size)


def group_sizes(entrants: int, group_size: int) -> list[int]:
    """Balanced sizes, largest first: ceil(N / s) groups differing by at most one."""
    count = group_count(entrants, group_size)
    small, extra = divmod(entrants, count)
    return [small + 1] * extra + [small] * (count - extra)


def suggested_size(entrants: int) -> int:
    """A group size that works for this field: groups of 4 where there are enough entrants."""
    return min(4, entrants)


def check(entrants: int, group_size: int, advance: int) -> None:
    """Refuse settings that cannot make groups and a knockout of at least two, saying what would work."""
    if entrants < 3:
        raise BracketError(
            "groups_too_few_entrants",
            f"Groups and a knockout need at least 3 entrants; there are {entrants}.",
            "entries",
            entrants=entrants,
        )
    if entrants > MAX_ENTRANTS:
        raise BracketError(
            "groups_too_many_entrants",
            f"Groups take at most {MAX_ENTRANTS} entrants; there are {entrants}.",
            "entries",
            entrants=entrants,
            most=MAX_ENTRANTS,
        )
    if group_size < 2:
        raise BracketError(
            "group_size_too_small",
            f"A group needs at least 2 players; {entrants} entrants fit groups of 2 to {entrants}, "
            f"for example {suggested_size(entrants)}.",
            "group_size",
            entrants=entrants,
            suggestion=suggested_size(entrants),
        )
    if group_size > entrants:
        raise BracketError(
            "group_size_too_large",
            f"Groups of {group_size} need more than the {entrants} entrants: choose a size from 2 to {entrants}.",
            "group_size",
            size=group_size,
            entrants=entrants,
        )
    smallest = group_sizes(entrants, group_size)[-1]
    if smallest < 2:  # groups of 2 and an odd field
        raise BracketError(
            "group_of_one",
            f"Groups of {group_size} leave one player alone among {entrants} entrants: use groups of 3 or more.",
            "group_size",
            size=group_size,
            entrants=entrants,
        )
    if advance < 1 or advance >= smallest:
        raise BracketError(
            "advance_out_of_range",
            f"From 1 to {smallest - 1} players can advance from each group: the smallest group has {smallest}.",
            "advance",
            most=smallest - 1,
            smallest=smallest,
        )
    if group_count(entrants, group_size) * advance < 2:
        raise BracketError(
            "knockout_too_small",
            f"Only 1 player would reach the knockout: let 2 advance from the group, or use groups of at most "
            f"{entrants // 2}.",
            "advance",
            largest=entrants // 2,
        )


def split(seeded: Sequence[Hashable], *, group_size: int, advance: int) -> list[list[Hashable]]:
    """The groups (A first) with their members in seed order, dealt in a snake from `seeded` (best first)."""
    check(len(seeded), group_size, advance)
    if len(set(seeded)) != len(seeded):
        raise BracketError("duplicate_entrant", "An entrant appears twice.", "entries")
    count = group_count(len(seeded), group_size)
    groups: list[list[Hashable]] = [[] for _ in range(count)]
    for i, key in enumerate(seeded):
        row, col = divmod(i, count)
        groups[col if row % 2 == 0 else count - 1 - col].append(key)
    return groups


def label(index: int) -> str:
    """A, B, ..., Z, AA, AB, ... (spreadsheet style) for group 0, 1, ..."""
    name = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        name = chr(ord("A") + rest) + name
    return name


def _meets_in(p: int, q: int) -> int:
    """The round in which the players at line positions p and q of a knockout would meet."""
    return (p ^ q).bit_length()


def _partner_order(group: int, count: int) -> list[int]:
    """The groups a player of `group` prefers to face in round 1: its cross-over partner (A↔B, C↔D, ...), then
    the groups after it in order, its own group last."""
    partner = group ^ 1
    order = [partner] if partner < count else []
    return order + [(group + step) % count for step in range(1, count + 1) if (group + step) % count != partner]


def crossover(groups: int, advance: int) -> list[tuple[int, int]]:
    """Seed s (1-based) of the knockout as (group index, rank in the group, 1-based), for s = 1..groups*advance."""
    qualifiers = groups * advance
    size = bracket_size(qualifiers)
    order = seed_order(size)
    position = {seed: i for i, seed in enumerate(order)}
    group_of: dict[int, int] = {g + 1: g for g in range(groups)}  # seed -> group
    placed: dict[int, list[int]] = {g: [position[g + 1]] for g in range(groups)}  # group -> line positions
    for rank in range(2, advance + 1):
        seeds = range((rank - 1) * groups + 1, rank * groups + 1)
        free = set(range(groups))
        # The seeds facing the best (lowest-numbered) opponents choose first.
        for seed in sorted(seeds, key=lambda s: size + 1 - s):
            here = position[seed]
            opponent = group_of.get(size + 1 - seed)
            preference = _partner_order(opponent, groups) if opponent is not None else list(range(groups))
            # Latest meeting with a group mate first; the earlier in `preference`, the better among equals.
            _, group = max(
                ((min(_meets_in(here, p) for p in placed[g]), -i), g) for i, g in enumerate(preference) if g in free
            )
            free.remove(group)
            group_of[seed] = group
            placed[group].append(here)
        _improve(seeds, group_of, placed, position, rounds=size.bit_length() - 1)
    return [(group_of[s], (s - 1) // groups + 1) for s in range(1, qualifiers + 1)]


def _improve(
    seeds: range, group_of: dict[int, int], placed: dict[int, list[int]], position: dict[int, int], rounds: int
) -> None:
    """Swap the groups of two seeds of one rank while that makes some group's players meet later without making
    any pair meet earlier than it gains (the greedy choice, seed by seed, can leave the last seed only its own
    group's round-1 opponent). A meeting in round r costs `weight ** (rounds - r)`, weight larger than the number
    of pairs, so one earlier meeting outweighs any number of later ones."""
    weight = sum(len(p) for p in placed.values()) ** 2 + 1

    def cost(group: int, here: int, without: int) -> int:
        return sum(weight ** (rounds - _meets_in(here, p)) for p in placed[group] if p not in (here, without))

    # Only a seed that meets a group mate earlier than the best any placement allows (k of a group in k different
    # sections of the bracket) looks for a swap: with the greedy's placement that is rare, and a 341-group field
    # would otherwise try 58,000 swaps in every pass.
    target = rounds + 1 - (len(placed[group_of[seeds[0]]]) - 1).bit_length()

    def early(s: int) -> bool:
        here = position[s]
        return any(_meets_in(here, p) < target for p in placed[group_of[s]] if p != here)

    improved = True
    while improved:
        improved = False
        for s in filter(early, seeds):
            for t in seeds:
                a, b = group_of[s], group_of[t]
                if a == b:
                    continue
                ps, pt = position[s], position[t]
                before = cost(a, ps, ps) + cost(b, pt, pt)
                after = cost(b, ps, pt) + cost(a, pt, ps)
                if after < before:
                    group_of[s], group_of[t] = b, a
                    placed[a][placed[a].index(ps)] = pt
                    placed[b][placed[b].index(pt)] = ps
                    improved = True


def knockout_line(qualifiers: Sequence[Sequence[Hashable]]) -> list[Hashable | None]:
    """The knockout's round-1 line from each group's qualifiers in finishing order (group A first): position i
    holds a key or None (a bye), positions 2k and 2k+1 meet in round 1, as `draw.draw` returns it."""
    advance = len(qualifiers[0]) if qualifiers else 0
    if not qualifiers or any(len(q) != advance for q in qualifiers) or len(qualifiers) * advance < 2:
        raise BracketError(
            "qualifiers_uneven", "Every group sends the same number of qualifiers, 2 or more in all.", "advance"
        )
    seeds = crossover(len(qualifiers), advance)
    by_seed = {s + 1: qualifiers[g][rank - 1] for s, (g, rank) in enumerate(seeds)}
    return [by_seed.get(seed) for seed in seed_order(bracket_size(len(seeds)))]
