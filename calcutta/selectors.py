"""Reads for Calcutta auctions: who may see which, the live board, owners' pages and the settlement report.

Each read runs a constant number of queries whatever the number of lots, bids and owners.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from decimal import Decimal
from typing import NamedTuple

from django.contrib.auth import get_user_model
from django.db import connections
from django.db.models import Exists, OuterRef, Prefetch, Q, QuerySet, Sum
from django.utils.formats import number_format

from base import numbers
from base.compiled import CompiledRead
from calcutta import core
from calcutta.core import fair
from calcutta.models import (
    ActionKind,
    Bid,
    Bidder,
    Calcutta,
    CalcuttaStatus,
    Holding,
    Lot,
    LotPhase,
    OwnerLine,
    OwnerTransfer,
    Payout,
    SyndicateOffer,
)
from clubs import access
from clubs import selectors as club_selectors
from clubs.models import Membership, Player
from ratings.core.fibs import START_RATING
from ratings.selectors import player_ratings
from tournaments.models import Entry, Event, Flight, Pairing, PairingResult, Slot, SlotResult
from tournaments.selectors import flight_chances

BOARD_BIDS = 6  # the latest bids on the lot that is up, shown on the board


def visible_calcuttas(*, user) -> QuerySet[Calcutta]:
    """Public events' Calcuttas (at clubs the user may see) for everyone; others to the event's directors and the
    club's members.

    Each way in is an EXISTS on its own, not a join: joins through the directors and the memberships gave one
    row per way in and needed a DISTINCT over every column, which every bid paid for (its Calcutta is looked up
    through here)."""
    calcuttas = Calcutta.objects.select_related("flight__event__club")
    # A public event at a public club is visible to everyone (bidder_to_bid_as relies on it without a query).
    if getattr(user, "is_superuser", False):
        return calcuttas
    clubs = club_selectors.visible_clubs(user=user)
    condition = Q(flight__event__is_public=True, flight__event__club__in=clubs)
    if getattr(user, "is_authenticated", False):
        directs = Event.directors.through.objects.filter(event_id=OuterRef("flight__event_id"), user=user)
        member = Membership.objects.filter(
            club_id=OuterRef("flight__event__club_id"), player__user=user, is_active=True
        )
        condition |= Exists(directs) | Exists(member)
    return calcuttas.filter(condition)


def newest_calcuttas(*, user, club=None, event=None) -> QuerySet[Calcutta]:
    """The Calcuttas the user may see, newest first; of one club's or one event's flights when given."""
    calcuttas = visible_calcuttas(user=user)
    if club is not None:
        calcuttas = calcuttas.filter(flight__event__club=club)
    if event is not None:
        calcuttas = calcuttas.filter(flight__event=event)
    return calcuttas.order_by("-created_at", "-id")


def calcutta_for(*, user, pk: int) -> Calcutta:
    """The Calcutta if the user may see it; Calcutta.DoesNotExist otherwise."""
    return visible_calcuttas(user=user).get(pk=pk)


def calcutta_by_pk(pk: int) -> Calcutta | None:
    """A Calcutta by id with its flight, event and club, or None: for a live board whose socket was already allowed
    to watch it (base.live)."""
    return Calcutta.objects.select_related("flight__event__club").filter(pk=pk).first()


def flights_to_start(*, user) -> QuerySet:
    """Flights without a Calcutta at events the user directs (named director, club director or admin), whose first
    round has not started: a Calcutta is sold before anyone plays."""
    started = Slot.objects.filter(flight=OuterRef("pk"), round=1).filter(
        Q(match__started_at__isnull=False)
        | Q(result__in=[SlotResult.PLAYED, SlotResult.WALKOVER, SlotResult.DOUBLE_FORFEIT])
    )
    table_started = Pairing.objects.filter(flight=OuterRef("pk"), round=1).filter(  # a flight played in rounds
        Q(match__started_at__isnull=False)
        | Q(result__in=[PairingResult.PLAYED, PairingResult.FORFEIT, PairingResult.DOUBLE_FORFEIT])
    )
    flights = (
        Flight.objects.select_related("event")
        .filter(calcutta__isnull=True)
        .exclude(Exists(started))
        .exclude(Exists(table_started))
        .order_by("-event__starts_on", "id")
    )
    if user.is_superuser:
        return flights
    directs_club = Q(event__club__in=club_selectors.directed_clubs(user=user))
    return flights.filter(Q(event__directors=user) | directs_club).distinct()


def club_players(*, calcutta: Calcutta) -> QuerySet:
    """The players of the event's club (members by their own acceptance, and its walk-ins), by name: whom the
    director may register as bidders."""
    club = calcutta.flight.event.club_id
    return Player.objects.filter(memberships__club=club, memberships__is_active=True).order_by("name")


def display_order(calcutta: Calcutta, numbers: list[int]) -> list[int]:
    """Lot numbers in auction order (the director's, or drawn from the stored seed); the field is not in it."""
    if calcutta.order and sorted(calcutta.order) == sorted(numbers):
        return list(calcutta.order)
    return list(core.random_order(numbers, seed=calcutta.seed))


def _entry_prefetch():
    return Prefetch("entries", queryset=Entry.objects.select_related("player").order_by("pk"))


def lots_in_order(calcutta: Calcutta) -> list[Lot]:
    """The lots with their entrants, in auction order, the field last (3 queries)."""
    lots = list(calcutta.lots.select_related("high_bidder", "buyer").prefetch_related(_entry_prefetch()))
    regular = {lot.number: lot for lot in lots if not lot.is_field}
    ordered = [regular[n] for n in display_order(calcutta, list(regular))]
    return ordered + [lot for lot in lots if lot.is_field]


def minimum_next_bid(calcutta: Calcutta, lot: Lot) -> int:
    return calcutta.minimum_opening_bid if lot.high_bid is None else lot.high_bid + calcutta.increment


def display_money(cents: int) -> str:
    """Cents as the reader writes money: 1234.50 in English, 1234,50 in German (the pages' and the board's
    `_display` strings; the amounts themselves stay integer cents)."""
    return number_format(Decimal(int(cents)) / 100, decimal_pos=2)


def _lot_data(calcutta: Calcutta, lot: Lot) -> dict:
    return {
        "number": lot.number,
        "label": str(lot),
        "is_field": lot.is_field,
        # the board is the same for everyone watching: the public names (the event's club decides)
        "entrants": [entry.player.public_name_at(calcutta.flight.event.club) for entry in lot.entries.all()],
        "phase": lot.phase,
        "phase_label": str(LotPhase(lot.phase).label),
        "high_bid": lot.high_bid,
        "high_bid_display": display_money(lot.high_bid) if lot.high_bid is not None else None,
        "high_bidder": lot.high_bidder.name if lot.high_bidder else None,
        "price": lot.price,
        "price_display": display_money(lot.price) if lot.price is not None else None,
        "buyer": lot.buyer.name if lot.buyer else None,
        "finish": lot.finish,
    }


def board(*, calcutta: Calcutta) -> dict:
    """What the public board and the auctioneer's screen show, as plain data (the board's JSON)."""
    lots = lots_in_order(calcutta)
    total = sum(lot.price or 0 for lot in lots)
    current = next((lot for lot in lots if lot.pk == calcutta.current_lot_id), None)
    data_current = None
    if current is not None:
        bids = Bid.objects.filter(lot=current).select_related("bidder").order_by("-step")[:BOARD_BIDS]
        data_current = _lot_data(calcutta, current) | {
            "minimum_next_bid": minimum_next_bid(calcutta, current),
            "minimum_next_bid_display": display_money(minimum_next_bid(calcutta, current)),
            "bids": [{"bidder": bid.bidder.name, "amount_display": display_money(bid.amount)} for bid in bids],
        }
    last_sale = None
    if current is None and calcutta.status == CalcuttaStatus.OPEN and calcutta.steps:
        # Right after the hammer the room still wants to see who bought the lot: the last step, if it was a sale.
        last = calcutta.actions.order_by("-step").values("action", "lot_id").first()
        sold = next((lot for lot in lots if last and lot.pk == last["lot_id"]), None)
        if last and last["action"] == "sell" and sold is not None and sold.phase == LotPhase.SOLD:
            last_sale = _lot_data(calcutta, sold)
    return {
        "id": calcutta.pk,
        "name": str(calcutta.flight),
        "status": calcutta.status,
        "status_label": str(CalcuttaStatus(calcutta.status).label),
        "version": calcutta.steps,
        "total": total,
        "total_display": display_money(total),
        "sold": sum(1 for lot in lots if lot.phase == LotPhase.SOLD),
        "lots_count": len(lots),
        "current": data_current,
        "last_sale": last_sale,
        "lots": [_lot_data(calcutta, lot) for lot in lots],
    }


def auctioneer_steps(*, calcutta: Calcutta, current: dict | None) -> dict[str, bool]:
    """Which of the auctioneer's steps fit the auction's state now (the board's current lot): the others are
    shown disabled. One query (the last step, for undo)."""
    phase = current["phase"] if current else None
    running = calcutta.status == CalcuttaStatus.OPEN
    last = calcutta.actions.order_by("-step").first()
    return {
        ActionKind.OPEN: calcutta.status == CalcuttaStatus.SETUP,
        ActionKind.OPEN_NEXT_LOT: running and current is None,
        ActionKind.GOING_ONCE: phase == LotPhase.OPEN and current["high_bid"] is not None,
        ActionKind.GOING_TWICE: phase == LotPhase.GOING_ONCE,
        ActionKind.SELL: phase == LotPhase.GOING_TWICE,
        ActionKind.PASS_LOT: phase == LotPhase.OPEN and current["high_bid"] is None,
        ActionKind.UNDO_LAST: running
        and current is None
        and last is not None
        and last.action in (ActionKind.SELL, ActionKind.PASS_LOT),
        ActionKind.CLOSE: running and current is None,
    }


def bidders(*, calcutta: Calcutta) -> QuerySet[Bidder]:
    """Bidders with what they owe (amount_due, cents) by their holdings (a query, so the API reads one page)."""
    return (
        calcutta.bidders.annotate(amount_due=Sum("holdings__amount_due"))
        .select_related("player")
        .order_by("name", "id")
    )


def holdings(*, calcutta: Calcutta, lot_number: int | None = None) -> QuerySet[Holding]:
    """Who holds what share of each lot (of one lot when a number is given; 0 is the field), lot by lot."""
    rows = Holding.objects.filter(lot__calcutta=calcutta).select_related("lot", "bidder")
    if lot_number is not None:
        rows = rows.filter(lot__number=lot_number)
    return rows.order_by("lot__number", "bidder_id")


def current_settlement(calcutta: Calcutta):
    return calcutta.settlements.filter(is_current=True).first()


def owner_report(*, calcutta: Calcutta, bidder: Bidder) -> dict:
    """One owner's page: lots held with shares and amounts due, paid flag, and (once settled) won and net."""
    holdings = list(
        Holding.objects.filter(bidder=bidder, lot__calcutta=calcutta)
        .select_related("lot", "bidder")
        .prefetch_related(Prefetch("lot__entries", queryset=_entry_prefetch().queryset))
        .order_by("lot__is_field", "lot__number")
    )
    settlement = current_settlement(calcutta)
    won_by_lot = {}
    line = None
    if settlement is not None:
        won_by_lot = dict(Payout.objects.filter(settlement=settlement, bidder=bidder).values_list("lot_id", "amount"))
        line = settlement.owner_lines.filter(bidder=bidder).first()
    paid_in = sum(h.amount_due for h in holdings)
    return {
        "bidder": bidder,
        "holdings": [{"holding": h, "won": won_by_lot.get(h.lot_id, 0)} for h in holdings],
        "paid_in": paid_in,
        "won": line.won if line else None,
        "net": line.net if line else None,
        "settlement": settlement,
    }


def owners_money_for(user, calcutta: Calcutta, rows: Sequence, *, sees_all: bool | None = None) -> list:
    """The rows naming an owner's money (owner lines, settle-up transfers: anything with a `bidder`) that `user`
    may see by `calcutta.see_owner_report`: every row for the event's directors, their own for an owner, none
    for anyone else. Others' rows are left out before the rule is asked, so no row costs a query; `sees_all`
    is the caller's answer to `calcutta.direct` when it has one (asking costs two queries)."""
    if not access.is_signed_in(user):
        return []
    if sees_all is None:
        sees_all = access.can(user, "calcutta.direct", calcutta)
    if sees_all:
        return list(rows)
    return [
        row
        for row in rows
        if row.bidder.user_id == user.pk and access.can(user, "calcutta.see_owner_report", row.bidder)
    ]


def settlement_report(*, calcutta: Calcutta, user) -> dict:
    """The printable report: pool, take, net pool, unclaimed, each lot's finish and prize (public, as the board
    shows who bought which lot), and the owners' lines `user` may see (`owners_money_for`); `sees_all` (a
    director) says the lines are all of them, so the totals are shown."""
    settlement = current_settlement(calcutta)
    sees_all = access.is_signed_in(user) and access.can(user, "calcutta.direct", calcutta)
    lots = lots_in_order(calcutta)
    holdings = Holding.objects.filter(lot__calcutta=calcutta).select_related("bidder")
    owners_by_lot: dict[int, list[Holding]] = {}
    for holding in holdings:
        owners_by_lot.setdefault(holding.lot_id, []).append(holding)
    lines = []
    prizes = {}
    if settlement is not None:
        every_line = list(settlement.owner_lines.select_related("bidder").order_by("bidder__name"))
        lines = owners_money_for(user, calcutta, every_line, sees_all=sees_all)
        prizes = {int(number): prize for number, prize in settlement.lot_prizes.items()}
    return {
        "settlement": settlement,
        "lots": [
            {"lot": lot, "owners": owners_by_lot.get(lot.pk, []), "prize": prizes.get(lot.number)}
            for lot in lots
            if lot.phase == LotPhase.SOLD or lot.is_field
        ],
        "lines": lines,
        "sees_all": sees_all,
        "total_paid_in": sum(line.paid_in for line in lines),
        "total_won": sum(line.won for line in lines),
    }


def owner_transfers(calcutta: Calcutta, *, user, sees_all: bool | None = None) -> list[OwnerTransfer]:
    """The owners' settle-ups with the club that `user` may see (`owners_money_for`), by owner name (one query)."""
    rows = calcutta.transfers.select_related("bidder").order_by("bidder__name", "pk")
    return owners_money_for(user, calcutta, rows, sees_all=sees_all)


def propose_lots(
    *, calcutta: Calcutta, style: str, singles: int = 0, group_size: int = 2, field: int = 0
) -> list[list[int]]:
    """An automatic grouping by rating for the director to edit: lists of entry ids (see core.group_by_rating)."""
    entries = list(calcutta.flight.entries.order_by("pk"))
    ratings = player_ratings(player_ids=[e.player_id for e in entries], club_id=calcutta.flight.event.club_id)
    by_entry = {entry.pk: ratings.get(entry.player_id, START_RATING) for entry in entries}
    return [
        list(group)
        for group in core.group_by_rating(by_entry, style=style, singles=singles, group_size=group_size, field=field)
    ]


def player_holdings(*, user, player) -> list[dict]:
    """The player's bidder rows at Calcuttas the user may see, with paid in, won and net (3 queries): an owner's
    money, so only the rows `calcutta.see_owner_report` lets the user see, the player's own and those of the
    Calcuttas the user directs (asked once per Calcutta of someone else's rows; nothing for a visitor not signed
    in, who before saw every player's paid in, won and net on their page)."""
    if not access.is_signed_in(user):
        return []
    bidders = list(
        Bidder.objects.filter(player=player, calcutta__in=visible_calcuttas(user=user))
        .select_related("calcutta__flight__event")
        .annotate(amount_due=Sum("holdings__amount_due"))
        .order_by("-calcutta__created_at")[:20]
    )
    seen: dict[int, bool] = {}
    for bidder in bidders:
        if bidder.user_id != user.pk and bidder.calcutta_id not in seen:
            seen[bidder.calcutta_id] = access.can(user, "calcutta.see_owner_report", bidder)
    bidders = [b for b in bidders if b.user_id == user.pk or seen[b.calcutta_id]]
    lines = {line.bidder_id: line for line in OwnerLine.objects.filter(bidder__in=bidders, settlement__is_current=True)}
    return [{"bidder": b, "paid_in": b.amount_due or 0, "line": lines.get(b.pk)} for b in bidders if b.amount_due]


def syndicate_offers(*, calcutta: Calcutta, user, bidder: Bidder | None = None) -> list[SyndicateOffer]:
    """The syndicate offers the user may see, newest first: all of them for a director, else those naming the
    user's own bidder (as holder or member). With `bidder`, only those naming that bidder."""
    offers = list(calcutta.syndicate_offers.select_related("lot", "holder", "calcutta"))
    if bidder is not None:
        offers = [o for o in offers if bidder.pk in o.parties()]
    if not offers or access.can(user, "calcutta.direct", calcutta):
        return offers
    if not getattr(user, "is_authenticated", False):
        return []
    mine = set(calcutta.bidders.filter(user=user).values_list("pk", flat=True))
    return [o for o in offers if o.parties() & mine]


# --- lookups for the pages and the API (they query nothing themselves) -----------------------------------


class EntryRef(NamedTuple):
    """An entrant as a bid needs it: a bid under the Calcutta's lock built a hundred Entry rows it never used."""

    pk: int
    player_id: int


def calcutta_entries(calcutta: Calcutta, *, refs: bool = False) -> list:
    """The entrants: fixed when the auction opens; before that every entry of the flight that has not withdrawn
    and is not out already (an eliminated player is never a lot). With `refs`, as EntryRef (id and player)."""
    if refs:  # every bid restores the auction with these (services.state.load): compiled once per process
        rows = (
            _FIXED_ENTRY_REFS.all(calcutta.flight_id, *calcutta.entrants)
            if calcutta.entrants
            else _OPEN_ENTRY_REFS.all(calcutta.flight_id)
        )
        return [EntryRef(pk, player) for pk, player in rows]
    entries = _entries(calcutta.flight_id)
    if calcutta.entrants:
        entries = entries.filter(pk__in=calcutta.entrants)
    else:
        entries = entries.exclude(status="withdrawn").filter(place__isnull=True)
    return list(entries)


def _entries(flight_id: int) -> QuerySet[Entry]:
    return Entry.objects.filter(flight_id=flight_id).order_by("pk")  # no need to load the flight


_FIXED_ENTRY_REFS = CompiledRead(
    lambda flight_id, *entrants: _entries(flight_id).filter(pk__in=entrants).values_list("pk", "player_id")
)
_OPEN_ENTRY_REFS = CompiledRead(
    lambda flight_id: (
        _entries(flight_id).exclude(status="withdrawn").filter(place__isnull=True).values_list("pk", "player_id")
    )
)
_LOT_MEMBERS = CompiledRead(
    lambda calcutta_id: (
        Lot.entries.through.objects.filter(lot__calcutta_id=calcutta_id).order_by().values_list("lot_id", "entry_id")
    )
)


def lot_members(calcutta: Calcutta) -> dict[int, list[int]]:
    """Each lot's entries (ids), from the lot-entry table alone."""
    members: dict[int, list[int]] = {}
    for lot_id, entry_id in _LOT_MEMBERS.all(calcutta.pk):
        members.setdefault(lot_id, []).append(entry_id)
    return members


def flight_by_id(pk: int):
    """The flight a Calcutta is to be created for (None if there is none; the service checks who may)."""
    return Flight.objects.select_related("event").filter(pk=pk).first()


def bidder_at(calcutta: Calcutta, pk) -> Bidder | None:
    """A bidder of this Calcutta; None for an unknown id or another Calcutta's bidder."""
    return calcutta.bidders.filter(pk=pk).first()


# What a bid reads before the lock, besides the bidder: the Calcutta's status, increment and self-bidding rule
# (services.auction._refuse_a_beaten_bid) and whether its event is public at a public club. The Calcutta's
# JSON columns, the flight's variant and the event's and club's other columns cost every bid their decoding
# and model building for nothing: the locked path reloads the Calcutta whole, and a deferred column read
# after all costs a query, never a wrong answer.
BID_LOOKUP_FIELDS = (
    *(field.name for field in Bidder._meta.concrete_fields),
    "calcutta__status",
    "calcutta__increment",
    "calcutta__self_bidding",
    "calcutta__flight__event__is_public",
    "calcutta__flight__event__club__is_public",
)


# bidder_to_bid_as's one query, compiled once per process (base.compiled): every bid sends it. Unordered, as get()
# would send it (first() sorted by the default ordering).
_BIDDER_TO_BID_AS = CompiledRead(
    lambda pk, calcutta_id: (
        Bidder.objects.select_related("calcutta__flight__event__club")
        .only(*BID_LOOKUP_FIELDS)
        .filter(pk=pk, calcutta_id=calcutta_id)
        .order_by()[:1]
    )
)


def bidder_to_bid_as(*, user, calcutta_pk, bidder_pk) -> Bidder | None:
    """The bidder with its Calcutta (its flight, event and club joined: BID_LOOKUP_FIELDS), if the user may see
    that Calcutta; None for an unknown bidder, another Calcutta's or a Calcutta hidden from the user (the caller
    tells which apart).

    Why not the Calcutta through `visible_calcuttas`, then the bidder: every bid paid for building and compiling
    that query's EXISTS conditions (about 3 ms of Python each, more than the rest of a refused bid's queries
    together). Here one plain query finds both rows; the visibility query runs only when the event is not public
    at a public club, the case `visible_calcuttas` lets everyone see."""
    calcutta_id = numbers.parse_id(calcutta_pk)  # from the URL: a malformed id, or one past bigint, is no row's
    bidder_id = numbers.parse_id(bidder_pk)
    if calcutta_id is None or bidder_id is None:
        return None
    bidder = _BIDDER_TO_BID_AS.first(bidder_id, calcutta_id)
    if bidder is None:
        return None
    event = bidder.calcutta.flight.event
    if event.is_public and event.club.is_public:
        return bidder
    return bidder if visible_calcuttas(user=user).filter(pk=bidder.calcutta_id).exists() else None


@functools.cache
def _committed_high_bid_sql(alias: str, phases: int, player: bool) -> str:
    """committed_high_bid's statement, built once per database, number of phases and shape (the table and column
    names from the models, quoted as the database quotes them)."""
    quote = connections[alias].ops.quote_name
    lot, members, entry = Lot._meta, Lot.entries.through._meta, Entry._meta
    lot_table, members_table, entry_table = (quote(m.db_table) for m in (lot, members, entry))

    def column(meta, name: str) -> str:
        return quote(meta.get_field(name).column)

    sql = (
        f"SELECT l.{column(lot, 'high_bid')} FROM {lot_table} l"  # names from the models; values bound
        f" WHERE l.{column(lot, 'calcutta')} = %s AND l.{column(lot, 'number')} = %s"
        f" AND l.{column(lot, 'phase')} IN ({', '.join(['%s'] * phases)}) AND l.{column(lot, 'high_bid')} IS NOT NULL"
    )
    if player:
        sql += (
            f" AND NOT EXISTS (SELECT 1 FROM {members_table} m INNER JOIN {entry_table} e"
            f" ON m.{column(members, 'entry')} = e.{quote(entry.pk.column)}"
            f" WHERE m.{column(members, 'lot')} = l.{quote(lot.pk.column)} AND e.{column(entry, 'player')} = %s)"
        )
    return sql + f" ORDER BY l.{quote(lot.pk.column)} LIMIT 1"


def committed_high_bid(
    *, calcutta_id: int, lot_number: int, phases: Sequence[str], not_a_lot_of_player: int | None = None
) -> int | None:
    """The committed high bid on lot `lot_number` while it is in one of `phases`; None when it has none, is in
    another phase, or is a lot the player `not_a_lot_of_player` is in.

    Why written out: the one read most bids on a busy lot end with (services.auction._refuse_a_beaten_bid), and
    the ORM spent twice the statement's own cost building and compiling it (its NOT EXISTS most of all) on
    every bid. The statement is built once (`_committed_high_bid_sql`); each bid only binds its values."""
    alias = Lot.objects.db
    sql = _committed_high_bid_sql(alias, len(phases), not_a_lot_of_player is not None)
    params: list = [calcutta_id, lot_number, *(str(phase) for phase in phases)]
    if not_a_lot_of_player is not None:
        params.append(not_a_lot_of_player)
    with connections[alias].cursor() as cursor:
        cursor.execute(sql, params)
        row = cursor.fetchone()
    return None if row is None else row[0]


def bidder_of_user(calcutta: Calcutta, user) -> Bidder | None:
    """The visitor's own bidder at this Calcutta (None when they have none or are not signed in)."""
    if not getattr(user, "is_authenticated", False):
        return None
    return calcutta.bidders.filter(user=user).first()


def bidders_by_name(calcutta: Calcutta) -> list[Bidder]:
    """Every bidder, by name: the choices of the bid form."""
    return list(calcutta.bidders.order_by("name", "id"))


def bidder_names(calcutta: Calcutta) -> dict[int, str]:
    return dict(calcutta.bidders.values_list("pk", "name"))


def club_player(calcutta: Calcutta, pk: int):
    """A player of the event's club by id (None otherwise): whom the API may name when registering a bidder."""
    return Player.objects.filter(pk=pk, memberships__club=calcutta.flight.event.club_id).first()


def user_by_id(pk: int):
    return get_user_model().objects.filter(pk=pk).first()


def bids(*, calcutta: Calcutta) -> QuerySet[Bid]:
    """Every bid in the order it was placed."""
    return calcutta.bids.select_related("lot", "bidder").order_by("step")


def offer_at(calcutta: Calcutta, pk) -> SyndicateOffer | None:
    return calcutta.syndicate_offers.filter(pk=pk).select_related("holder", "calcutta").first()


def waiting_names(offer: SyndicateOffer) -> list[str]:
    """The names of the bidders an offer still waits for, sorted."""
    return sorted(b.name for b in offer.calcutta.bidders.filter(pk__in=offer.waiting_for()))


def owner_lines(settlement, *, user) -> list[OwnerLine]:
    """The settlement's owner lines `user` may see (`owners_money_for`), by owner name."""
    rows = settlement.owner_lines.select_related("bidder").order_by("bidder__name")
    return owners_money_for(user, settlement.calcutta, rows)


def lot_rows(calcutta: Calcutta, proposal=None) -> list[dict]:
    """One row per entrant with the lot number it is in (blank: the field), for the lots editor; `proposal` (lists
    of entry ids, lot 1 first) fills in a grouping that is not saved yet."""
    lot_of = {}
    if proposal is not None:
        lot_of = {entry_id: number for number, group in enumerate(proposal, start=1) for entry_id in group}
    else:
        for lot in calcutta.lots.filter(is_field=False).prefetch_related("entries"):
            for entry in lot.entries.all():
                lot_of[entry.pk] = lot.number
    entries = calcutta_entries(calcutta)
    players = {e.pk: e for e in calcutta.flight.entries.select_related("player").filter(pk__in=[e.pk for e in entries])}
    return [{"entry": players[e.pk], "lot": lot_of.get(e.pk, "")} for e in entries]


def offer_rows(*, calcutta: Calcutta, user, bidder: Bidder) -> list[dict]:
    """The syndicate offers naming this bidder that the visitor may see, each with its parties' answers and
    whether the visitor can answer it now."""
    offers = syndicate_offers(calcutta=calcutta, user=user, bidder=bidder)
    if not offers:
        return []
    bidders = {b.pk: b for b in calcutta.bidders.all()}
    rows = []
    for offer in offers:
        waiting = [bidders[pk] for pk in offer.waiting_for() if pk in bidders]
        rows.append(
            {
                "offer": offer,
                "members": [
                    (bidders.get(int(pk)), share, int(pk) in offer.consents) for pk, share in offer.shares.items()
                ],
                "waiting": waiting,
                "can_answer": offer.status == "pending"
                and any(access.can(user, "calcutta.consent_for", b) for b in waiting),
            }
        )
    return rows


def fair_values(*, calcutta: Calcutta, lots: list[Lot] | None = None) -> dict | None:
    """Each lot's fair value: its entrants' expected share of the net pool (their place chances in the flight,
    tournaments.selectors.flight_chances, computed once per flight version, and the payout table) times the net
    pool at the pot so far (the lots sold). None while the flight's chances are not computed or the table is
    not valid. {"pot", "net", "method", "lots": {lot id: {"share", "value"}}}."""
    figures = flight_chances(flight=calcutta.flight)
    if figures is None:
        return None
    try:
        payout = core.PayoutTable.of([str(p) for p in calcutta.payout_places], str(calcutta.consolation_percent))
        settings = core.CalcuttaSettings(payout=payout, house_take_percent=Decimal(calcutta.house_take_percent))
    except core.CalcuttaError:
        return None
    shares = fair.expected_shares(payout, {e.entry_id: e.places for e in figures.entrants}, figures.holders)
    lots = lots_in_order(calcutta) if lots is None else lots
    pot = sum(lot.price or 0 for lot in lots)
    net = fair.net_pool(pot, settings)
    by_lot = {}
    for lot in lots:
        share = fair.lot_share([e.pk for e in lot.entries.all()], shares)
        by_lot[lot.pk] = {"lot": lot, "share": share, "value": fair.fair_value(net, share)}
    return {"pot": pot, "net": net, "method": figures.method, "lots": by_lot}
