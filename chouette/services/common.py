"""What every chouette write shares: the session row lock, the checks on actor, status and stakes, and the
event log: add an event and apply it to the stored snapshot (`advance`, every new game or seat change), or
replay the current events and rebuild the ledger and the seating from them (`rebuild`, an undo or a
correction)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from decimal import Decimal
from fractions import Fraction

from django.db.models import IntegerField, Max, QuerySet, Subquery, Value
from django.utils.translation import gettext as _

from base.compiled import CompiledRead
from base.errors import Conflict, Invalid
from base.live import group_name, notify_group
from base.locks import lock
from base.messages import translate
from chouette import entries, selectors
from chouette import permissions as access
from chouette.core import session as core
from chouette.core.errors import ChouetteError
from chouette.core.table_options import Rules
from chouette.messages import with_names
from chouette.models import (
    TRANSITIONS,
    ChouetteSession,
    EventKind,
    LedgerEntry,
    Seat,
    SeatStatus,
    SessionEvent,
    SessionStatus,
)
from clubs.models import Club, Player

MAX_STAKE_CENTS = 1_000_000


def lock_session(session: ChouetteSession) -> ChouetteSession:
    """Reload the session under a row lock. Two phones entering "game 7" at once, or an undo racing a new
    game, are serialised here: the second one sees the first one's result and is refused or answered.

    Read nothing else in this query: a statement that waited for the lock reads the other tables as they were
    when it began waiting (PostgreSQL), not as the transaction it waited for left them."""
    notify_group(group_name("chouette", session.pk))  # every write locks first: open tables refetch on commit
    locked = _LOCKED_SESSION.first(session.pk)
    if locked is None:
        raise ChouetteSession.DoesNotExist(f"Chouette session {session.pk} does not exist.")
    return locked


def lock_to_play(session: ChouetteSession, actor) -> ChouetteSession:
    """The session locked for a write by a player at the table or a director of its club. Checked before the
    lock (a stranger never queues for it, and the actor's club roles are read outside it) and again under it
    against the seats read there (a player who left while this request waited is refused)."""
    require_player_or_director(actor, session)
    locked = lock_session(session)
    read_seats(locked)
    require_player_or_director(actor, locked)
    return locked


def read_seats(session: ChouetteSession) -> list[Seat]:
    """The seats with their players, read under the session lock and kept on it: `rules.play` checks the actor
    against them, and a new game takes its stakes from them, without a query of their own while the lock is
    held. Read in a statement of their own after the lock: the locking statement, if it waited, would see them
    as they were before the transaction it waited for (a player leaving) committed."""
    session.locked_seats = _SEATS_WITH_PLAYERS.all(session.pk)
    for seat in session.locked_seats:
        seat.session = session  # as session.seats would have set it
    return session.locked_seats


# Every game entered sends these two under the table's lock: compiled once per process (base.compiled).
_LOCKED_SESSION = CompiledRead(
    lambda pk: lock(ChouetteSession.objects, of=("self",)).select_related("club").filter(pk=pk)[:1]
)
_SEATS_WITH_PLAYERS = CompiledRead(
    lambda session_id: Seat.objects.filter(session_id=session_id).select_related("player").order_by("joined_at", "id")
)


def core_call(session: ChouetteSession, call):
    try:
        return call()
    except ChouetteError as exc:
        raise with_names(exc, selectors.seat_names(session)) from None


def require_player_or_director(actor, session: ChouetteSession) -> None:
    access.require_play(actor, session)


def transition(session: ChouetteSession, new: str) -> None:
    if new not in TRANSITIONS.get(session.status, set()):
        raise Conflict(
            _("A session that is %(current)s cannot become %(new)s.")
            % {"current": session.get_status_display(), "new": SessionStatus(new).label},
            code="bad_transition",
        )
    session.status = new


def require_status(session: ChouetteSession, status: str, message: str) -> None:
    if session.status != status:
        raise Conflict(message, code="wrong_status")


def session_rules(session: ChouetteSession) -> Rules:
    """The session's rule options, with its stake form: Dave stakes (and their progression) or the cube."""
    return replace(Rules.from_dict(session.rules), dave=session.dave_progression if session.uses_dave else "")


def check_stake(value, field: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= MAX_STAKE_CENTS:
        raise Invalid(_("A stake is a whole number of cents per point, from 1 to 1,000,000."), field=field)
    return value


def check_member(club: Club, players: Sequence[Player], field: str = "players") -> None:
    """Only the club's players sit at its tables: members by their own acceptance, and its own walk-ins."""
    members = set(
        selectors.active_members(club=club).filter(pk__in=[p.pk for p in players]).values_list("pk", flat=True)
    )
    strangers = [p.name for p in players if p.pk not in members]
    if strangers:
        raise Invalid(
            _("%(names)s: not a member of this club; add them at the club first.") % {"names": ", ".join(strangers)},
            field=field,
        )


# --- events ----------------------------------------------------------------------------------------------


def _current_events(session: ChouetteSession) -> list[SessionEvent]:
    return list(session.events.filter(is_current=True).order_by("seq"))


def _replay(session: ChouetteSession, rows: list[SessionEvent], changed_game: int):
    """Replay the events; returns the final state and the game events by number. A refusal in a game after
    `changed_game` (the one just entered, corrected or undone) names that later game."""
    rules = session_rules(session)
    stakes = dict(session.seats.values_list("player_id", "stake_cents"))
    state = core.SessionState()
    games = {}
    for row in rows:
        event = entries.core_event(row)
        try:
            core.apply(state, event, rules=rules, stakes=stakes)
        except ChouetteError as exc:
            error = with_names(exc, selectors.seat_names(session))
            if row.kind == EventKind.GAME and row.game_number > changed_game:
                # A correction made a later game impossible: say which one, so the players can fix that too.
                message = _("Game %(n)s no longer fits after this change: %(reason)s") % {
                    "n": row.game_number,
                    "reason": translate(error),
                }
                raise Invalid(message, code=exc.code, field="game") from None
            raise error from None
        if row.kind == EventKind.GAME:
            games[row.game_number] = row
    return state, games


def _points(value) -> Decimal:
    return Decimal(value.numerator) / Decimal(value.denominator) if isinstance(value, Fraction) else Decimal(value)


def _role(game: core.PlayedGame, player) -> str:
    scored = game.scored
    if player == scored.box:
        return "box"
    if player == scored.partner:
        return "partner"
    if player == scored.captain:
        return "captain"
    if player == scored.acting_captain:
        return "acting_captain"
    return "crew"


def _write(
    session: ChouetteSession, state: core.SessionState, *, from_game: int, games: dict, seats: list[Seat] | None = None
) -> None:
    """Store what `state` says from game `from_game` on: its new games' ledger lines (`games`: their event rows
    by number), the seat statuses (of `seats` when the caller has them loaded), the seating cached on the
    session and the snapshot."""
    LedgerEntry.objects.bulk_create(
        [
            LedgerEntry(
                session=session,
                event=games[game.number],
                game_number=game.number,
                player_id=player,
                role=_role(game, player),
                points=_points(game.scored.points[player]),
                cents=game.money[player],
                deal=player in game.dealt,
            )
            for game in state.games
            if game.number >= from_game
            for player in game.scored.points
        ]
    )
    for seat in session.seats.all() if seats is None else seats:
        status = (
            SeatStatus.SITTING_OUT
            if seat.player_id in state.sitting_out
            else SeatStatus.LEFT
            if seat.player_id in state.departed
            else SeatStatus.SEATED
        )
        if seat.status != status:
            seat.status = status
            seat.save(update_fields=["status"])
    session.order = list(state.order)
    session.sitting_out = list(state.sitting_out)
    session.games_played = state.games_played
    session.snapshot = core.to_snapshot(state)
    session.revision += 1
    session.save(update_fields=["order", "sitting_out", "games_played", "snapshot", "revision"])


def rebuild(session: ChouetteSession, *, from_game: int, rows: list[SessionEvent] | None = None):
    """Replay every current event, rewrite the ledger from game `from_game` on, the seating and the snapshot.
    For an undo or a correction (rare): they change the past, which the snapshot has already gone past."""
    rows = _current_events(session) if rows is None else rows
    state, games = _replay(session, rows, from_game)
    session.ledger.filter(game_number__gte=from_game).delete()
    _write(session, state, from_game=from_game, games=games)
    return state


def advance(session: ChouetteSession, row: SessionEvent, *, seats: list[Seat] | None = None) -> core.SessionState:
    """Apply one new event (the last one) to the stored snapshot and store the result: the cost of a new game or
    seat change does not grow with the night's history. The seats (`seats`: as read under the lock since the
    last seat change; else read here) give the stakes and are the ones whose statuses are written."""
    state = core.from_snapshot(session.snapshot)
    seats = list(session.seats.all()) if seats is None else seats
    stakes = {seat.player_id: seat.stake_cents for seat in seats}
    core_call(session, lambda: core.apply(state, entries.core_event(row), rules=session_rules(session), stakes=stakes))
    games = {row.game_number: row} if row.kind == EventKind.GAME else {}
    _write(session, state, from_game=state.games_played + (0 if games else 1), games=games, seats=seats)
    return state


def replayed_snapshot(session: ChouetteSession) -> dict:
    """The snapshot a full replay of the current events gives: the check that the stored one is right (the
    tests compare them after random sequences of games, undos, corrections and seat changes)."""
    state, _games = _replay(session, _current_events(session), changed_game=0)
    return core.to_snapshot(state)


def _next_seq(session: ChouetteSession) -> int:
    return (session.events.aggregate(top=Max("seq"))["top"] or 0) + 1


def log_tail(session: ChouetteSession, idempotency_key: str) -> tuple[int, SessionEvent | None]:
    """The next event's seq, and the event `idempotency_key` already entered (None for a new key), in one query:
    a new game asks both under the session lock, where each query makes the next phone wait longer. Each part
    reads an index (the last seq; the key), not every event of the night."""
    if idempotency_key:
        last = _TAIL_AND_KEY.first(session.pk, idempotency_key)
    else:  # only a client that sends no key: not the hot path, so not compiled (docs/performance.md)
        last = next(iter(_tail(session.pk, Value(None, IntegerField()))), None)
    seq, found = last or (0, None)
    earlier = None if found is None else SessionEvent.objects.select_related("created_by").get(pk=found)
    return seq + 1, earlier


def _tail(session_id, earlier) -> QuerySet:
    events = SessionEvent.objects.filter(session_id=session_id).order_by("-seq")
    return events.annotate(earlier=earlier).values_list("seq", "earlier")[:1]


# log_tail's one query with a key: every game entered asks it under the table's lock (base.compiled).
_TAIL_AND_KEY = CompiledRead(
    lambda session_id, key: _tail(
        session_id,
        Subquery(SessionEvent.objects.filter(session_id=session_id, idempotency_key=key).values("pk")[:1]),
    ),
    strings=(1,),
)


def add_event(session: ChouetteSession, actor, *, kind: str, seq: int | None = None, **fields) -> SessionEvent:
    seq = _next_seq(session) if seq is None else seq
    return SessionEvent.objects.create(session=session, seq=seq, kind=kind, created_by=actor, **fields)
