"""One read model of "a tournament table": a match the players sit down to, whatever the format stores it as.

A knockout keeps its matches in bracket slots, a flight played in rounds in one pairing per table per round, and a
team format one team board per board of a slot or a pairing. Every page that lists matches to play (the home
page, the next-match page and its API, the director's dashboard, boards and calls, the call slips) reads them as
`Table`s from here, so a new format shows up on all of them at once. Each function is a constant number of
queries whatever the number of tables or events: one that asks which kinds of row there are, then one per kind
found (slots, pairings, team boards), at most four.

The round's label is made by `round_label` alone, the one place that knows how each format names its rounds.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from django.db.models import Case, Exists, ExpressionWrapper, IntegerField, OuterRef, Q, QuerySet, Value, When
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.models.matches import Match, MatchDispute, MatchReport, MatchStatus
from tournaments.format_registry import FORMATS
from tournaments.models import (
    Call,
    DrawStatus,
    Event,
    EventStatus,
    Flight,
    Pairing,
    PairingResult,
    Slot,
    SlotResult,
    TeamBoard,
    TeamKind,
)

WAITING = "waiting"  # a side is not known yet
READY = "ready"  # both sides known, the match made, not called to a board
CALLED = "called"  # called to a board, not started
IN_PROGRESS = "in_progress"
REPORTED = "reported"  # a result reported, waiting for the opponent's confirmation
DISPUTED = "disputed"
DECIDED = "decided"

STATE_LABELS = {
    WAITING: gettext_lazy("waiting for the opponent"),
    READY: gettext_lazy("ready to play"),
    CALLED: gettext_lazy("called"),
    IN_PROGRESS: gettext_lazy("in progress"),
    REPORTED: gettext_lazy("reported, waiting for the confirmation"),
    DISPUTED: gettext_lazy("disputed"),
    DECIDED: gettext_lazy("decided"),
}

_OPEN_SLOT = [SlotResult.READY, SlotResult.PENDING]
_MATCH_OVER = [MatchStatus.FINISHED, MatchStatus.FORFEITED, MatchStatus.ABANDONED]

#: A call whose table is not decided yet: its players are busy, its board taken until the result (a team
#: match's board until its own match is over or the team match is decided).
UNDECIDED_CALL = (
    Q(slot__result=SlotResult.READY)
    | Q(pairing__result=PairingResult.PENDING)
    | (
        Q(team_board__isnull=False)
        & (Q(team_board__slot__result=SlotResult.READY) | Q(team_board__pairing__result=PairingResult.PENDING))
        & ~Q(team_board__match__status__in=_MATCH_OVER)
    )
)


@dataclass(frozen=True)
class Table:
    """A table of a tournament day. `row` is the slot or pairing (the team match, for a team board, whose
    TeamBoard row is `board_row`); `number` the round's table number (None in a knockout); `team_board` the
    board of a team match (None otherwise); `board` the board the table is called to while the call is open;
    `call` the call, open or freed."""

    event: Event
    flight: Flight
    round: int
    label: str
    number: int | None
    team_board: int | None
    names: tuple[str | None, str | None]
    player_ids: tuple[int | None, int | None]
    user_ids: tuple[int | None, int | None]  # the players' accounts (None for a walk-in)
    match: Match | None
    call: Call | None
    state: str
    row: Slot | Pairing
    board_row: TeamBoard | None = None

    @property
    def call_row(self):
        """The row a call of this table names (tournaments.models.Call.of)."""
        return self.board_row if self.board_row is not None else self.row

    @property
    def key(self) -> str:
        kind = "slot" if isinstance(self.row, Slot) else "pairing"
        return f"{kind}-{self.row.pk}" + (f"-{self.team_board}" if self.team_board else "")

    @property
    def slot_id(self) -> int | None:
        return self.row.pk if isinstance(self.row, Slot) else None

    @property
    def pairing_id(self) -> int | None:
        return self.row.pk if isinstance(self.row, Pairing) else None

    @property
    def match_id(self) -> int | None:
        return None if self.match is None else self.match.pk

    @property
    def board(self):
        return self.call.board if self.call is not None and self.call.freed_at is None else None

    @property
    def name_a(self) -> str | None:
        return self.names[0]

    @property
    def name_b(self) -> str | None:
        return self.names[1]

    @property
    def state_label(self) -> str:
        if self.state == CALLED and self.board is not None:
            return _("called to board %(n)s") % {"n": self.board.number}
        return str(STATE_LABELS[self.state])

    @property
    def can_report(self) -> bool:
        return self.match is not None and self.state in (READY, CALLED, IN_PROGRESS, REPORTED)

    @property
    def callable(self) -> bool:
        """A table the director can call to a board: ready, not called yet."""
        return self.state == READY

    def side_of(self, player_id) -> int | None:
        if player_id is None:
            return None
        if self.player_ids[0] == player_id:
            return 0
        return 1 if self.player_ids[1] == player_id else None

    def opponent_of(self, player_id) -> str | None:
        side = self.side_of(player_id)
        return None if side is None else self.names[1 - side]

    def opponent_of_user(self, user_id) -> str | None:
        if user_id is None or user_id not in self.user_ids:
            return None
        return self.names[1 if self.user_ids[0] == user_id else 0]


def round_label(flight, round_number: int, table) -> str:
    """How the players call the round of `table` (a Slot or a Pairing): as the flight's format names it
    (tournaments.formats: "Semi-finals", "Round 3, table 2", "Group B, round 2, table 1")."""
    if isinstance(table, Pairing):
        return FORMATS[flight.format].round_label(flight, round_number, group=table.group, table=table.table)
    return FORMATS[flight.format].round_label(flight, round_number, section=getattr(table, "section", "w"))


def _state(*, decided: bool, known: bool, match, call, reported: bool, disputed: bool) -> str:
    if decided:
        return DECIDED
    if not known or match is None:
        return WAITING
    if disputed:
        return DISPUTED
    if reported:
        return REPORTED
    if match.status == MatchStatus.IN_PROGRESS:
        return IN_PROGRESS
    if call is not None and call.freed_at is None:
        return CALLED
    return READY


def _call_of(row) -> Call | None:
    try:
        return row.call
    except Call.DoesNotExist:
        return None


def _decided(row) -> bool:
    if isinstance(row, Slot):
        return row.result not in _OPEN_SLOT
    return row.result != PairingResult.PENDING or row.entry_b_id is None


def table_of(row, *, reported: bool = False, disputed: bool = False, with_call: bool = True) -> Table:
    """The table of a slot or pairing read with its flight (and event), entries' players, match and (unless
    `with_call` is off: a team match, whose boards are called one by one) call."""
    flight = row.flight
    entry_a, entry_b = row.entry_a, row.entry_b
    call = _call_of(row) if with_call else None
    return Table(
        event=flight.event,
        flight=flight,
        round=row.round,
        label=round_label(flight, row.round, row),
        number=row.table if isinstance(row, Pairing) else None,
        team_board=None,
        names=(entry_a.name if entry_a else None, entry_b.name if entry_b else None),
        player_ids=(entry_a.player_id if entry_a else None, entry_b.player_id if entry_b else None),
        user_ids=(entry_a.player.user_id if entry_a else None, entry_b.player.user_id if entry_b else None),
        match=row.match,
        call=call,
        state=_state(
            decided=_decided(row),
            known=entry_a is not None and entry_b is not None,
            match=row.match,
            call=call,
            reported=reported,
            disputed=disputed,
        ),
        row=row,
    )


def _board_table(board: TeamBoard) -> Table:
    """One board of a team match: the two teams' k-th players' singles match (read with its call, if any)."""
    parent = board.slot if board.slot_id is not None else board.pairing
    team = table_of(parent, with_call=False)
    match = board.match
    call = _call_of(board)
    decided = team.state == DECIDED or match.status in _MATCH_OVER
    return replace(
        team,
        label=_("%(round)s, board %(n)s") % {"round": team.label, "n": board.board},
        team_board=board.board,
        names=(
            f"{team.names[0]} ({match.player_a.name})",
            f"{team.names[1]} ({match.player_b.name})",
        ),
        player_ids=(match.player_a_id, match.player_b_id),
        user_ids=(match.player_a.user_id, match.player_b.user_id),
        match=match,
        call=call,
        state=_state(
            decided=decided,
            known=True,
            match=match,
            call=call,
            reported=getattr(board, "reported", False),
            disputed=getattr(board, "disputed", False),
        ),
        board_row=board,
    )


def _with_report_state(rows: QuerySet, match_field: str = "match") -> QuerySet:
    pending = MatchReport.objects.filter(match=OuterRef(match_field), confirmed=False, retired=False)
    dispute = MatchDispute.objects.filter(match=OuterRef(match_field), resolved_at__isnull=True)
    return rows.annotate(reported=Exists(pending), disputed=Exists(dispute))


_PARENT_RELATED = ("flight__event__club", "entry_a__player", "entry_b__player")
_ROW_RELATED = (*_PARENT_RELATED, "match", "call__board")


def _slots(where: Q) -> QuerySet:
    return _with_report_state(Slot.objects.filter(where).select_related(*_ROW_RELATED)).order_by(
        "flight__event__starts_on", "flight__event_id", "flight__order", "round", "section", "position"
    )


def _pairings(where: Q) -> QuerySet:
    return _with_report_state(Pairing.objects.filter(where).select_related(*_ROW_RELATED)).order_by(
        "flight__event__starts_on", "flight__event_id", "flight__order", "round", "group", "table"
    )


def _team_boards(where: Q) -> QuerySet:
    related = [f"{parent}__{field}" for parent in ("slot", "pairing") for field in _PARENT_RELATED]
    return _with_report_state(
        TeamBoard.objects.filter(where).select_related(*related, "match__player_a", "match__player_b", "call__board")
    ).order_by("flight__event__starts_on", "flight__event_id", "flight__order", "board")


def _kinds(*reads: QuerySet) -> set[int]:
    """Which of the reads find a row, in one statement (a UNION of one constant per read, so at most one row
    each): most home pages belong to players with no table at all, and a day has one or two kinds of table."""
    marks = [read.order_by().values_list(Value(n, output_field=IntegerField())) for n, read in enumerate(reads)]
    return {n for (n,) in marks[0].union(*marks[1:])}


def _tables(
    slots: QuerySet, pairings: QuerySet, boards: QuerySet, *, limit: int | None = None, kinds: set[int] | None = None
) -> list[Table]:
    """One query for which kinds of row there are (unless the caller knows `kinds`), then one for each kind found
    (at most four): the slots, the pairings (a team flight's expanded into their boards) and the team boards."""
    if kinds is None:
        kinds = _kinds(slots, pairings, boards)
    if limit is not None:
        slots, pairings, boards = slots[:limit], pairings[:limit], boards[:limit]
    found = [table_of(r, reported=r.reported, disputed=r.disputed) for r in (slots if 0 in kinds else [])]
    found += [table_of(r, reported=r.reported, disputed=r.disputed) for r in (pairings if 1 in kinds else [])]
    found += [_board_table(b) for b in (boards if 2 in kinds else [])]
    found.sort(
        key=lambda t: (
            t.event.starts_on,
            t.event.pk,
            t.flight.order,
            t.flight.pk,
            t.round,
            t.number or 0,
            t.row.pk,
            t.team_board or 0,
        )
    )
    return found if limit is None else found[:limit]


def event_tables(*, event) -> list[Table]:
    """The event's tables not decided yet, in flight and round order: the dashboard's lists and the calling
    queue (at most four queries). A team match's tables are its boards once both teams are known."""
    team = Q(flight__team_kind=TeamKind.TEAM)
    slots = _slots(Q(flight__event=event, result__in=_OPEN_SLOT) & ~(team & Q(result=SlotResult.READY)))
    pairings = _pairings(Q(flight__event=event, result=PairingResult.PENDING, entry_b__isnull=False) & ~team)
    boards = _team_boards(
        Q(flight__event=event)
        & (Q(slot__result=SlotResult.READY) | Q(pairing__result=PairingResult.PENDING))
        & ~Q(match__status__in=_MATCH_OVER)
    )
    return [t for t in _tables(slots, pairings, boards) if t.state != WAITING or any(t.names)]


def waiting_tables(*, event) -> list[Table]:
    """The calling queue: tables ready and not called (a released draw's slots, a round's tables), the
    longest-waiting first (a match is made when its second player is known)."""
    ready = [
        (t.match.created_at, t.key, t)
        for t in event_tables(event=event)
        if t.callable and t.match is not None and (t.slot_id is None or t.flight.draw_status == DrawStatus.RELEASED)
    ]
    return [t for _since, _key, t in sorted(ready, key=lambda line: line[:2])]


def _player_reads(me, tail: str, flight=None) -> tuple[QuerySet, QuerySet, QuerySet]:
    """The slots, pairings and team boards still to play of `me` (a player, or with `tail` "__user" a user or
    an OuterRef to one)."""
    mine = Q(**{f"entry_a__player{tail}": me}) | Q(**{f"entry_b__player{tail}": me})
    live = ~Q(flight__event__status=EventStatus.FINISHED)
    if flight is not None:
        live &= Q(flight=flight)
    team = Q(flight__team_kind=TeamKind.TEAM)
    slots = _slots(mine & live & Q(result__in=_OPEN_SLOT) & ~(team & Q(result=SlotResult.READY)))
    pairings = _pairings(mine & live & ~team & Q(result=PairingResult.PENDING, entry_b__isnull=False))
    boards = _team_boards(
        (Q(**{f"match__player_a{tail}": me}) | Q(**{f"match__player_b{tail}": me}))
        & live
        & (Q(slot__result=SlotResult.READY) | Q(pairing__result=PairingResult.PENDING))
        & ~Q(match__status__in=_MATCH_OVER)
    )
    return slots, pairings, boards


def open_table_kinds_subquery():
    """Which kinds of table the user of the outer query has to play (bit 1 slots, 2 pairings, 4 team boards):
    loaded with the user (accounts.badges), so the home page reads only the kinds there are, and a player
    without a table costs no query for them."""
    reads = _player_reads(OuterRef("pk"), "__user")
    bits = [Case(When(Exists(read), then=Value(1 << n)), default=Value(0)) for n, read in enumerate(reads)]
    return ExpressionWrapper(bits[0] + bits[1] + bits[2], output_field=IntegerField())


def player_tables(*, player=None, user=None, flight=None, limit: int = 5, kinds: int | None = None) -> list[Table]:
    """A player's (or the signed-in user's) tables still to play in events not finished, the soonest event and
    round first: the home page, the next-match page and its API, and (`flight`) the bracket page's "your match"
    (at most four queries whatever the events; one fewer given `kinds`, the user's `open_table_kinds`)."""
    reads = _player_reads(player, "", flight) if player is not None else _player_reads(user, "__user", flight)
    found = None if kinds is None else {n for n in range(3) if kinds & (1 << n)}
    return _tables(*reads, limit=limit, kinds=found)


def call_table(call) -> Table:
    """The table of a call read with `CALL_RELATED` (no query)."""
    if call.team_board_id is not None:
        return _board_table(call.team_board)
    return table_of(call.row)


def call_tables(calls) -> list[Table]:
    return [call_table(call) for call in calls]


#: What a call's table needs read with it (the slot's, the pairing's or the team board's; the others are null).
CALL_RELATED = (
    *(f"{row}__{field}" for row in ("slot", "pairing") for field in (*_PARENT_RELATED, "match")),
    *(f"team_board__{parent}__{field}" for parent in ("slot", "pairing") for field in _PARENT_RELATED),
    "team_board__match__player_a",
    "team_board__match__player_b",
)


def match_table(*, match) -> Table | None:
    """The table of a tournament match (a slot's, a pairing's or a team board's), None for any other: what a
    player is told when the match is called to a board (one query for a knockout match, at most three)."""
    for read, build in (
        (_slots, lambda r: table_of(r, reported=r.reported, disputed=r.disputed)),
        (_pairings, lambda r: table_of(r, reported=r.reported, disputed=r.disputed)),
        (_team_boards, _board_table),
    ):
        found = list(read(Q(match=match)).order_by()[:1])
        if found:
            return build(found[0])
    return None
