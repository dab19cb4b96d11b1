"""The starting order: everyone rolls; highest is the box, next the captain, the rest the crew in order.
Only tied players roll again, and every roll is kept (a player's rolls are a list: first roll, re-rolls)."""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence

from chouette.core.errors import ChouetteError


def ties_to_reroll(rolls: Mapping[Hashable, Sequence[int]]) -> list[list[Hashable]]:
    """Groups of players still tied after the rolls so far (they must roll again); empty when the order stands."""
    _check(rolls)
    pending: list[list[Hashable]] = []
    _resolve(list(rolls), rolls, 0, [], pending)
    return pending


def due_to_roll(rolls: Mapping[Hashable, Sequence[int]]) -> list[Hashable]:
    """Who rolls next: everyone who has not rolled yet, else the players still tied (empty once the order stands)."""
    if any(not r for r in rolls.values()):
        return [player for player, r in rolls.items() if not r]
    return [player for group in ties_to_reroll(rolls) for player in group]


def order_by_rolls(rolls: Mapping[Hashable, Sequence[int]]) -> list[Hashable]:
    """The order the rolls give, refusing rolls that leave a tie or that nobody needed."""
    _check(rolls)
    order: list[Hashable] = []
    pending: list[list[Hashable]] = []
    used = _resolve(list(rolls), rolls, 0, order, pending)
    if pending:
        names = ", ".join(str(p) for p in pending[0])
        raise ChouetteError("tie", f"{names} are tied: only they roll again.", field="rolls", players=names)
    for player, player_rolls in rolls.items():
        if len(player_rolls) > used[player]:
            raise ChouetteError(
                "extra_roll", f"{player} was not tied and rolls only once.", field="rolls", player=str(player)
            )
    return order


def _check(rolls: Mapping[Hashable, Sequence[int]]) -> None:
    if len(rolls) < 3:
        raise ChouetteError("too_few_players", "A chouette needs at least 3 players.", field="players")
    for player, player_rolls in rolls.items():
        if not player_rolls:
            raise ChouetteError("no_roll", f"{player} has not rolled yet.", field="rolls", player=str(player))
        for value in player_rolls:
            if not isinstance(value, int) or not 1 <= value <= 12:
                raise ChouetteError("bad_roll", "A roll is a number from 1 to 12 (one die or both).", field="rolls")


def _resolve(group, rolls, depth, order, pending, used=None) -> dict:
    used = {} if used is None else used
    by_value: dict[int, list] = {}
    for player in group:
        used[player] = max(used.get(player, 0), depth + 1)
        if depth >= len(rolls[player]):
            pending.append(group)
            return used
        by_value.setdefault(rolls[player][depth], []).append(player)
    for value in sorted(by_value, reverse=True):
        tied = by_value[value]
        if len(tied) == 1:
            order.append(tied[0])
        else:
            if any(depth + 1 >= len(rolls[p]) for p in tied):
                pending.append(tied)
                for p in tied:
                    used[p] = max(used.get(p, 0), depth + 1)
                order.extend(tied)  # provisional, in entry order, until they roll again
                continue
            _resolve(tied, rolls, depth + 1, order, pending, used)
    return used
