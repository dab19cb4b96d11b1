"""Who sits where after a game, and when players join, leave or sit out.

The order is a list: box first, captain second, then the crew in line. With a partner, the partner keeps
their place in the line (by default the player at the bottom).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

from chouette.core.errors import ChouetteError
from chouette.core.scoring import ScoredGame
from chouette.core.table_options import Rules

Player = Hashable


def box_stays(scored: ScoredGame, rules: Rules) -> bool:
    """The box stays only when it beat the decisive player. The club variant adds a second condition (the box's
    net for the game is not a loss); it never lets a box that lost to the captain keep the box, because a
    captain who beats the box takes it in every case."""
    if rules.box_keeps == "net_not_loss":
        return scored.box_beat_decisive and scored.box_side_points >= 0
    return scored.box_beat_decisive


def next_order(order: Sequence[Player], scored: ScoredGame, rules: Rules) -> list[Player]:
    """Box beats the (acting) captain: box stays, captain to the bottom, the next in line is captain.
    Otherwise the (acting) captain becomes box and the old box goes to the bottom. A captain who dropped a
    box double goes to the bottom either way (before the old box, who lost the box later in the game)."""
    box, captain = order[0], order[1]
    if scored.box != box or scored.captain != captain:
        raise ChouetteError("stale_order", "This game was scored for a different seating; reload the table.")
    rest = list(order[2:])
    if box_stays(scored, rules):
        return [box, *rest, captain]
    new_box = scored.decisive if scored.decisive is not None else captain
    if new_box == captain:
        return [captain, *rest, box]
    rest.remove(new_box)
    return [new_box, *rest, captain, box]


def team_for(order: Sequence[Player], partner: Player | None) -> list[Player]:
    """The team members in rank order for a game: everyone but the box and the box's partner."""
    return [p for p in order[1:] if p != partner]


def join(order: Sequence[Player], player: Player, rules: Rules, *, last_loser: Player | None) -> list[Player]:
    """A newcomer sits at the bottom, or (club rule) just ahead of the player who just lost (the one who went
    to the bottom after the last game)."""
    if player in order:
        raise ChouetteError("already_seated", f"{player} is already at the table.", field="player", player=str(player))
    if len(order) + 1 > rules.max_players:
        raise ChouetteError(
            "table_full", f"The table is full ({rules.max_players} players).", field="player", max=rules.max_players
        )
    order = list(order)
    if rules.newcomer == "ahead_of_loser" and last_loser in order and order.index(last_loser) >= 2:
        order.insert(order.index(last_loser), player)
    else:
        order.append(player)
    return order


def leave(order: Sequence[Player], player: Player) -> list[Player]:
    """A player leaves (or sits out): the others move up; if the box leaves, the captain becomes box."""
    if player not in order:
        raise ChouetteError("not_seated", f"{player} is not at the table.", field="player", player=str(player))
    return [p for p in order if p != player]
