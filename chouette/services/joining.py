"""Writes for filling a table: its join code, invitations (someone at the table asks a member; the member accepts
or declines) and join requests (a member who has the table's code asks; the opener or a director approves).

Why both sides say yes: a seat at a chouette table puts money at stake, so nobody is seated without their own
consent (they accept, or they asked), and nobody sits down at a table without the table's (it invited them, or
its opener or a director of the club let them in). A walk-in (a club player without an account) cannot consent
from a phone: only a director of the club seats walk-ins, as before; a player inviting one is told so.

Every decision is taken under the table's row lock (common.lock_session), so two phones answering at once, or a
request and the table filling up, are serialised; a request row is only read and written under that lock.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence

from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from base.errors import Conflict, Invalid, NotFound
from chouette import permissions as access
from chouette import selectors
from chouette.models import (
    JOIN_CODE_ALPHABET,
    JOIN_CODE_LENGTH,
    ChouetteSession,
    RequestKind,
    RequestStatus,
    SeatStatus,
    SessionStatus,
    TableRequest,
)
from chouette.services import common
from chouette.services.seats import seat_newcomer
from clubs import access as club_access
from clubs.models import Player

# Guessing codes is bounded per user: after this many codes that name no table the user may join, within the
# window, every code is refused (the right one too) until the window has passed. 28 million codes, a few hundred
# open tables: ten guesses find one with odds of about 1 in 10,000 per window.
WRONG_CODES_ALLOWED = 10
WRONG_CODES_WINDOW_SECONDS = 15 * 60


# --- join codes ------------------------------------------------------------------------------------------


def random_join_code() -> str:
    return "".join(secrets.choice(JOIN_CODE_ALPHABET) for _ in range(JOIN_CODE_LENGTH))


def create_with_join_code(**fields) -> ChouetteSession:
    """Create the session row with a fresh join code. The database holds the code unique among tables not
    finished; a clash (one in millions) is retried with another code in a savepoint."""
    for _attempt in range(8):
        code = random_join_code()
        if selectors.open_table_with_code(code) is not None:
            continue
        try:
            with transaction.atomic():
                return ChouetteSession.objects.create(join_code=code, **fields)
        except IntegrityError:
            if selectors.open_table_with_code(code) is None:
                raise  # another constraint: not the code's
    raise Conflict(_("No free join code was found; try again."), code="join_code_exhausted")


def normalised_code(text: str) -> str:
    """A code as typed: case, spaces and dashes do not matter (the input is cut at 40 characters)."""
    return "".join(ch for ch in str(text or "")[:40].upper() if ch not in " -_")


# --- invitations -----------------------------------------------------------------------------------------


def _pending(session: ChouetteSession):
    return TableRequest.objects.filter(session=session, status=RequestStatus.PENDING)


def _at_table(session: ChouetteSession) -> set[int]:
    return set(session.seats.exclude(status=SeatStatus.LEFT).values_list("player_id", flat=True))


def invite_locked(session: ChouetteSession, actor, players: Sequence[Player]) -> list[TableRequest]:
    """Invite `players` to the locked `session` (the caller checked the actor may). A director's walk-ins sit
    down at once; everyone with an account gets an invitation to accept."""
    if session.status == SessionStatus.FINISHED:
        raise Conflict(_("This session is settled; start a new one."), code="session_settled")
    players = list(dict.fromkeys(players))
    if not players:
        raise Invalid(_("Choose at least one player to invite."), field="players")
    common.check_member(session.club, players)
    at_table = _at_table(session)
    pending = set(_pending(session).values_list("player_id", flat=True))
    for player in players:
        if player.pk in at_table:
            raise Invalid(_("%(name)s is already at the table.") % {"name": player.name}, field="players")
        if player.pk in pending:
            raise Invalid(
                _("%(name)s is already invited or has asked to join; the answer is awaited.") % {"name": player.name},
                field="players",
            )
    walk_ins = [p for p in players if p.user_id is None]
    if walk_ins and not access.directs(actor, session.club):
        names = ", ".join(p.name for p in walk_ins)
        raise Invalid(
            _(
                "%(names)s: a walk-in has no account to accept an invitation; a director of the club seats walk-ins "
                "at the table."
            )
            % {"names": names},
            code="walk_in_needs_director",
            field="players",
        )
    most = common.session_rules(session).max_players
    free = most - len(at_table) - len(pending)
    if len(players) > free:
        raise Invalid(
            _("The table has %(free)s free seats (invitations waiting included); invite fewer players.")
            % {"free": max(free, 0)},
            code="table_full",
            field="players",
        )
    for player in walk_ins:
        seat_newcomer(session, actor, player)
    return TableRequest.objects.bulk_create(
        [
            TableRequest(session=session, player=p, kind=RequestKind.INVITATION, created_by=actor)
            for p in players
            if p.user_id is not None
        ]
    )


@transaction.atomic
def invite(*, actor, session: ChouetteSession, players: Sequence[Player]) -> list[TableRequest]:
    """Someone at the table (or a director of the club) invites members; each accepts or declines on their own
    phone. A director's walk-ins are seated at once."""
    access.require_invite(actor, session)
    session = common.lock_session(session)
    common.read_seats(session)
    access.require_invite(actor, session)  # again under the lock: a player who left meanwhile invites nobody
    return invite_locked(session, actor, players)


def _locked_request(request: TableRequest) -> tuple[ChouetteSession, TableRequest]:
    """The request's table locked, then the request read under that lock (it changes only under it)."""
    session = common.lock_session(request.session)
    found = TableRequest.objects.select_related("player", "session__club").filter(pk=request.pk).first()
    if found is None:
        raise NotFound(_("No such invitation or join request."))
    found.session = session
    return session, found


def _decide(row: TableRequest, actor, status: str) -> TableRequest:
    row.status, row.decided_by, row.decided_at = status, actor, timezone.now()
    row.save(update_fields=["status", "decided_by", "decided_at"])
    return row


def _still_pending(session: ChouetteSession, row: TableRequest) -> None:
    if row.status != RequestStatus.PENDING:
        raise Conflict(_("This was already answered."), code="request_answered")
    if session.status == SessionStatus.FINISHED:
        raise Conflict(
            _("This table has finished; ask the players for the code of their new table."), code="session_settled"
        )


@transaction.atomic
def answer_invitation(*, actor, request: TableRequest, accept: bool) -> TableRequest:
    """The invited player accepts (and sits down: at once before the dice, as a newcomer once the table plays)
    or declines."""
    session, row = _locked_request(request)
    if row.kind != RequestKind.INVITATION:
        message = _("This is a join request: the player who opened the table or a director answers it.")
        raise Conflict(message, code="not_an_invitation")
    club_access.require(actor, "chouette.answer", row)
    _still_pending(session, row)
    if accept:
        seat_newcomer(session, actor, row.player)
    return _decide(row, actor, RequestStatus.ACCEPTED if accept else RequestStatus.DECLINED)


@transaction.atomic
def answer_join_request(*, actor, request: TableRequest, approve: bool) -> TableRequest:
    """The table's opener or a director of the club approves a join request (the player sits down as a
    newcomer) or refuses it."""
    session, row = _locked_request(request)
    if row.kind != RequestKind.JOIN:
        raise Conflict(_("This is an invitation: the invited player answers it."), code="not_a_join_request")
    club_access.require(actor, "chouette.approve", session)
    _still_pending(session, row)
    if approve:
        seat_newcomer(session, actor, row.player)
    return _decide(row, actor, RequestStatus.ACCEPTED if approve else RequestStatus.DECLINED)


# --- joining by code -------------------------------------------------------------------------------------


def _wrong_codes_key(actor) -> str:
    return f"chouette:wrong-codes:{actor.pk}"


def _wrong_codes(actor) -> int:
    try:
        return int(cache.get(_wrong_codes_key(actor)) or 0)
    except Exception:  # noqa: BLE001 - a cache that is down bounds nothing, and refuses nobody
        return 0


def _count_wrong_code(actor) -> None:
    key = _wrong_codes_key(actor)
    try:
        if not cache.add(key, 1, WRONG_CODES_WINDOW_SECONDS):
            cache.incr(key)
    except Exception:  # noqa: BLE001 - see _wrong_codes
        pass


def _unknown_code() -> NotFound:
    """One refusal for every code that names no table the user may join: mistyped, a finished table's, another
    club's. It says what to do and tells a guesser nothing about which tables exist."""
    return NotFound(
        _(
            "No open table of your clubs has this code. Check the code with the players at the table (each table "
            "has its own, and a finished table's code no longer works), or ask them to show you its QR code."
        ),
        code="join_code_unknown",
        field="code",
    )


@transaction.atomic
def join_by_code(*, actor, code: str) -> tuple[TableRequest, bool]:
    """A member asks for a seat at the table with this code: a join request for its opener or a director to
    approve. Returns the request and whether it is new (asking again answers the request already waiting). If
    the table had invited the player already, both sides have said yes: they sit down at once."""
    if _wrong_codes(actor) >= WRONG_CODES_ALLOWED:
        raise Conflict(
            _(
                "Too many codes that match no table: wait a quarter of an hour, or ask the players to show you the "
                "table's QR code."
            ),
            code="join_code_attempts",
        )
    code = normalised_code(code)
    found = selectors.open_table_with_code(code) if len(code) == JOIN_CODE_LENGTH else None
    player = club_access.player_of(actor)
    if found is None or player is None or not selectors.is_club_player(club=found.club, player=player):
        _count_wrong_code(actor)
        raise _unknown_code()
    session = common.lock_session(found)
    if session.status == SessionStatus.FINISHED:  # finished while this request waited for the lock
        raise _unknown_code()
    if player.pk in _at_table(session):
        raise Conflict(_("You are already at this table."), code="already_seated")
    waiting = _pending(session).filter(player=player).first()
    if waiting is not None and waiting.kind == RequestKind.INVITATION:
        seat_newcomer(session, actor, player)
        return _decide(waiting, actor, RequestStatus.ACCEPTED), True
    if waiting is not None:
        return waiting, False
    most = common.session_rules(session).max_players
    if len(_at_table(session)) >= most:
        raise Conflict(
            _("This table is full (%(max)s players). Ask the players when a seat is free, or open a new table.")
            % {"max": most},
            code="table_full",
        )
    row = TableRequest.objects.create(session=session, player=player, kind=RequestKind.JOIN, created_by=actor)
    return row, True
