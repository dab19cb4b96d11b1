"""Writes for chouette sessions. Each function checks the actor's rights, takes the session row lock before
it reads anything it decides on, calls the pure core (chouette.core) and writes the rows.

The session's events are the truth; the seating, the ledger and the cached state on the session row follow
from them: a new event is applied to the stored snapshot (`common.advance`), an undo or a correction replays
them (`common.rebuild`, from the first game that changed). `replayed_snapshot` is the check of the snapshot.

Split by domain (`sessions`, `games`, `seats`, `joining`, and `common` under them); callers use
`from chouette import services`, so the names they call are re-exported here.
"""

from chouette.services.common import MAX_STAKE_CENTS, replayed_snapshot
from chouette.services.games import correct_game, record_game, undo_last_game
from chouette.services.joining import answer_invitation, answer_join_request, invite, join_by_code
from chouette.services.seats import come_back, join, leave, sit_out
from chouette.services.sessions import create_session, finish_session, roll_for_order, set_order
from chouette.services.settling import confirm_transfer_received, mark_transfer_paid

__all__ = [
    "MAX_STAKE_CENTS",
    "answer_invitation",
    "answer_join_request",
    "come_back",
    "confirm_transfer_received",
    "mark_transfer_paid",
    "correct_game",
    "create_session",
    "finish_session",
    "invite",
    "join",
    "join_by_code",
    "leave",
    "record_game",
    "replayed_snapshot",
    "roll_for_order",
    "set_order",
    "sit_out",
    "undo_last_game",
]
