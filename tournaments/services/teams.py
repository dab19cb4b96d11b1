"""Team matches: a board's confirmed result decides the team match as soon as the boards allow
(tournaments.core.teams.team_result); in a knockout the bracket then moves on as for any slot
(BracketStore.decide), in a flight played in rounds the table is scored (rounds.team_table_confirmed)."""

from __future__ import annotations

from base.locks import lock
from games.models.matches import MatchOutcome
from tournaments.core import consequences
from tournaments.models import Slot, TeamBoard
from tournaments.services import rounds
from tournaments.services.common import DECIDED, team_result
from tournaments.services.progression import BracketStore, correct


def board_confirmed(match, report) -> bool:
    """games hook (through tournaments.receivers): a confirmed, corrected or annulled result of a team match's
    board. False when the match is no board. An annulled board is played again (a new match for the same two
    players). Once the boards decide the team match, its slot is decided; a later correction that changes the
    team winner re-routes the bracket as any corrected result does. Constant queries per board result."""
    found = TeamBoard.objects.filter(match=match).values_list("slot_id", "pairing_id").first()
    if found is None:
        return False
    if found[1] is not None:
        rounds.team_table_confirmed(found[1], match, report)
        return True
    # Race: two boards of one team match confirmed at once must decide it once: the slot's row lock (the
    # bracket's lock order) serialises them before the boards are read.
    slot = (
        lock(Slot.objects, of=("self",))
        .select_related("flight__event__club", "entry_a", "entry_b", "winner", "loser")
        .get(pk=found[0])
    )
    flight = slot.flight
    store = BracketStore(flight.event, actor=report.confirmed_by or report.submitted_by)
    if report.outcome == MatchOutcome.ANNULLED:
        board = TeamBoard.objects.get(match=match)
        board.match = store._create_match(flight, slot, players=(match.player_a_id, match.player_b_id))
        board.save(update_fields=["match"])
    boards = list(TeamBoard.objects.filter(slot=slot).select_related("match").order_by("board"))
    result = team_result(boards)
    winner = None if result.winner is None else (slot.entry_a, slot.entry_b)[result.winner]
    if slot.result in DECIDED:
        if winner is not None and slot.winner_id == winner.pk:
            store.notify(flight)  # a board's score changed, the team match did not
            return True
        correct(store, slot, report)
        for entry in (slot.entry_a, slot.entry_b):
            entry.refresh_from_db()
    if winner is not None:
        loser = slot.entry_b if winner.pk == slot.entry_a_id else slot.entry_a
        store.decide(slot, consequences.PLAYED, winner, (loser,))
    store.notify(flight)
    return True
