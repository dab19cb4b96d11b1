"""Boards and match calling: the director (or the event's auto-call) sends the longest-waiting table (a bracket
match or a round's table, read as `selectors.tables.Table`) to the next free board, moves it, frees a board, and
applies the lateness penalty counted from the call.

The rules are tournaments.core.calling's; this module reads the rows it needs, stores the calls, and tells the
players through `tournaments.hooks.match_called` once the call has committed. Every write takes the event's
board rows (`_lock_boards`, after any Match and Slot locks in base.locks' order), so two directors tapping at
once, or a result confirmed while the director calls, cannot put two matches on one board or call one
player twice; the database's constraints (one call per table, one open call per board) back that up.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from base.errors import Conflict
from base.locks import lock
from clubs import access
from games.matchplay import services as match_services
from games.models.matches import Match
from tournaments import hooks, selectors
from tournaments.core import calling
from tournaments.models import Board, Call, Event, Flight
from tournaments.selectors.tables import UNDECIDED_CALL
from tournaments.services.common import flights_changed

MAX_BOARDS = 500
MAX_GRACE_MINUTES = 120


def _lock_boards(event: Event) -> list[Board]:
    # Race: the plan reads which boards are free and which players are busy; holding the event's boards makes
    # every call, move and free of one event wait for the one before it.
    return list(lock(Board.objects, of=("self",)).filter(event=event).order_by("number"))


def _open_calls(event: Event) -> dict[int, Call]:
    return {c.board_id: c for c in Call.objects.filter(board__event=event, freed_at__isnull=True)}


def _fill(event: Event, boards: list[Board], *, actor=None, limit: int | None = None) -> list[Call]:
    """Call waiting matches to free boards as the core plans it; the boards are locked by the caller."""
    occupied = _open_calls(event)
    free = [calling.FreeBoard(b.number, frozenset(b.tags or ())) for b in boards if b.pk not in occupied]
    if not free:
        return []
    tables = {t.match.pk: t for t in selectors.waiting_matches(event=event) if t.match is not None}
    waiting = [
        calling.Waiting(match_id, t.match.created_at.timestamp(), frozenset(p for p in t.player_ids if p))
        for match_id, t in tables.items()
        if t.match is not None
    ]
    by_number = {b.number: b for b in boards}
    now = timezone.now()
    made = []
    for planned in calling.plan(waiting, free, selectors.busy_players(event=event), limit=limit):
        table = tables[planned.match]
        call = Call.objects.create(
            **Call.of(table.call_row),
            match_id=table.match_id,
            board=by_number[planned.board],
            called_at=now,
            called_by=actor if getattr(actor, "is_authenticated", False) else None,
        )
        made.append(call)
    _announce(made)
    return made


def _announce(calls: list[Call]) -> None:
    """Tell the hook's subscribers once the calls have committed (a rolled-back call tells nobody). The board
    shows on the bracket: its flights count a new version now."""
    if calls:
        flights_changed(Flight.objects.filter(pk__in={call.row.flight_id for call in calls}))
    for call in calls:
        match, board = call.row.match, call.board
        transaction.on_commit(lambda match=match, board=board: hooks.match_called(match, board))


@transaction.atomic
def set_boards(
    *, actor, event: Event, count: int, tags: dict[int, list[str]] | None = None, grace_minutes: int | None = None
) -> list[Board]:
    """Number the event's boards 1..count (adding the missing ones; a board is never taken away while calls
    name it), set the features of the boards named in `tags`, and the grace period before lateness counts."""
    access.require(actor, "event.direct", event)
    if not 1 <= count <= MAX_BOARDS:
        raise Conflict(_("An event has between 1 and %(max)s boards.") % {"max": MAX_BOARDS}, code="board_count")
    if grace_minutes is not None:
        if not 0 <= grace_minutes <= MAX_GRACE_MINUTES:
            raise Conflict(
                _("The grace period is between 0 and %(max)s minutes.") % {"max": MAX_GRACE_MINUTES}, code="grace"
            )
        Event.objects.filter(pk=event.pk).update(call_grace_minutes=grace_minutes)
        event.call_grace_minutes = grace_minutes
    existing = {b.number for b in Board.objects.filter(event=event)}
    Board.objects.bulk_create([Board(event=event, number=n) for n in range(1, count + 1) if n not in existing])
    for number, features in (tags or {}).items():
        clean = sorted({str(f).strip() for f in features if str(f).strip()})
        Board.objects.filter(event=event, number=number).update(tags=clean)
    return list(Board.objects.filter(event=event))


@transaction.atomic
def set_auto_call(*, actor, event: Event, on: bool) -> list[Call]:
    """Switch auto-call on or off; switched on, every free board gets its match at once."""
    access.require(actor, "event.direct", event)
    boards = _lock_boards(event)
    Event.objects.filter(pk=event.pk).update(auto_call=on)
    event.auto_call = on
    return _fill(event, boards, actor=actor) if on else []


@transaction.atomic
def call_next(*, actor, event: Event) -> Call:
    """The director's one tap: the longest-waiting match that can be played goes to the next free board."""
    access.require(actor, "event.direct", event)
    boards = _lock_boards(event)
    if not boards:
        raise Conflict(_("The event has no boards yet."), code="no_boards")
    calls = _fill(event, boards, actor=actor, limit=1)
    if not calls:
        if len(_open_calls(event)) >= len(boards):
            raise Conflict(_("Every board is taken."), code="no_free_board")
        raise Conflict(_("No match is waiting whose players are both free."), code="nothing_to_call")
    return calls[0]


@transaction.atomic
def move_call(*, actor, call: Call, board: Board) -> Call:
    """Move a called match to another free board of the event (the clock keeps running from the first call)."""
    event = call.board.event
    access.require(actor, "event.direct", event)
    _lock_boards(event)
    call = Call.objects.select_related("slot__match", "pairing__match", "team_board__match", "board").get(pk=call.pk)
    if board.event_id != event.pk:
        raise Conflict(_("That board belongs to another event."), code="board_elsewhere")
    if call.freed_at is not None:
        raise Conflict(_("This match has left its board already."), code="call_freed")
    if call.board_id != board.pk:
        if Call.objects.filter(board=board, freed_at__isnull=True).exists():
            raise Conflict(_("Board %(number)s is taken.") % {"number": board.number}, code="board_taken")
        call.board = board
        call.save(update_fields=["board"])
        _announce([call])
    return call


@transaction.atomic
def free_board(*, actor, board: Board) -> list[Call]:
    """Free a board (its match is over or moved away by hand); with auto-call on, the next match is called."""
    event = board.event
    access.require(actor, "event.direct", event)
    boards = _lock_boards(event)
    on_board = Call.objects.filter(board=board, freed_at__isnull=True).select_related("slot", "pairing", "team_board")
    flights_changed(Flight.objects.filter(pk__in={call.row.flight_id for call in on_board}))
    freed = Call.objects.filter(board=board, freed_at__isnull=True).update(freed_at=timezone.now())
    if not freed:
        raise Conflict(_("Board %(number)s is free already.") % {"number": board.number}, code="board_free")
    event.refresh_from_db(fields=["auto_call"])
    return _fill(event, boards, actor=actor) if event.auto_call else []


@transaction.atomic
def apply_lateness(*, actor, call: Call, late_side: int):
    """Record the due penalty points for the late player (games.matchplay's `record_lateness`, counted from the
    call), once per call. Penalties past half the match length forfeit the match, as the rule says."""
    event = call.board.event
    access.require(actor, "event.direct", event)
    # Race: two taps at once would both see the penalty not applied; the match lock (taken as record_lateness
    # takes it) serialises them. No board lock here: a forfeit confirms the match, whose slots come before the
    # boards in the lock order (the results hook then frees the board).
    lock(Match.objects, of=("self",)).get(pk=call.row.match_id)
    call = Call.objects.select_related("board__event", "slot__match", "pairing__match", "team_board__match").get(
        pk=call.pk
    )
    if call.lateness_applied_at is not None:
        raise Conflict(_("The lateness penalty of this call is applied already."), code="lateness_applied")
    if selectors.lateness_due(call) == 0:
        raise Conflict(_("The grace period has not run out yet."), code="within_grace")
    minutes = calling.minutes_since(call.called_at.timestamp(), timezone.now().timestamp())
    match = match_services.record_lateness(actor=actor, match=call.row.match, late_side=late_side, minutes_late=minutes)
    call.lateness_applied_at = timezone.now()
    call.save(update_fields=["lateness_applied_at"])
    return match


def results_changed(flight: Flight) -> None:
    """tournaments.hooks.flight_results_changed: free the boards of decided matches and, with auto-call on,
    call the next ones (inside the confirming transaction, after its match and slot locks)."""
    if not Board.objects.filter(event_id=flight.event_id).exists():  # one query for an event without boards
        return
    event = Event.objects.get(pk=flight.event_id)
    boards = _lock_boards(event)
    # An override that voided a called match and routed a (new) match to its slot, or an annulled round match
    # replayed at its table: that one waits afresh.
    current = (
        Q(slot__isnull=False, slot__match=F("match"))
        | Q(pairing__isnull=False, pairing__match=F("match"))
        | Q(team_board__isnull=False, team_board__match=F("match"))
    )
    Call.objects.filter(board__event=event).exclude(current).delete()
    Call.objects.filter(board__event=event, freed_at__isnull=True).exclude(UNDECIDED_CALL).update(
        freed_at=timezone.now()
    )
    if event.auto_call:
        _fill(event, boards)
