"""A slow, independent statement of the long nardy move rules, to check the generator against.

It shares no code with backgammon/nardy/moves.py: it plays every order of the dice one step at a time, keeps every
position reached after any number of dice, and only then applies the rules about whole plays (no forbidden
block at the end, as many dice as possible, the larger die when only one is played). The six-block rule is
written straight from its wording: six consecutive points of the opponent's route, from its point q down to
q − 5, all held by the mover, with no opposing checker on a point of the opponent's below q − 5.
"""

from __future__ import annotations

from backgammon.nardy.settings import BlockRule, NardySettings


def opponent_number(point: int) -> int:
    """The opponent's own number of the mover's point: its head (24) is the mover's 12."""
    return point + 12 if point <= 12 else point - 12


def forbidden(mine: dict[int, int], theirs: dict[int, int], opponent_off: int, settings: NardySettings) -> bool:
    """Whether the mover's checkers (`mine`, mover's points) hold a six-block the settings forbid;
    `theirs` are the opponent's checkers by the mover's points."""
    held = {opponent_number(point) for point, count in mine.items() if count}
    their_points = {opponent_number(point) for point, count in theirs.items() if count}
    for top in range(24, 5, -1):
        if all(q in held for q in range(top, top - 6, -1)):
            if settings.block_rule == BlockRule.OPPONENT_HOME:
                if not (opponent_off or any(q <= 6 for q in their_points)):
                    return True
            elif not any(q < top - 5 for q in their_points):
                return True
    return False


def oracle_results(
    mine: dict[int, int],
    theirs: dict[int, int],
    opponent_off: int,
    dice: tuple[int, int],
    budget: int,
    settings: NardySettings,
) -> tuple[int, set[frozenset[tuple[int, int]]]]:
    """(dice used, the set of end positions) where a position is a frozenset of (mover point, count), off = 0."""
    orders = [[dice[0]] * 4] if dice[0] == dice[1] else [[dice[0], dice[1]], [dice[1], dice[0]]]
    found: set[tuple[frozenset, int, int]] = set()  # (position, dice used, the die when one was used)
    seen: set[tuple[frozenset, tuple[int, ...], int]] = set()

    def walk(position: dict[int, int], remaining: list[int], head_left: int, used: list[int]) -> None:
        frozen = frozenset((point, count) for point, count in position.items() if count)
        found.add((frozen, len(used), used[0] if len(used) == 1 else 0))
        key = (frozen, tuple(remaining), head_left)
        if not remaining or key in seen:
            return
        seen.add(key)
        die = remaining[0]
        home = all(point <= 6 for point, count in position.items() if count and point > 0)
        for point in sorted(p for p, c in position.items() if c and p > 0):
            if point == 24 and head_left == 0:
                continue
            target = point - die
            if target > 0 and theirs.get(target):
                continue
            if target <= 0:
                if not home:
                    continue
                if target < 0 and any(c and p > point for p, c in position.items()):
                    continue
                target = 0
            moved = dict(position)
            moved[point] -= 1
            moved[target] = moved.get(target, 0) + 1
            walk(moved, remaining[1:], head_left - (point == 24), [*used, die])

    for order in orders:
        walk(dict(mine), order, budget, [])
    allowed = [
        entry
        for entry in found
        if not forbidden({p: c for p, c in entry[0] if p > 0}, theirs, opponent_off, settings)
    ]
    if not allowed:  # nothing can be played (the position stands as it is, block or not)
        return 0, {frozenset((point, count) for point, count in mine.items() if count)}
    most = max(used for _, used, _ in allowed)
    best = [entry for entry in allowed if entry[1] == most]
    if most == 1 and dice[0] != dice[1]:
        larger = [entry for entry in best if entry[2] == max(dice)]
        best = larger or best
    return most, {position for position, _, _ in best}
