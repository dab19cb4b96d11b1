"""Writes for the seats of a session: join, sit out, come back, leave (cashed out at once)."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from base.errors import Conflict, Invalid
from chouette import hooks, selectors
from chouette import permissions as access
from chouette.core import settlement as money_core
from chouette.models import (
    ChouetteSession,
    EventKind,
    Seat,
    SeatStatus,
    SessionStatus,
    Transfer,
    TransferKind,
)
from chouette.services import common
from clubs.models import Player

# --- seats -----------------------------------------------------------------------------------------------


@transaction.atomic
def join(*, actor, session: ChouetteSession, player: Player, stake_cents: int | None = None) -> Seat:
    """A newcomer sits down (at the bottom, or ahead of the player who just lost, by the session's rule): the
    player themselves, or seated by a director of the club."""
    session = common.lock_session(session)
    access.require_seat(actor, session.club, [player])
    return seat_newcomer(session, actor, player, stake_cents)


def seat_newcomer(session: ChouetteSession, actor, player: Player, stake_cents: int | None = None) -> Seat:
    """Seat `player` at the locked `session` as a newcomer (the core's rotation decides where once the table
    plays). The caller has the consent: the player sits down themselves, a director seats them, the player
    accepted an invitation, or the opener or a director approved the player's own request."""
    if session.status == SessionStatus.FINISHED:
        raise Conflict(_("This session is settled; start a new one."), code="session_settled")
    common.check_member(session.club, [player], "player")
    stake = session.default_stake_cents if stake_cents is None else common.check_stake(stake_cents, "stake_cents")
    seat, created = Seat.objects.get_or_create(session=session, player=player, defaults={"stake_cents": stake})
    if session.status == SessionStatus.SEATING:
        if not created:
            raise Invalid(_("%(name)s is already at the table.") % {"name": player.name}, field="player")
        if session.seats.count() > common.session_rules(session).max_players:
            raise Invalid(_("The table is full."), field="player")
        session.revision += 1  # the phones at the table see the new player before the dice
        session.save(update_fields=["revision"])
        hooks.seated(session, [player])
        return seat
    if not created and seat.status == SeatStatus.SITTING_OUT:
        return _seat_event(session, actor, player, EventKind.RETURN)
    common.advance(session, common.add_event(session, actor, kind=EventKind.JOIN, player=player))
    seat.refresh_from_db()
    hooks.seated(session, [player])
    return seat


def _seat_event(session, actor, player, kind) -> Seat:
    seat = session.seats.filter(player=player).first()
    if seat is None:
        raise Invalid(_("%(name)s is not at this table.") % {"name": player.name}, field="player")
    common.advance(session, common.add_event(session, actor, kind=kind, player=player))
    seat.refresh_from_db()
    return seat


def _open_for_seat_change(actor, session: ChouetteSession) -> ChouetteSession:
    session = common.lock_to_play(session, actor)
    common.require_status(
        session, SessionStatus.OPEN, _("Players sit out, come back or leave while the session is open.")
    )
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
    common.check_member(session.club, [player], "player")
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
