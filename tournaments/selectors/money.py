"""The prize list: every flight's pool and who holds each paid place so far."""

from __future__ import annotations

from dataclasses import dataclass, replace

from django.db.models import Count, Q, Sum

from clubs.models import Player
from clubs.names import shown_name
from tournaments.core import chances, payout_tables, payouts
from tournaments.messages import PRESET_NAMES
from tournaments.models import ClubPayoutTable, Entry, Flight, FlightChange, PrizePayment
from tournaments.selectors.chances import flight_chances
from tournaments.selectors.events import flight_placements

# --- money ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Winner:
    player_id: int
    name: str
    amount: int  # cents this player wins
    paid: int | None  # cents the club marked paid, None while not
    received: bool = False  # the winner (or a director) confirmed it arrived


@dataclass(frozen=True)
class TableAward:
    place: int
    covers: tuple[int, ...]  # the paid places a tie covers (one place without a tie)
    winners: tuple[Winner, ...]

    @property
    def label(self) -> str:
        return f"{self.covers[0]}–{self.covers[-1]}" if len(self.covers) > 1 else str(self.place)


@dataclass(frozen=True)
class PaidPlace:
    place: int
    percent: object  # Decimal, rounded for showing
    amount: int


@dataclass(frozen=True)
class TablePrizes:
    """A flight shared by a payout table that grows with the field (tournaments.core.payout_tables)."""

    name: str
    house_percent: object  # Decimal
    pool: payout_tables.Pool
    places: tuple[PaidPlace, ...]
    awards: tuple[TableAward, ...]


@dataclass(frozen=True)
class FlightPrizes:
    flight: Flight
    entries: int
    payout: object  # tournaments.core.payouts.Payout
    paid_from: tuple = ()  # names of the flights whose templates pay this flight's places
    # (name, expected cents) per entrant, most first, while the flight's chances are computed (selectors.chances)
    expected: tuple = ()
    table: TablePrizes | None = None


def table_of(flight: Flight) -> tuple[str, payout_tables.PayoutTable] | None:
    """The flight's payout table and its name, None when it has none (the fixed template, if any, applies)."""
    if flight.club_payout_table_id:
        own = flight.club_payout_table
        return own.name, payout_tables.parse_bands(own.bands)
    if flight.payout_table:
        return str(preset_name(flight.payout_table)), payout_tables.preset(flight.payout_table)
    return None


def preset_name(key: str):
    """A preset's name in the reader's language."""
    return PRESET_NAMES.get(key) or payout_tables.PRESETS[key][0]


def presets() -> list[tuple[str, object, payout_tables.PayoutTable]]:
    """The preset tables: (key, translated name, table)."""
    return [(key, preset_name(key), table) for key, (_name, table) in payout_tables.PRESETS.items()]


def club_payout_tables(*, club) -> list[ClubPayoutTable]:
    return list(ClubPayoutTable.objects.filter(club=club))


def _table_prizes(flight, event, places, names, paid) -> TablePrizes | None:
    found = table_of(flight)
    if found is None:
        return None
    name, table = found
    house_percent = flight.house_percent if flight.house_percent is not None else event.house_percent
    pool = payout_tables.make_pool(
        collected=payouts.to_cents(flight.pool or 0),
        entries=flight.n,
        house_percent=house_percent,
        house_fixed=payouts.to_cents(flight.house_fixed),
        added=payouts.to_cents(flight.added_money),
    )
    shares = table.shares(max(flight.n, 2))
    amounts = payout_tables.split(pool.net, shares)
    rows = tuple(
        PaidPlace(i + 1, percent, amount)
        for i, (percent, amount) in enumerate(zip(table.percents(max(flight.n, 2)), amounts, strict=True))
    )
    standings = {place: ids for (flight_id, place), ids in places.items() if flight_id == flight.pk}
    awards = tuple(
        TableAward(
            a.place,
            a.covers,
            tuple(
                Winner(pid, names.get(pid, "?"), each, *paid.get((flight.pk, pid), (None, False)))
                for pid, each in zip(a.holders, a.each, strict=True)
            ),
        )
        for a in payout_tables.award(amounts, standings)
        if a.covers
    )
    return TablePrizes(name, house_percent, pool, rows, awards)


# An entry withdrawn before the draw and kept for its payment lines (Entry.kept_fee) is not in the field: its fee
# is refunded or kept by the club (tournaments.services.entries), never the prize pool's.
IN_FIELD = Q(entries__kept_fee__isnull=True)


def prize_list(*, event, viewer=None) -> list[FlightPrizes]:
    """Each flight's pool (fees of its entries and re-entries), the house's share and the template's lines
    with who holds each place so far; a flight without a template of its own is listed too, with its pool and the
    flights whose templates pay its places. A flight with a payout table that grows with the field also gets its
    pool (house take, added money, return %), the table's places for its field and who won each, with the prizes
    recorded as paid. Three queries (four when a flight has a table), two more per side pool or knockout with a
    playoff for 2nd; the expected prizes one (the paid flights' versions) and two per paid knockout whose chances
    are not cached for its version yet (its slots, the ratings)."""
    flights = list(
        event.flights.select_related("club_payout_table")
        .annotate(pool=Sum("entries__fee", filter=IN_FIELD), n=Count("entries", filter=IN_FIELD))
        .order_by("order", "id")
    )
    by_slug = {f.slug: f for f in flights}
    places: dict[tuple[int, int], list[int]] = {}
    # A side pool ranks by its source, a knockout with a playoff for 2nd by the playoff: their placements are
    # read (a query or two each), every other flight's from the stored places in one query.
    placed = [f for f in flights if f.kind == "side_pool" or f.playoff_second]
    for flight_id, place, player_id in (
        Entry.objects.filter(flight__event=event, place__isnull=False)
        .exclude(flight__in=placed)
        .values_list("flight_id", "place", "player_id")
    ):
        places.setdefault((flight_id, place), []).append(player_id)
    for pool in placed:
        for placement in flight_placements(flight=pool):
            if placement.place is not None:
                places.setdefault((pool.pk, placement.place), []).append(placement.player_id)
    for ids in places.values():
        ids.sort()  # a tie's odd cents go to the first named: the same one on every read
    # the winners as the viewer may see them on a page of the event's club (a display name where it allows them)
    names = {
        p.pk: shown_name(p, viewer=viewer, club=event.club)
        for p in Player.objects.filter(pk__in={p for ps in places.values() for p in ps}).only(
            "name", "display_name", "user_id"
        )
    }
    paid = (
        {
            (f, p): (amount, confirmed is not None)
            for f, p, amount, confirmed in PrizePayment.objects.filter(flight__event=event).values_list(
                "flight_id", "player_id", "amount_cents", "confirmed_at"
            )
        }
        if any(f.payout_table or f.club_payout_table_id for f in flights)
        else {}
    )
    out = []
    templates = {f.pk: payouts.validate_template(f.payout_template) if f.payout_template else [] for f in flights}
    for flight in flights:
        paid_from = tuple(
            other.name
            for other in flights
            if other.pk != flight.pk and any(share.flight == flight.slug for share in templates[other.pk])
        )
        shares = templates[flight.pk]
        holders = {}
        for share in shares:
            target = by_slug.get(share.flight, flight) if share.flight else flight
            holders[(share.flight, share.place)] = [names[p] for p in places.get((target.pk, share.place), [])]
        payout = payouts.compute(
            pool=payouts.to_cents(flight.pool or 0), house_percent=event.house_percent, shares=shares, holders=holders
        )
        table = _table_prizes(flight, event, places, names, paid)
        out.append(FlightPrizes(flight, flight.n, payout, paid_from, table=table))
    return _with_expected_prizes(out, by_slug)


def _with_expected_prizes(prizes: list[FlightPrizes], by_slug: dict) -> list[FlightPrizes]:
    """Each flight's entrants' expected prize from every template line that pays one of its places (its own, or
    another flight's template naming it) and from its payout table's places: Σ P(place) · the place's amount / the
    place's holders."""
    amounts: dict[int, dict[int, int]] = {}  # flight id -> place -> cents
    for prize in prizes:
        for line in prize.payout.lines:
            target = by_slug.get(line.share.flight, prize.flight) if line.share.flight else prize.flight
            row = amounts.setdefault(target.pk, {})
            row[line.share.place] = row.get(line.share.place, 0) + line.amount
        for place in prize.table.places if prize.table else ():
            row = amounts.setdefault(prize.flight.pk, {})
            row[place.place] = row.get(place.place, 0) + place.amount
    paid = [p.flight for p in prizes if p.flight.pk in amounts]
    versions = dict(
        FlightChange.objects.filter(flight__in=paid).values("flight").annotate(n=Count("id")).values_list("flight", "n")
    )
    for flight in paid:
        flight.version = versions.get(flight.pk, 0)  # the chances' cache key, for all of them in one query
    out = []
    for prize in prizes:
        figures = flight_chances(flight=prize.flight) if prize.flight.pk in amounts else None
        if figures is None:
            out.append(prize)
            continue
        places = {e.entry_id: e.places for e in figures.entrants}
        expected = chances.expected_prizes(places, amounts[prize.flight.pk], figures.expected_holders)
        names = {e.entry_id: e.name for e in figures.entrants}
        ranked = sorted(((names[e], round(v)) for e, v in expected.items()), key=lambda t: (-t[1], t[0]))
        out.append(replace(prize, expected=tuple(ranked)))
    return out
