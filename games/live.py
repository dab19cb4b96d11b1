"""Live pages of the games app: who may watch a record's verification or an upload batch's progress (whoever
may open it), and the push to both players' own pages when a match result is confirmed."""

from base.live import group_name, notify_group, register_group
from games.matchplay.hooks import on_result_confirmed
from games.records import selectors

register_group("record", lambda user, pk: selectors.visible_records(user=user).filter(pk=pk).exists())
register_group("batch", lambda user, pk: selectors.visible_batches(user=user).filter(pk=pk).exists())


def result_confirmed(match, report) -> None:
    """games hook: both players' match lists and home pages refetch (the bracket hears it from tournaments)."""
    players = (match.player_a, match.player_b)
    notify_group(*(group_name("user", p.user_id) for p in players if p is not None and p.user_id))


on_result_confirmed(result_confirmed)
