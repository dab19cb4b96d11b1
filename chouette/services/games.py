"""Writes for the games of an open session: enter the next one, take back the last, correct an earlier one.
Each is a new event. A new game is applied to the stored snapshot (its cost does not grow with the night); an
undo or a correction changes the past, so the ledger and the rotation are replayed from the game that changed.
Both are rare next to new games, and a replay is the one way that cannot disagree with the events."""

from __future__ import annotations

from collections.abc import Mapping

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from base.errors import Conflict, Invalid, NotAllowed
from chouette import entries, selectors
from chouette import permissions as access
from chouette.models import (
    ChouetteSession,
    EventKind,
    SessionEvent,
    SessionStatus,
)
from chouette.services import common


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
    session = common.lock_to_play(session, actor)
    seq, earlier = common.log_tail(session, idempotency_key)
    if earlier is not None:
        return earlier, False
    common.require_status(session, SessionStatus.OPEN, _("Games are entered while the session is open."))
    number = session.games_played + 1
    if expected_number is not None and expected_number != number:
        raise Conflict(
            _("Game %(expected)s was already entered (perhaps from another phone); the next is game %(n)s. Reload.")
            % {"expected": expected_number, "n": number},
            code="game_already_entered",
        )
    entry = entries.entry_from_payload(game)
    event = common.add_event(
        session,
        actor,
        kind=EventKind.GAME,
        seq=seq,
        game_number=number,
        payload=entries.payload_from_entry(entry),
        idempotency_key=idempotency_key,
    )
    common.advance(session, event, seats=session.locked_seats)
    return event, True


@transaction.atomic
def undo_last_game(*, actor, session: ChouetteSession, expected_number: int | None = None) -> SessionEvent:
    """Take back the last game: the order and the ledger are as before it (the row stays, retired). Only the
    last game, and only by whoever entered it, the box of that game or a club director
    (permissions.take_back); an older game, or anyone else, goes through the correction."""
    session = common.lock_to_play(session, actor)
    common.require_status(session, SessionStatus.OPEN, _("Games can only be taken back while the session is open."))
    found = selectors.last_game(session)
    if found is None:
        raise Conflict(_("There is no game to take back."), code="nothing_to_undo")
    last = found["event"]
    if expected_number is not None and expected_number != last.game_number:
        raise Conflict(
            _(
                "Game %(expected)s is not the last game (the last is game %(n)s): only the last game can be taken "
                "back. Correct game %(expected)s instead; the correction shows what changes before it is saved."
            )
            % {"expected": expected_number, "n": last.game_number},
            code="stale_game",
        )
    require_take_back(actor, found)
    later = session.events.filter(is_current=True, seq__gt=last.seq).exists()
    if later:
        raise Conflict(
            _("Players joined or left after the last game; correct it instead of taking it back."),
            code="seating_changed",
        )
    last.is_current, last.retired_reason, last.retired_by, last.retired_at = False, "undone", actor, timezone.now()
    last.save(update_fields=["is_current", "retired_reason", "retired_by", "retired_at"])
    common.rebuild(session, from_game=last.game_number)
    return last


def require_take_back(actor, found: dict) -> None:
    """Refuse a take-back by anyone but the game's enterer, its box and a club director, naming who may."""
    if not access.may_take_back(actor, found["take_back"]):
        raise NotAllowed(
            _(
                "Only %(entered)s (who entered game %(n)s), %(box)s (the box of that game) or a club director can "
                "take it back. Ask one of them, or correct game %(n)s instead."
            )
            % {
                "entered": found["entered_by"] or _("the player who entered it"),
                "box": found["box"],
                "n": found["number"],
            },
            code="not_allowed_to_take_back",
        )


@transaction.atomic
def correct_game(*, actor, session: ChouetteSession, number: int, game: Mapping, reason: str) -> SessionEvent:
    """Replace an earlier game with what really happened. The old version stays (audit trail: who, when, why);
    the ledger and the rotation are replayed from that game on. Refused when the later games no longer fit
    the corrected seating."""
    session = common.lock_to_play(session, actor)
    common.require_status(
        session, SessionStatus.OPEN, _("Games are corrected while the session is open (not once settled).")
    )
    if not reason.strip():
        raise Invalid(_("Say why the game is corrected (it is kept in the history)."), field="reason")
    old = selectors.current_game(session, number)
    if old is None:
        raise Invalid(_("There is no game %(n)s in this session.") % {"n": number}, field="number")
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
    common.rebuild(session, from_game=number)
    return new
