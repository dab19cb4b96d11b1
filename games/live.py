"""Live pages of the games app: who may watch a record's verification or an upload batch's progress (whoever
may open it), and the push to both players' own pages when a match result is confirmed."""

from base.live import group_name, notify_group, register_group
from games.matchplay.hooks import match_invited, on_result_confirmed
from games.records import selectors

register_group("record", lambda user, pk: selectors.visible_records(user=user).filter(pk=pk).exists())
register_group("batch", lambda user, pk: selectors.visible_batches(user=user).filter(pk=pk).exists())


def result_confirmed(match, report) -> None:
    """games hook: both players' match lists and home pages refetch (the bracket hears it from tournaments)."""
    players = (match.player_a, match.player_b)
    notify_group(*(group_name("user", p.user_id) for p in players if p is not None and p.user_id))


on_result_confirmed(result_confirmed)


def invited(match) -> None:
    """games hook: the invited player's home page refetches to show the invitation (nobody else hears of it)."""
    side = match.invitee_side()
    player = None if side is None else match.players[side]
    if player is not None and player.user_id:
        notify_group(group_name("user", player.user_id))


match_invited.register(invited)
