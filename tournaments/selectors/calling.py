"""Boards and match calling: the queue, the boards with their calls, the lateness due."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils import timezone

from games.matchplay.state import lateness_penalty
from tournaments.core import calling as calling_rules
from tournaments.models import Board, Call, Event
from tournaments.selectors import tables
from tournaments.selectors.tables import Table

# --- boards and match calling -----------------------------------------------------------------------------


def waiting_matches(*, event) -> list[Table]:
    """The calling queue: tables (bracket matches and round tables) whose two sides are known and that are not
    called yet, longest-waiting first (the match is made when its second player is known)."""
    return tables.waiting_tables(event=event)


def busy_players(*, event) -> set[int]:
    """Players of the event's called tables not decided yet (whether or not their board was freed)."""
    busy: set[int] = set()
    rows = Call.objects.filter(board__event=event).filter(tables.UNDECIDED_CALL)
    for players in rows.values_list(
        "slot__entry_a__player_id",
        "slot__entry_b__player_id",
        "pairing__entry_a__player_id",
        "pairing__entry_b__player_id",
        "team_board__match__player_a_id",
        "team_board__match__player_b_id",
    ):
        busy.update(p for p in players if p is not None)
    return busy


@dataclass(frozen=True)
class BoardLine:
    board: Board
    call: Call | None
    table: Table | None  # the called table
    penalty_due: int  # lateness penalty points the rule gives now (0 within the grace period or when applied)


@dataclass(frozen=True)
class Calling:
    """The director's calling page: every board with the match on it, and the queue."""

    event: Event
    boards: list[BoardLine]
    queue: list[Table]
    busy: set[int]

    @property
    def free_boards(self) -> list[Board]:
        return [line.board for line in self.boards if line.call is None]


def lateness_due(call: Call, *, now=None) -> int:
    """The penalty points the lateness rule gives now for a player who has not come to the board since the
    call, 0 within the event's grace period (the director sees it, and applies it with `apply_lateness`)."""
    now = now or timezone.now()
    minutes = calling_rules.minutes_since(call.called_at.timestamp(), now.timestamp())
    return calling_rules.penalty_due(
        minutes_waited=minutes, grace_minutes=call.board.event.call_grace_minutes, penalty_for=lateness_penalty
    )


def calling(*, event, now=None) -> Calling:
    """Boards with their open calls (and the lateness penalty due on each), and the waiting tables: six
    queries."""
    calls = {
        c.board_id: c
        for c in Call.objects.filter(board__event=event, freed_at__isnull=True).select_related(
            "board__event", *tables.CALL_RELATED
        )
    }
    lines = []
    for board in Board.objects.filter(event=event).order_by("number"):
        call = calls.get(board.pk)
        table = None if call is None else tables.call_table(call)
        due = 0
        if (
            call is not None
            and table is not None
            and call.lateness_applied_at is None
            and table.state != tables.DECIDED
        ):
            due = lateness_due(call, now=now)
        lines.append(BoardLine(board, call, table, due))
    return Calling(event, lines, waiting_matches(event=event), busy_players(event=event))


def open_calls(*, event) -> list[Table]:
    """The tables on boards now, by board: what the call slips print."""
    calls = (
        Call.objects.filter(board__event=event, freed_at__isnull=True)
        .select_related("board", *tables.CALL_RELATED)
        .order_by("board__number")
    )
    return tables.call_tables(calls)


def call_in(*, event, pk) -> Call | None:
    """A call of this event (None for another event's or an unknown id)."""
    return (
        Call.objects.select_related("board__event__club", *tables.CALL_RELATED)
        .filter(board__event=event, pk=pk)
        .first()
    )


def board_in(*, event, number) -> Board | None:
    """The event's board with this number (None if there is none)."""
    return Board.objects.select_related("event__club").filter(event=event, number=number).first()
