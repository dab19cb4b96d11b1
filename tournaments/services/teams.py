"""Team matches in a knockout: a board's confirmed result decides the team match as soon as the boards allow
(tournaments.core.teams.team_result), and the bracket then moves on as for any slot (BracketStore.decide)."""

from __future__ import annotations

from base.locks import lock
from games.models.matches import MatchOutcome
from tournaments.core import rules, teams
from tournaments.models import Slot, TeamBoard
from tournaments.services.common import DECIDED
from tournaments.services.progression import BracketStore, correct


def _board(board: TeamBoard) -> teams.Board:
    """A board's match as the core sees it: who won (team A's player is the match's player A) and the points."""
    match = board.match
    if match.winner_id is None or match.outcome == MatchOutcome.ANNULLED:
        return teams.Board(None)
    a_won = match.winner_id == match.player_a_id
    return teams.Board(0 if a_won else 1, match.score_a or 0, match.score_b or 0)


def board_confirmed(match, report) -> bool:
    """games hook (through tournaments.receivers): a confirmed, corrected or annulled result of a team match's
    board. False when the match is no board. An annulled board is played again (a new match for the same two
    players). Once the boards decide the team match, its slot is decided; a later correction that changes the
    team winner re-routes the bracket as any corrected result does. Constant queries per board result."""
    found = TeamBoard.objects.filter(match=match).values_list("slot_id", flat=True).first()
    if found is None:
        return False
    # Race: two boards of one team match confirmed at once must decide it once: the slot's row lock (the
    # bracket's lock order) serialises them before the boards are read.
    slot = (
        lock(Slot.objects, of=("self",))
        .select_related("flight__event__club", "entry_a", "entry_b", "winner", "loser")
        .get(pk=found)
    )
    flight = slot.flight
    store = BracketStore(flight.event, actor=report.confirmed_by or report.submitted_by)
    if report.outcome == MatchOutcome.ANNULLED:
        board = TeamBoard.objects.get(match=match)
        board.match = store._create_match(flight, slot, players=(match.player_a_id, match.player_b_id))
        board.save(update_fields=["match"])
    boards = list(TeamBoard.objects.filter(slot=slot).select_related("match").order_by("board"))
    result = teams.team_result([_board(board) for board in boards])
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
        store.decide(slot, rules.PLAYED, winner, (loser,))
    store.notify(flight)
    return True
