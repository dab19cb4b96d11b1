"""Reads for chouette sessions, scoped to what the asking user may see."""

from __future__ import annotations

from django.db.models import (
    Case,
    Count,
    Exists,
    F,
    IntegerField,
    OuterRef,
    Prefetch,
    Q,
    QuerySet,
    Subquery,
    Sum,
    Value,
    When,
)
from django.db.models.functions import Coalesce

from base.compiled import CompiledRead
from base.numbers import parse_id
from chouette import entries, permissions
from chouette.core import session as core
from chouette.core import settlement as money_core
from chouette.core.table_options import Rules
from chouette.models import (
    ChouetteSession,
    EventKind,
    LedgerEntry,
    RequestKind,
    RequestStatus,
    Seat,
    SeatStatus,
    SessionEvent,
    SessionStatus,
    TableRequest,
    Transfer,
)
from clubs import access, names
from clubs import selectors as club_selectors
from clubs.models import Club, Membership, Player, Role


def visible_sessions(*, user) -> QuerySet[ChouetteSession]:
    """The sessions at clubs the user can see, and every table the user sat at (a player who left a private club
    still sees what was booked against them there), each annotated with `money_visible` (whether the user may see
    its money: permissions.may_see_money, answered in the same query for a whole list)."""
    visible_club = Q(club__in=club_selectors.visible_clubs(user=user))
    if not getattr(user, "is_authenticated", False):
        return ChouetteSession.objects.filter(visible_club).select_related("club").annotate(money_visible=Value(False))
    sat_here = Seat.objects.filter(session=OuterRef("pk"), player__user=user)
    sessions = ChouetteSession.objects.filter(visible_club | Q(seats__player__user=user)).distinct()
    sessions = sessions.select_related("club")
    directs = club_selectors.directed_clubs(user=user).filter(pk=OuterRef("club_id"))
    return sessions.annotate(money_visible=Exists(sat_here) | Exists(directs))


def visible_session(*, user, pk: object) -> ChouetteSession | None:
    """One session as `visible_sessions(user=user).filter(pk=pk)` would find it, `money_visible` included (None
    when there is no such session or the visitor may not see it), decided on the row itself: the session is read
    by its id with its club, then visible_sessions' rule is applied to it here, so the two must change together
    (tests/chouette/test_visibility.py holds them equal for every kind of visitor). A signed-in visitor who is
    not site staff is asked two things: their active membership of its club (its role) and whether they sat at
    this table, in the same query.

    Why: every action on one table (a game entered, above all) built the list's DISTINCT over an OR of a join and
    an EXISTS, with two more EXISTS for the money, to find the one row it names: about a tenth of an entry's CPU."""
    number = parse_id(pk)
    if number is None:
        return None
    signed_in = getattr(user, "is_authenticated", False)
    if access.is_site_staff(user) or not signed_in:
        session = next(iter(ChouetteSession.objects.select_related("club").filter(pk=number)[:1]), None)
        if session is not None:
            session.money_visible = bool(signed_in)  # staff direct every club (directed_clubs); anonymous: none
        return session if session is None or signed_in or session.club.is_public else None
    session = _SESSION_FOR_USER.first(number, user.pk)
    if session is None or not (session.club.is_public or session.member or session.sat):
        return None
    session.money_visible = session.sat or session.directs
    return session


def _member(user_id, **roles) -> Exists:
    """An active membership of the session's club in any status, as visible_clubs and directed_clubs count one."""
    memberships = Membership.objects.filter(club_id=OuterRef("club_id"), player__user_id=user_id, is_active=True)
    return Exists(memberships.filter(**roles))


_SESSION_FOR_USER = CompiledRead(
    lambda pk, user_id: (
        ChouetteSession.objects.select_related("club")
        .filter(pk=pk)
        .annotate(
            member=_member(user_id),
            directs=_member(user_id, role__in=[Role.DIRECTOR, Role.ADMIN]),
            sat=Exists(Seat.objects.filter(session_id=OuterRef("pk"), player__user_id=user_id)),  # a seat in any status
        )[:1]
    )
)


def clubs_to_start_at(*, user) -> QuerySet[Club]:
    """The clubs where the user may open a table (an active member in any role; a superuser anywhere), in one
    query rather than a role check per visible club."""
    clubs = club_selectors.visible_clubs(user=user)
    if not getattr(user, "is_authenticated", False):
        return clubs.none()
    if getattr(user, "is_superuser", False):
        return clubs
    return clubs.filter(memberships__player__user=user, memberships__is_active=True).distinct()


def session_for_detail(*, user, slug: str, pk: int) -> ChouetteSession:
    """A session by its club and id (raises ChouetteSession.DoesNotExist when not visible)."""
    return visible_sessions(user=user).get(club__slug=slug, pk=pk)


def seat_names(session: ChouetteSession, *, viewer=None) -> dict[int, str]:
    """Player id -> name for everyone who sat at the table, as the viewer sees it (clubs.names: a display name
    where the club allows display names, the name for the player and the club's directors)."""
    club = session.club
    return {
        seat.player_id: names.shown_name(seat.player, viewer=viewer, club=club)
        for seat in session.seats.select_related("player")
    }


def active_members(*, club: Club) -> QuerySet[Player]:
    """The players who may sit down at a table of this club, by name: its members by their own acceptance (an
    active membership is an accepted one) and its own walk-ins."""
    member = Membership.objects.filter(club=club, player=OuterRef("pk"), is_active=True)
    return Player.objects.filter(Exists(member) | Q(created_by_club=club)).order_by("name")


def club_player(*, club: Club, player_id: int | None) -> Player | None:
    """The player with that id if they are a member of the club (a form's player field, scoped to the club)."""
    return Player.objects.filter(pk=player_id, memberships__club=club).first()


def seatable_players(*, user, club: Club) -> QuerySet[Player]:
    """Whom the user may seat at a table of this club: any member for a director, else only themselves."""
    members = active_members(club=club)
    if permissions.directs(user, club):
        return members
    if not getattr(user, "is_authenticated", False):
        return members.none()
    return members.filter(user=user)


def members_to_seat(session: ChouetteSession, *, user) -> QuerySet[Player]:
    """The members the user may seat who are not at the table now (someone who left may sit down again)."""
    at_table = session.seats.exclude(status=SeatStatus.LEFT).values("player_id")
    return seatable_players(user=user, club=session.club).exclude(pk__in=at_table)


def money_totals(session: ChouetteSession) -> dict[int, int]:
    rows = session.ledger.values("player_id").annotate(cents=Sum("cents"))
    return {row["player_id"]: row["cents"] for row in rows}


def balances_after_payments(session: ChouetteSession) -> dict[int, int]:
    """Each seat's money from the ledger, after the cash-outs already paid."""
    balances = dict.fromkeys(session.seats.values_list("player_id", flat=True), 0)
    balances.update(money_totals(session))
    paid = [money_core.Transfer(t.payer_id, t.payee_id, t.cents) for t in session.transfers.all()]
    return money_core.apply_transfers(balances, paid)


def standings(session: ChouetteSession) -> list[dict]:
    """Per seat: points, money, games played, status, in table order (seated first, box first)."""
    totals = {
        row["player_id"]: row
        for row in session.ledger.values("player_id").annotate(
            points=Sum("points"), cents=Sum("cents"), games=Count("id")
        )
    }
    seats = list(session.seats.select_related("player"))
    position = {pid: i for i, pid in enumerate(session.order)}
    seats.sort(key=lambda s: (position.get(s.player_id, len(position)), s.player.name))
    rows = []
    for seat in seats:
        total = totals.get(seat.player_id, {})
        index = position.get(seat.player_id)
        rows.append(
            {
                "seat": seat,
                "player": seat.player,
                "position": index,
                "role": "box" if index == 0 else "captain" if index == 1 else "crew" if index is not None else "",
                "points": total.get("points") or 0,
                "cents": total.get("cents") or 0,
                "games": total.get("games") or 0,
            }
        )
    return rows


def current_games(session: ChouetteSession) -> QuerySet[SessionEvent]:
    """The games as they stand (corrections in, retired versions out), in the order they were played."""
    return session.events.filter(is_current=True, kind=EventKind.GAME)


def current_game(session: ChouetteSession, number: int) -> SessionEvent | None:
    return current_games(session).filter(game_number=number).first()


# The answer to every game entered reads that game's ledger lines with their players: compiled once per process
# (base.compiled), since the prefetch that built it cost about a quarter of an entry's time in Python.
_LINES_OF_GAME = CompiledRead(
    lambda event_id: LedgerEntry.objects.filter(event_id=event_id).select_related("player").order_by("id")
)


def lines_prefetch() -> Prefetch:
    """How a list of games loads each one's ledger lines with their players, as `lines` (ChouetteGameSerializer)."""
    return Prefetch("ledger", queryset=LedgerEntry.objects.select_related("player").order_by("id"), to_attr="lines")


def with_ledger(game: SessionEvent) -> SessionEvent:
    """The game with its ledger lines and their players loaded in one query, as `game.lines` (the answer to an
    entry, an undo or a correction; one query per line's player took a tenth of an entry's time)."""
    game.lines = _LINES_OF_GAME.all(game.pk)
    return game


def game_rows(session: ChouetteSession, *, last: int | None = None) -> list[dict]:
    """The current games, newest first, each with its ledger lines; only the `last` few when given (the live
    table shows 20 and is rendered on every change: it need not load the whole night's ledger)."""
    games, ledger = current_games(session), session.ledger.all()
    if last is not None:
        games = games.filter(game_number__gt=session.games_played - last)
        ledger = ledger.filter(game_number__gt=session.games_played - last)
    events = {e.pk: e for e in games.select_related("created_by")}
    lines: dict[int, list] = {}
    for entry in ledger.select_related("player").order_by("-game_number", "id"):
        lines.setdefault(entry.game_number, []).append(entry)
    return [
        {"number": number, "event": events.get(rows[0].event_id), "lines": rows}
        for number, rows in sorted(lines.items(), reverse=True)
    ]


def last_game(session: ChouetteSession) -> dict | None:
    """The last current game, what taking it back removes from the ledger and who may take it back: `event`,
    `number`, `lines` (its ledger lines with their players, box first), `entered_by` (a name), `box` (the box's
    name) and `take_back` (permissions.TakeBack). None when no game was played. Read under the session lock by
    the undo, and by its confirmation page."""
    event = current_games(session).select_related("created_by__player").order_by("-game_number").first()
    if event is None:
        return None
    lines = sorted(
        LedgerEntry.objects.filter(event=event).select_related("player").order_by("id"),
        key=lambda line: line.role != "box",
    )
    box = next((line for line in lines if line.role == "box"), None)
    creator = event.created_by
    creator_player = getattr(creator, "player", None) if creator is not None else None
    return {
        "event": event,
        "number": event.game_number,
        "lines": lines,
        # shown to the table's players (a refusal, the take-back page): the names the club's pages show everyone
        "entered_by": creator_player.public_name_at(session.club)
        if creator_player
        else (creator.get_username() if creator else ""),
        "box": box.player.public_name_at(session.club) if box else "",
        "take_back": permissions.TakeBack(
            session, event.created_by_id, box.player.user_id if box is not None else None
        ),
    }


def history(session: ChouetteSession) -> QuerySet[SessionEvent]:
    """Every event version, current and retired (the audit trail)."""
    return session.events.select_related("player", "created_by", "retired_by").order_by("seq", "version")


def live_state(session: ChouetteSession, *, show_money: bool, viewer=None) -> dict:
    """The small JSON the live table polls; the money totals only for those who may see them (else empty)."""
    names = seat_names(session, viewer=viewer)
    totals = money_totals(session) if show_money else {}
    return {
        "id": session.pk,
        "status": session.status,
        "revision": session.revision,
        "games_played": session.games_played,
        "next_game": session.games_played + 1,
        "order": [{"player": pid, "name": names.get(pid, "")} for pid in session.order],
        "sitting_out": [{"player": pid, "name": names.get(pid, "")} for pid in session.sitting_out],
        "totals_cents": [{"player": pid, "name": names[pid], "cents": totals.get(pid, 0)} for pid in names]
        if show_money
        else [],
    }


def settlement(session: ChouetteSession) -> list[Transfer]:
    return list(session.transfers.select_related("payer", "payee"))


def lifetime_balances(*, player: Player, user) -> list[dict]:
    """A player's chouette balance at each club where the user may see it: all of them for the player, the
    clubs they direct for a director, none for anyone else (not even that the player played there)."""
    if not getattr(user, "is_authenticated", False):
        return []
    clubs = Club.objects.all() if player.user_id == user.pk else club_selectors.directed_clubs(user=user)
    rows = (
        LedgerEntry.objects.filter(player=player, session__club__in=clubs)
        .values("session__club__name", "session__club__slug", "session__currency")
        .annotate(cents=Sum("cents"), points=Sum("points"), sessions=Count("session", distinct=True))
        .order_by("session__club__name")
    )
    return [
        {
            "club": row["session__club__name"],
            "slug": row["session__club__slug"],
            "currency": row["session__currency"],
            "cents": row["cents"],
            "points": row["points"],
            "sessions": row["sessions"],
        }
        for row in rows
    ]


def club_balances(*, club: Club, user) -> list[dict]:
    """Lifetime balances at a club: every player's for its directors, only their own for a player, none for
    anyone else."""
    ledger = LedgerEntry.objects.filter(session__club=club)
    if not permissions.directs(user, club):
        if not getattr(user, "is_authenticated", False):
            return []
        ledger = ledger.filter(player__user=user)
    rows = (
        ledger.values("player_id", "player__name")
        .annotate(cents=Sum("cents"), sessions=Count("session", distinct=True))
        .order_by("-cents", "player__name")
    )
    return list(rows)


def club_sessions(*, club: Club) -> QuerySet[ChouetteSession]:
    return club.chouette_sessions.annotate(players=Count("seats")).order_by("-created_at")


def open_sessions(*, user) -> QuerySet[ChouetteSession]:
    return visible_sessions(user=user).filter(status__in=[SessionStatus.SEATING, SessionStatus.OPEN])


def cash_outs(session: ChouetteSession) -> QuerySet[Transfer]:
    return session.transfers.filter(kind="cash_out").select_related("payer", "payee")


def seating_before(session: ChouetteSession, number: int) -> list[int]:
    """The order (box first) at the start of game `number`, by replaying the events before it."""
    rules = Rules.from_dict(session.rules)
    stakes = dict(session.seats.values_list("player_id", "stake_cents"))
    state = core.SessionState()
    for row in session.events.filter(is_current=True).order_by("seq"):
        if row.kind == "game" and row.game_number >= number:
            break
        core.apply(state, entries.core_event(row), rules=rules, stakes=stakes)
    return list(state.order)


def my_open_tables(*, user, limit: int = 5) -> list:
    """The tables still being seated or played that the signed-in user sits at, directs, or is invited to (a
    director enters the games of a table they do not play at: their home page leads there), in the same one
    query: each with `invitation` (the id of the user's invitation waiting there, else None), `invited_by` (who
    invited them) and `asking` (join requests waiting, counted where the user opened the table or directs its
    club, else 0). Invitations come first: they wait for the user's tap."""
    directs = Q(club__in=club_selectors.directed_clubs(user=user))
    invited = TableRequest.objects.filter(
        session=OuterRef("pk"), player__user=user, kind=RequestKind.INVITATION, status=RequestStatus.PENDING
    )
    asking = (
        TableRequest.objects.filter(session=OuterRef("pk"), kind=RequestKind.JOIN, status=RequestStatus.PENDING)
        .values("session")
        .annotate(n=Count("id"))
        .values("n")
    )
    return list(
        visible_sessions(user=user)
        .filter(
            Q(seats__player__user=user) | directs | Exists(invited),
            status__in=[SessionStatus.SEATING, SessionStatus.OPEN],
        )
        .distinct()
        .annotate(
            invitation=Subquery(invited.values("pk")[:1]),
            invited_by=Subquery(invited.values("created_by__player__name")[:1]),
            asking=Case(
                When(Q(created_by=user) | directs, then=Coalesce(Subquery(asking), 0)),
                default=Value(0),
                output_field=IntegerField(),
            ),
        )
        .order_by(F("invitation").desc(nulls_last=True), "-created_at")[:limit]
    )


# --- joining: codes, invitations, join requests -------------------------------------------------------------


def open_table_with_code(code: str) -> ChouetteSession | None:
    """The table not finished with this join code (the database holds it unique among those), with its club."""
    if not code:
        return None
    found = ChouetteSession.objects.select_related("club").exclude(status=SessionStatus.FINISHED)
    return found.filter(join_code=code).first()


def is_club_player(*, club: Club, player: Player) -> bool:
    """Whether the player may sit at the club's tables: an accepted, active member or one of its walk-ins."""
    return active_members(club=club).filter(pk=player.pk).exists()


def pending_requests(session: ChouetteSession) -> list[TableRequest]:
    """The table's invitations and join requests still waiting for an answer, oldest first."""
    return list(
        session.requests.filter(status=RequestStatus.PENDING)
        .select_related("player", "created_by")
        .order_by("created_at", "id")
    )


def requests_for(*, user) -> QuerySet[TableRequest]:
    """What waits for the signed-in user at tables not finished: invitations to them, join requests they may
    approve (tables they opened, and tables of clubs they direct) and their own join requests."""
    if not getattr(user, "is_authenticated", False):
        return TableRequest.objects.none()
    directed = club_selectors.directed_clubs(user=user)
    mine = Q(player__user=user)
    to_approve = Q(kind=RequestKind.JOIN) & (Q(session__created_by=user) | Q(session__club__in=directed))
    return (
        TableRequest.objects.filter(mine | to_approve, status=RequestStatus.PENDING)
        .exclude(session__status=SessionStatus.FINISHED)
        .select_related("player", "session__club", "created_by__player")
        .order_by("-created_at", "-id")
    )


def request_for(*, user, pk) -> TableRequest | None:
    """One request the user may see (their own, or one they may approve); None otherwise."""
    number = parse_id(pk)
    if number is None:
        return None
    return requests_for(user=user).filter(pk=number).first()


def members_to_invite(session: ChouetteSession, *, user) -> QuerySet[Player]:
    """Whom the user may invite to the table: the club's members with an account (and, for a director, its
    walk-ins, whom a director seats at once), not at the table and not already asked."""
    members = active_members(club=session.club)
    if not permissions.directs(user, session.club):
        members = members.exclude(user=None)
    at_table = session.seats.exclude(status=SeatStatus.LEFT).values("player_id")
    waiting = session.requests.filter(status=RequestStatus.PENDING).values("player_id")
    return members.exclude(pk__in=at_table).exclude(pk__in=waiting)


def club_members_to_invite(*, user, club: Club) -> QuerySet[Player]:
    """Whom the opener of a new table may invite: the club's members with an account but the opener."""
    members = active_members(club=club).exclude(user=None)
    if getattr(user, "is_authenticated", False):
        members = members.exclude(user=user)
    return members
