"""Writes for chouette sessions. Each function checks the actor's rights, takes the session row lock before
it reads anything it decides on, calls the pure core (chouette.core) and writes the rows.

The session's events are the truth; the seating, the ledger and the cached state on the session row are
rebuilt from them by `_rebuild` after every change (from the first game that changed).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal
from fractions import Fraction

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from base.api import Conflict
from base.locks import lock
from base.messages import translate
from chouette import entries, hooks, selectors
from chouette import rules as access
from chouette.core import order as order_core
from chouette.core import session as core
from chouette.core import settlement as money_core
from chouette.core.errors import ChouetteError
from chouette.core.rules import Rules
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
    Transfer,
    TransferKind,
)
from clubs import access as club_access
from clubs.models import Club, Player

MAX_STAKE_CENTS = 1_000_000


def _lock(session: ChouetteSession) -> ChouetteSession:
    """Reload the session under a row lock. Two phones entering "game 7" at once, or an undo racing a new
    game, are serialised here: the second one sees the first one's result and is refused or answered."""
    return lock(ChouetteSession.objects, of=("self",)).select_related("club").get(pk=session.pk)


def _core(session: ChouetteSession, call):
    try:
        return call()
    except ChouetteError as exc:
        raise with_names(exc, selectors.seat_names(session)) from None


def _require_player_or_director(actor, session: ChouetteSession) -> None:
    access.require_play(actor, session)


def _transition(session: ChouetteSession, new: str) -> None:
    if new not in TRANSITIONS.get(session.status, set()):
        raise Conflict(
            _("A session that is %(current)s cannot become %(new)s.")
            % {"current": session.get_status_display(), "new": SessionStatus(new).label},
            code="bad_transition",
        )
    session.status = new


def _require_status(session: ChouetteSession, status: str, message: str) -> None:
    if session.status != status:
        raise Conflict(message, code="wrong_status")


def _rules(session: ChouetteSession) -> Rules:
    return Rules.from_dict(session.rules)


def _stake(value, field: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= MAX_STAKE_CENTS:
        raise ValidationError({field: [_("A stake is a whole number of cents per point, from 1 to 1,000,000.")]})
    return value


def _check_member(club: Club, players: Sequence[Player], field: str = "players") -> None:
    """Only the club's players sit at its tables: members by their own acceptance, and its own walk-ins."""
    members = set(
        selectors.active_members(club=club).filter(pk__in=[p.pk for p in players]).values_list("pk", flat=True)
    )
    strangers = [p.name for p in players if p.pk not in members]
    if strangers:
        raise ValidationError(
            {
                field: [
                    _("%(names)s: not a member of this club; add them at the club first.")
                    % {"names": ", ".join(strangers)}
                ]
            }
        )


# --- sessions --------------------------------------------------------------------------------------------


@transaction.atomic
def create_session(
    *,
    actor,
    club: Club,
    players: Sequence[Player],
    stake_cents: int = 100,
    stakes: Mapping[int, int] | None = None,
    rules: Mapping | None = None,
    name: str = "",
    currency: str = "EUR",
    order: Sequence[int] | None = None,
) -> ChouetteSession:
    """Open a table at a club with its players, stakes (one per player, default for all) and rule options.
    With `order` (player ids, box first) the session starts at once; otherwise the players roll for it."""
    club_access.require(actor, "chouette.start", club)
    try:
        rule_set = Rules.from_dict(rules)
    except ChouetteError as exc:
        exc.field = "rules"
        raise exc from None
    except TypeError:
        raise ValidationError({"rules": [_("Unknown or malformed rule options.")]}) from None
    players = list(dict.fromkeys(players))
    # Without an order the table stays open for seating: the others sit down themselves before the dice.
    fewest = 3 if order is not None else 1
    if not fewest <= len(players) <= rule_set.max_players:
        raise ValidationError(
            {"players": [_("A chouette needs 3 to %(max)s players.") % {"max": rule_set.max_players}]}
        )
    access.require_seat(actor, club, players)
    _check_member(club, players)
    _stake(stake_cents, "stake_cents")
    stakes = dict(stakes or {})
    for player_id, value in stakes.items():
        _stake(value, "stakes")
        if player_id not in {p.pk for p in players}:
            raise ValidationError({"stakes": [_("A stake is given for someone who is not at the table.")]})
    session = ChouetteSession.objects.create(
        club=club,
        name=name.strip()[:120],
        rules=rule_set.as_dict(),
        default_stake_cents=stake_cents,
        currency=(currency or "EUR").upper()[:3],
        created_by=actor,
    )
    Seat.objects.bulk_create(
        [Seat(session=session, player=p, stake_cents=stakes.get(p.pk, stake_cents)) for p in players]
    )
    hooks.seated(session, list(players))
    if order is not None:
        return set_order(actor=actor, session=session, order=order)
    return session


def _require_enough_players(session: ChouetteSession) -> None:
    if session.seats.count() < 3:
        raise ValidationError(
            {"order": [_("A chouette needs at least 3 players; wait until the others have sat down.")]}
        )


def _start(session: ChouetteSession, order: Sequence[int], actor) -> ChouetteSession:
    _require_enough_players(session)
    seated = set(session.seats.values_list("player_id", flat=True))
    if sorted(order) != sorted(seated):
        raise ValidationError({"order": [_("List every player at the table exactly once, box first.")]})
    _transition(session, SessionStatus.OPEN)
    session.started_at = timezone.now()
    session.save(update_fields=["status", "started_at"])
    SessionEvent.objects.create(
        session=session, seq=1, kind=EventKind.START, payload={"order": list(order)}, created_by=actor
    )
    _rebuild(session, from_game=1)
    return session


@transaction.atomic
def set_order(*, actor, session: ChouetteSession, order: Sequence[int]) -> ChouetteSession:
    """The starting order entered by hand (player ids: box, captain, crew)."""
    session = _lock(session)
    _require_player_or_director(actor, session)
    _require_status(session, SessionStatus.SEATING, _("The starting order is already set."))
    return _start(session, [int(p) for p in order], actor)


@transaction.atomic
def roll_for_order(*, actor, session: ChouetteSession, rolls: Mapping[int, int]) -> tuple[ChouetteSession, list]:
    """One round of rolls for the starting order: first everyone, then only the players still tied. Every
    roll is kept on the seat. Returns the session (open once the order stands) and the groups still tied."""
    session = _lock(session)
    _require_player_or_director(actor, session)
    _require_status(session, SessionStatus.SEATING, _("The starting order is already set."))
    _require_enough_players(session)
    seats = {s.player_id: s for s in session.seats.select_related("player")}
    current = {pid: list(s.rolls) for pid, s in seats.items()}
    due = set(order_core.due_to_roll(current))
    given = {int(k): v for k, v in rolls.items()}
    if set(given) != due:
        names = ", ".join(sorted(seats[pid].player.name for pid in due))
        raise ValidationError({"rolls": [_("Now %(names)s roll (and nobody else).") % {"names": names}]})
    for pid, value in given.items():
        if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 12:
            raise ValidationError({"rolls": [_("A roll is a number from 1 to 12 (one die or both).")]})
        current[pid].append(value)
        seats[pid].rolls = current[pid]
        seats[pid].save(update_fields=["rolls"])
    ties = _core(session, lambda: order_core.ties_to_reroll(current))
    if ties:
        return session, ties
    order = _core(session, lambda: order_core.order_by_rolls(current))
    return _start(session, order, actor), []


@transaction.atomic
def finish_session(*, actor, session: ChouetteSession) -> list[Transfer]:
    """End the night: everyone's money (after cash-outs already paid) settled with the fewest transfers."""
    session = _lock(session)
    _require_player_or_director(actor, session)
    _require_status(session, SessionStatus.OPEN, _("Only an open session can be settled."))
    balances = selectors.balances_after_payments(session)
    transfers = _core(session, lambda: money_core.fewest_transfers(balances))
    rows = Transfer.objects.bulk_create(
        [
            Transfer(session=session, kind=TransferKind.SETTLEMENT, payer_id=t.payer, payee_id=t.payee, cents=t.cents)
            for t in transfers
        ]
    )
    _transition(session, SessionStatus.FINISHED)
    session.finished_at = timezone.now()
    session.revision += 1
    session.save(update_fields=["status", "finished_at", "revision"])
    return rows


# --- events ----------------------------------------------------------------------------------------------


def _current_events(session: ChouetteSession) -> list[SessionEvent]:
    return list(session.events.filter(is_current=True).order_by("seq"))


def _replay(session: ChouetteSession, rows: list[SessionEvent], changed_game: int):
    """Replay the events; returns the final state and the game events by number. A refusal in a game after
    `changed_game` (the one just entered, corrected or undone) names that later game."""
    rules = _rules(session)
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
                raise ValidationError({"game": [ValidationError(message, code=exc.code)]}) from None
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


def _rebuild(session: ChouetteSession, *, from_game: int, rows: list[SessionEvent] | None = None):
    """Replay the current events, rewrite the ledger from game `from_game` on, and cache the seating."""
    rows = _current_events(session) if rows is None else rows
    state, games = _replay(session, rows, from_game)
    session.ledger.filter(game_number__gte=from_game).delete()
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
            )
            for game in state.games[from_game - 1 :]
            for player in game.scored.points
        ]
    )
    seats = {s.player_id: s for s in session.seats.all()}
    for pid, seat in seats.items():
        status = (
            SeatStatus.SITTING_OUT
            if pid in state.sitting_out
            else SeatStatus.LEFT
            if pid in state.departed
            else SeatStatus.SEATED
        )
        if seat.status != status:
            seat.status = status
            seat.save(update_fields=["status"])
    session.order = list(state.order)
    session.sitting_out = list(state.sitting_out)
    session.games_played = len(state.games)
    session.revision += 1
    session.save(update_fields=["order", "sitting_out", "games_played", "revision"])
    return state


def _next_seq(session: ChouetteSession) -> int:
    return (session.events.aggregate(top=Max("seq"))["top"] or 0) + 1


def _add_event(session: ChouetteSession, actor, *, kind: str, **fields) -> SessionEvent:
    return SessionEvent.objects.create(session=session, seq=_next_seq(session), kind=kind, created_by=actor, **fields)


@transaction.atomic
def record_game(
    *,
    actor,
    session: ChouetteSession,
    game: Mapping,
    expected_number: int | None = None,
    idempotency_key: str = "",
) -> tuple[SessionEvent, bool]:
    """Enter the next game as it happened. Returns (event, created); the same idempotency key answers with the
    first entry, and `expected_number` (the number the phone thinks it enters) refuses a stale second entry."""
    session = _lock(session)
    _require_player_or_director(actor, session)
    if idempotency_key:
        earlier = session.events.filter(idempotency_key=idempotency_key).first()
        if earlier is not None:
            return earlier, False
    _require_status(session, SessionStatus.OPEN, _("Games are entered while the session is open."))
    number = session.games_played + 1
    if expected_number is not None and expected_number != number:
        raise Conflict(
            _("Game %(expected)s was already entered (perhaps from another phone); the next is game %(n)s. Reload.")
            % {"expected": expected_number, "n": number},
            code="game_already_entered",
        )
    entry = entries.entry_from_payload(game)
    event = _add_event(
        session,
        actor,
        kind=EventKind.GAME,
        game_number=number,
        payload=entries.payload_from_entry(entry),
        idempotency_key=idempotency_key,
    )
    _rebuild(session, from_game=number)
    return event, True


@transaction.atomic
def undo_last_game(*, actor, session: ChouetteSession, expected_number: int | None = None) -> SessionEvent:
    """Take back the last game: the order and the ledger are as before it (the row stays, retired)."""
    session = _lock(session)
    _require_player_or_director(actor, session)
    _require_status(session, SessionStatus.OPEN, _("Games can only be taken back while the session is open."))
    last = session.events.filter(is_current=True, kind=EventKind.GAME).order_by("-game_number").first()
    if last is None:
        raise Conflict(_("There is no game to take back."), code="nothing_to_undo")
    if expected_number is not None and expected_number != last.game_number:
        raise Conflict(
            _("The last game is now game %(n)s; reload before taking it back.") % {"n": last.game_number},
            code="stale_game",
        )
    later = session.events.filter(is_current=True, seq__gt=last.seq).exists()
    if later:
        raise Conflict(
            _("Players joined or left after the last game; correct it instead of taking it back."),
            code="seating_changed",
        )
    last.is_current, last.retired_reason, last.retired_by, last.retired_at = False, "undone", actor, timezone.now()
    last.save(update_fields=["is_current", "retired_reason", "retired_by", "retired_at"])
    _rebuild(session, from_game=last.game_number)
    return last


@transaction.atomic
def correct_game(*, actor, session: ChouetteSession, number: int, game: Mapping, reason: str) -> SessionEvent:
    """Replace an earlier game with what really happened. The old version stays (audit trail: who, when, why);
    the ledger and the rotation are replayed from that game on. Refused when the later games no longer fit
    the corrected seating."""
    session = _lock(session)
    _require_player_or_director(actor, session)
    _require_status(session, SessionStatus.OPEN, _("Games are corrected while the session is open (not once settled)."))
    if not reason.strip():
        raise ValidationError({"reason": [_("Say why the game is corrected (it is kept in the history).")]})
    old = selectors.current_game(session, number)
    if old is None:
        raise ValidationError({"number": [_("There is no game %(n)s in this session.") % {"n": number}]})
    entry = entries.entry_from_payload(game)
    old.is_current, old.retired_reason, old.retired_by, old.retired_at = False, "corrected", actor, timezone.now()
    old.save(update_fields=["is_current", "retired_reason", "retired_by", "retired_at"])
    new = SessionEvent.objects.create(
        session=session,
        seq=old.seq,
        version=old.version + 1,
        kind=EventKind.GAME,
        game_number=number,
        payload=entries.payload_from_entry(entry),
        reason=reason.strip()[:500],
        created_by=actor,
    )
    _rebuild(session, from_game=number)
    return new


# --- seats -----------------------------------------------------------------------------------------------


@transaction.atomic
def join(*, actor, session: ChouetteSession, player: Player, stake_cents: int | None = None) -> Seat:
    """A newcomer sits down (at the bottom, or ahead of the player who just lost, by the session's rule): the
    player themselves, or seated by a director of the club."""
    session = _lock(session)
    access.require_seat(actor, session.club, [player])
    if session.status == SessionStatus.FINISHED:
        raise Conflict(_("This session is settled; start a new one."), code="session_settled")
    _check_member(session.club, [player], "player")
    stake = session.default_stake_cents if stake_cents is None else _stake(stake_cents, "stake_cents")
    seat, created = Seat.objects.get_or_create(session=session, player=player, defaults={"stake_cents": stake})
    if session.status == SessionStatus.SEATING:
        if not created:
            raise ValidationError({"player": [_("%(name)s is already at the table.") % {"name": player.name}]})
        if session.seats.count() > _rules(session).max_players:
            raise ValidationError({"player": [_("The table is full.")]})
        hooks.seated(session, [player])
        return seat
    if not created and seat.status == SeatStatus.SITTING_OUT:
        return _seat_event(session, actor, player, EventKind.RETURN)
    _add_event(session, actor, kind=EventKind.JOIN, player=player)
    _rebuild(session, from_game=session.games_played + 1)
    seat.refresh_from_db()
    hooks.seated(session, [player])
    return seat


def _seat_event(session, actor, player, kind) -> Seat:
    seat = session.seats.filter(player=player).first()
    if seat is None:
        raise ValidationError({"player": [_("%(name)s is not at this table.") % {"name": player.name}]})
    _add_event(session, actor, kind=kind, player=player)
    _rebuild(session, from_game=session.games_played + 1)
    seat.refresh_from_db()
    return seat


def _open_for_seat_change(actor, session: ChouetteSession) -> ChouetteSession:
    session = _lock(session)
    _require_player_or_director(actor, session)
    _require_status(session, SessionStatus.OPEN, _("Players sit out, come back or leave while the session is open."))
    return session


@transaction.atomic
def sit_out(*, actor, session: ChouetteSession, player: Player) -> Seat:
    """A player pauses: out of the line, ledger kept."""
    return _seat_event(_open_for_seat_change(actor, session), actor, player, EventKind.SIT_OUT)


@transaction.atomic
def come_back(*, actor, session: ChouetteSession, player: Player) -> Seat:
    """Back from sitting out: seated like a newcomer (session rule), so with a newcomer's consent: the player
    themselves, or a director seating a player who still belongs to the club."""
    session = _open_for_seat_change(actor, session)
    access.require_seat(actor, session.club, [player])
    _check_member(session.club, [player], "player")
    return _seat_event(session, actor, player, EventKind.RETURN)


@transaction.atomic
def leave(*, actor, session: ChouetteSession, player: Player) -> list[Transfer]:
    """A player leaves early and is cashed out now: they pay, or are paid by, the players on the other side
    of their balance. Returns the cash-out transfers."""
    session = _open_for_seat_change(actor, session)
    _seat_event(session, actor, player, EventKind.LEAVE)
    balances = selectors.balances_after_payments(session)
    transfers = money_core.cash_out(balances, player.pk)
    return Transfer.objects.bulk_create(
        [
            Transfer(session=session, kind=TransferKind.CASH_OUT, payer_id=t.payer, payee_id=t.payee, cents=t.cents)
            for t in transfers
        ]
    )
