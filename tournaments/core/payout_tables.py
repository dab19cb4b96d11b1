"""Payout tables that grow with the field: a flight's pool (fees, less the house's take, plus added money) shared
by a table whose number of paid places depends on how many entered.

Kinds of table, one class each behind `PayoutTable`:

- `BandedTable`: bands of field sizes ("2 to 8 entrants: 65/35", "9 to 16: 50/30/20", "33 and more: ...").
- `TopShareTable`: the top N% of the field is paid (at least one place), on a falling scale (the last paid place
  gets 1 part, the one above 2, ... the winner as many parts as places are paid).
- `WinnerTakesAll`: one place.

Rounding, in whole cents: each place gets floor(pool × its share); the cents left over (fewer than the paid
places) go one each to the highest places, 1st first, so the amounts always sum to the pool exactly. Players tied
at one place cover as many places as they are (two tied 3rd cover 3rd and 4th): they share those places' amounts
equally, the odd cents going to the first named. Places past the paid ones are worth nothing.

The house takes `house_percent` of the fees (rounded half up to the cent) plus `house_fixed` cents per entry, at
most all the fees; added money goes into the pool on top.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from math import ceil
from typing import ClassVar

from base.errors import DomainError
from base.numbers import NumberError, parse_decimal

MAX_FIELD = 4096  # no flight has more entries; a table answers for any field up to here
MAX_PLACES = 100  # places one band may pay
MAX_BANDS = 20
HUNDRED = Decimal(100)


class PayoutTableError(DomainError):
    """A payout table the rules refuse (always bad input, 400); the message says what would work."""


# --- tables ------------------------------------------------------------------------------------------------------


class PayoutTable(ABC):
    """What a table answers: for a field of n entries, the share of the pool of each paid place (1st first),
    exact fractions summing to 1."""

    kind: ClassVar[str]

    @abstractmethod
    def shares(self, field: int) -> tuple[Fraction, ...]: ...

    @abstractmethod
    def describe(self) -> list[tuple[str, tuple[Decimal, ...]]]:
        """Lines for a page: (which fields, the percentages of its places)."""

    def percents(self, field: int) -> tuple[Decimal, ...]:
        """The shares as percentages rounded to two decimals (for showing; amounts use the exact shares)."""
        return tuple(_percent(share) for share in self.shares(field))


def _percent(share: Fraction) -> Decimal:
    return (Decimal(share.numerator) * HUNDRED / Decimal(share.denominator)).quantize(
        Decimal("0.01"), rounding=ROUND_HALF_UP
    )


@dataclass(frozen=True)
class Band:
    low: int  # smallest field the band covers (2 for the first)
    high: int | None  # largest field it covers; None: any larger field
    percents: tuple[Decimal, ...]

    @property
    def label(self) -> str:
        return f"{self.low}+" if self.high is None else f"{self.low}–{self.high}"


class BandedTable(PayoutTable):
    kind = "bands"

    def __init__(self, bands: Sequence[Band]) -> None:
        self.bands = tuple(bands)

    def band(self, field: int) -> Band:
        for band in self.bands:
            if field >= band.low and (band.high is None or field <= band.high):
                return band
        return self.bands[0]  # a field of 1 (or 0) is paid as the smallest band

    def shares(self, field: int) -> tuple[Fraction, ...]:
        percents = self.band(field).percents[: max(field, 1)]
        total = sum(percents)
        return tuple(Fraction(p) / Fraction(total) for p in percents)  # total is 100 unless the field is tiny

    def describe(self) -> list[tuple[str, tuple[Decimal, ...]]]:
        return [(band.label, band.percents) for band in self.bands]

    def as_data(self) -> list[dict]:
        return [{"from": b.low, "to": b.high, "percents": [str(p) for p in b.percents]} for b in self.bands]


class TopShareTable(PayoutTable):
    kind = "top_share"

    def __init__(self, percent: int) -> None:
        self.percent = percent

    def places(self, field: int) -> int:
        return max(1, ceil(max(field, 1) * self.percent / 100))

    def shares(self, field: int) -> tuple[Fraction, ...]:
        paid = self.places(field)
        parts = paid * (paid + 1) // 2
        return tuple(Fraction(paid - i, parts) for i in range(paid))

    def describe(self) -> list[tuple[str, tuple[Decimal, ...]]]:
        return [(f"{n}", self.percents(n)) for n in (8, 16, 32, 64)]


class WinnerTakesAll(PayoutTable):
    kind = "winner"

    def shares(self, field: int) -> tuple[Fraction, ...]:
        return (Fraction(1),)

    def describe(self) -> list[tuple[str, tuple[Decimal, ...]]]:
        return [("2+", (HUNDRED,))]


def _bands(rows: Sequence[tuple[int, int | None, Sequence[str]]]) -> BandedTable:
    return BandedTable([Band(low, high, tuple(Decimal(p) for p in ps)) for low, high, ps in rows])


# The tables a director picks by key; a club's own tables are BandedTables read with `parse_bands`.
PRESETS: dict[str, tuple[str, PayoutTable]] = {
    "winner": ("Winner takes all", WinnerTakesAll()),
    "club": (
        "Club standard (2 places up to 8, 3 up to 16, 4 up to 32, 6 above)",
        _bands(
            [
                (2, 8, ("65", "35")),
                (9, 16, ("50", "30", "20")),
                (17, 32, ("45", "25", "15", "15")),
                (33, None, ("40", "20", "12", "12", "8", "8")),
            ]
        ),
    ),
    "top10": ("Top 10% of the field", TopShareTable(10)),
    "top25": ("Top 25% of the field", TopShareTable(25)),
}


def preset(key: str) -> PayoutTable:
    try:
        return PRESETS[key][1]
    except KeyError:
        raise PayoutTableError(
            "payout_table_unknown",
            f"No payout table {key!r}: choose one of {', '.join(PRESETS)} or one of the club's own.",
            "payout_table",
            key=key,
            known=", ".join(PRESETS),
        ) from None


# --- a club's own table: validation ----------------------------------------------------------------------------


def _refuse(code: str, message: str, **params: object) -> PayoutTableError:
    return PayoutTableError(code, message % params, "bands", **params)


def _whole(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise _refuse("band_bound", "A band's %(what)s is a whole number of entrants, e.g. 8.", what=what)
    try:
        number = int(str(value).strip()) if len(str(value)) <= 6 else -1
    except ValueError:
        number = -1
    if not 2 <= number <= MAX_FIELD:
        raise _refuse(
            "band_bound_range", "A band's %(what)s is between 2 and %(max)s entrants.", what=what, max=MAX_FIELD
        )
    return number


def parse_bands(data: object) -> BandedTable:
    """A club's table from [{"from": 2, "to": 8, "percents": ["65", "35"]}, ..., {"from": 33, "to": null, ...}].

    The bands, in order of "from", start at 2 entrants, follow on without a gap or an overlap and end open ("to"
    empty); each pays at most as many places as its smallest field has players, with percentages that total
    exactly 100 and do not rise from one place to the next."""
    if not isinstance(data, list | tuple) or not data:
        raise _refuse("bands_empty", "Give at least one band, e.g. from 2 entrants, open-ended, paying 100%%.")
    if len(data) > MAX_BANDS:
        raise _refuse("bands_too_many", "A table has at most %(max)s bands.", max=MAX_BANDS)
    rows = []
    for row in data:
        if not isinstance(row, Mapping) or "from" not in row or "percents" not in row:
            raise _refuse("band_shape", "Each band is {from, to, percents}; leave 'to' empty on the last band.")
        low = _whole(row["from"], "'from'")
        high = None if row.get("to") in (None, "") else _whole(row["to"], "'to'")
        percents_in = row["percents"]
        if not isinstance(percents_in, list | tuple) or not percents_in or len(percents_in) > MAX_PLACES:
            raise _refuse(
                "band_percents_shape", "A band pays 1 to %(max)s places: give their percentages.", max=MAX_PLACES
            )
        try:
            percents = tuple(
                parse_decimal(p, max_digits=6, decimal_places=2, min_value=Decimal("0.01"), max_value=100)
                for p in percents_in
            )
        except NumberError:
            raise _refuse(
                "band_percent_range", "Each place's percentage is more than 0 and at most 100, e.g. 12.5."
            ) from None
        rows.append(Band(low, high, percents))
    rows.sort(key=lambda b: b.low)
    if rows[0].low != 2:
        raise _refuse("bands_start", "The first band must start at 2 entrants (it starts at %(low)s).", low=rows[0].low)
    for band in rows:
        if band.high is not None and band.high < band.low:
            raise _refuse(
                "band_reversed",
                "Band %(band)s ends before it starts: make 'to' at least %(low)s.",
                band=band.label,
                low=band.low,
            )
        total = sum(band.percents, Decimal(0))
        if total < HUNDRED:
            raise _refuse(
                "band_under_100",
                "Band %(band)s totals %(total)s%%: its places must total exactly 100%% (add %(diff)s%%).",
                band=band.label,
                total=f"{total.normalize():f}",
                diff=f"{(HUNDRED - total).normalize():f}",
            )
        if total > HUNDRED:
            raise _refuse(
                "band_over_100",
                "Band %(band)s totals %(total)s%%: its places must total exactly 100%% (take away %(diff)s%%).",
                band=band.label,
                total=f"{total.normalize():f}",
                diff=f"{(total - HUNDRED).normalize():f}",
            )
        if len(band.percents) > band.low:
            raise _refuse(
                "band_too_many_places",
                "Band %(band)s pays %(places)s places but a field of %(low)s has only %(low)s players: start it at "
                "%(places)s or pay fewer places.",
                band=band.label,
                places=len(band.percents),
                low=band.low,
            )
        if any(later > earlier for earlier, later in zip(band.percents, band.percents[1:], strict=False)):
            raise _refuse(
                "band_rising",
                "Band %(band)s pays a lower place more than a higher one: list the percentages from "
                "1st down, largest first.",
                band=band.label,
            )
    for earlier, later in zip(rows, rows[1:], strict=False):
        if earlier.high is None or later.low <= earlier.high:
            raise _refuse(
                "bands_overlap",
                "Bands %(a)s and %(b)s overlap: start the second at %(next)s.",
                a=earlier.label,
                b=later.label,
                next=(earlier.high + 1) if earlier.high is not None else later.low,
            )
        if later.low > earlier.high + 1:
            raise _refuse(
                "bands_gap",
                "Fields of %(low)s to %(high)s entrants have no band: start band %(b)s at %(low)s.",
                low=earlier.high + 1,
                high=later.low - 1,
                b=later.label,
            )
    if rows[-1].high is not None:
        raise _refuse(
            "bands_open_end",
            "The last band (%(band)s) must be open-ended: leave its 'to' empty so any larger field is paid too.",
            band=rows[-1].label,
        )
    return BandedTable(rows)


# --- the pool and its split ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Pool:
    collected: int  # the fees, cents
    house: int
    added: int
    net: int  # what the places share: collected - house + added

    @property
    def return_percent(self) -> Decimal | None:
        """How much of what the players paid comes back to them as prizes (over 100 with added money)."""
        if not self.collected:
            return None
        return (Decimal(self.net) * HUNDRED / Decimal(self.collected)).quantize(Decimal("0.1"), ROUND_HALF_UP)


def make_pool(*, collected: int, entries: int, house_percent, house_fixed: int = 0, added: int = 0) -> Pool:
    """The pool of `collected` cents of fees from `entries` entries: the house's percentage (half up to the cent)
    and fixed take per entry come off, at most all the fees; added money goes on top."""
    percent_take = int((Decimal(collected) * Decimal(str(house_percent)) / HUNDRED).quantize(Decimal(1), ROUND_HALF_UP))
    house = min(collected, percent_take + house_fixed * entries)
    return Pool(collected, house, added, collected - house + added)


def split(net: int, shares: Sequence[Fraction]) -> tuple[int, ...]:
    """Cents per place: floor of each share, the leftover cents one each to the highest places."""
    amounts = [int(net * share) for share in shares]  # Fraction → int truncates: floor for net >= 0
    for i in range(net - sum(amounts)):
        amounts[i % len(amounts)] += 1
    return tuple(amounts)


@dataclass(frozen=True)
class Award:
    place: int  # the place the holders share (the first of the places they cover)
    covers: tuple[int, ...]  # the paid places they cover (empty: none paid)
    amount: int  # the covered places' amounts together
    holders: tuple[Hashable, ...]
    each: tuple[int, ...]


def award(amounts: Sequence[int], standings: Mapping[int, Sequence[Hashable]]) -> list[Award]:
    """Who gets what, from {place: holders}: k players tied at place p cover places p..p+k-1 and share their
    amounts equally, the odd cents to the first named."""
    out = []
    for place in sorted(standings):
        holders = tuple(standings[place])
        if not holders:
            continue
        covers = tuple(p for p in range(place, place + len(holders)) if p <= len(amounts))
        amount = sum(amounts[p - 1] for p in covers)
        base, extra = divmod(amount, len(holders))
        out.append(
            Award(place, covers, amount, holders, tuple(base + (1 if i < extra else 0) for i in range(len(holders))))
        )
    return out
