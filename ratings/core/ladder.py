"""Club ladder rules (docs/ratings.md): challenge up to `reach` places above; a winning challenger takes the place
and the loser drops one; a losing challenger drops one; newcomers join at the bottom.

The ladder is a list of player ids, best first (index 0 is place 1).
"""

from __future__ import annotations

from base.errors import DomainError


class LadderError(DomainError):
    """A challenge the ladder rules refuse; always about the chosen `defender` (bad input, 400), except that the
    challenger is not on the ladder yet, which is the state of things (409: join first)."""

    conflicts = frozenset({"challenger_not_on_ladder"})


def can_challenge(ladder: list[int], challenger: int, defender: int, reach: int = 3) -> None:
    """Raise LadderError unless `challenger` may challenge `defender`."""
    if challenger not in ladder:
        raise LadderError("challenger_not_on_ladder", "the challenger is not on this ladder", "defender", reach=reach)
    if defender not in ladder:
        raise LadderError("defender_not_on_ladder", "the defender is not on this ladder", "defender", reach=reach)
    gap = ladder.index(challenger) - ladder.index(defender)
    if gap <= 0:
        raise LadderError(
            "not_above", "a challenge goes to a player placed above the challenger", "defender", reach=reach
        )
    if gap > reach:
        raise LadderError("out_of_reach", f"a challenge reaches at most {reach} places above", "defender", reach=reach)


def join(ladder: list[int], player: int) -> list[int]:
    if player in ladder:
        return list(ladder)
    return [*ladder, player]


def apply_result(ladder: list[int], challenger: int, defender: int, challenger_won: bool) -> list[int]:
    """The ladder after a challenge. The winning challenger takes the defender's place and everyone from the
    defender down to the challenger's old place moves down one; a losing challenger swaps with the player below
    (at the bottom, nothing moves)."""
    order = list(ladder)
    if challenger_won:
        order.remove(challenger)
        order.insert(ladder.index(defender), challenger)
        return order
    at = order.index(challenger)
    if at + 1 < len(order):
        order[at], order[at + 1] = order[at + 1], order[at]
    return order
