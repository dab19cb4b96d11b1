"""Writes for match play: creating matches, the live scoresheet, reports, confirmations, disputes, overrides.

Every function checks the actor's rights first and takes the match row lock (`common.lock_match`) before it reads
anything it decides on, so two phones reporting at once, or a player and a director confirming at once, are
serialised. Scoring itself lives in games.matchplay.state (pure) on top of backgammon.scoring.

Split by domain (`play`: the match and its scoresheet; `reports`: its result; `common` under both); callers use
`from games.matchplay import services`, so the names they call are re-exported here.
"""

from games.matchplay.services.common import NOT_ALLOWED_TO_REPORT
from games.matchplay.services.play import (
    accept_invitation,
    create_match,
    decline_invitation,
    record_game,
    scoresheet_state,
    start_match,
    undo_last_game,
    withdraw_invitation,
)
from games.matchplay.services.reports import (
    CONSEQUENCES,
    LATE_CORRECTION,
    annul_match,
    confirm_report,
    dispute_report,
    has_directors,
    later_match_started,
    record_consequence,
    record_lateness,
    submit_report,
)

__all__ = [
    "CONSEQUENCES",
    "LATE_CORRECTION",
    "NOT_ALLOWED_TO_REPORT",
    "accept_invitation",
    "annul_match",
    "confirm_report",
    "create_match",
    "decline_invitation",
    "dispute_report",
    "has_directors",
    "later_match_started",
    "record_consequence",
    "record_game",
    "record_lateness",
    "scoresheet_state",
    "start_match",
    "submit_report",
    "undo_last_game",
    "withdraw_invitation",
]
