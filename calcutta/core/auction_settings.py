"""A Calcutta's settings: house take, payout table, bidding steps, buy-back and self-bidding.

docs/calcutta.md: the pool minus a house take (e.g. 10%) is paid out by finish (e.g. 70/30, 50/30/20,
40/30/15/15; optionally a share for the consolation winner); the table must total 100%. A player may buy
back a share of themselves, commonly up to half, at the same fraction of the price.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from fractions import Fraction

from .errors import CalcuttaError
from .money import HUNDRED, parse_percent, parse_share


@dataclass(frozen=True)
class PayoutTable:
    """Percentages of the net pool by place: `places[0]` for the winner, `places[1]` the finalist, and so on.

    Knockout places come in tied groups (the two losing semi-finalists share places 3 and 4); the table still
    lists one percentage per place and tied entrants share their places' percentages equally.
    """

    places: tuple[Decimal, ...]
    consolation_winner: Decimal = Decimal(0)

    def __post_init__(self) -> None:
        if not self.places:
            raise CalcuttaError("empty_payout", "The payout table needs at least the winner's share.", field="payout")
        for place, percent in enumerate(self.places, start=1):
            parse_percent(percent, field=f"payout place {place}")
        parse_percent(self.consolation_winner, field="consolation_winner")
        total = sum(self.places, Decimal(0)) + self.consolation_winner
        if total != HUNDRED:
            raise CalcuttaError(
                "payout_not_100",
                f"The payout table totals {total.normalize():f}%; it must total exactly 100%.",
                field="payout",
                total=f"{total.normalize():f}",
            )

    @classmethod
    def of(cls, places: Sequence[str | int | Decimal], consolation_winner: str | int | Decimal = 0) -> PayoutTable:
        """From written percentages, e.g. PayoutTable.of(["50", "30", "10", "10"])."""
        return cls(
            places=tuple(parse_percent(p, field=f"payout place {i}") for i, p in enumerate(places, start=1)),
            consolation_winner=parse_percent(consolation_winner, field="consolation_winner"),
        )

    def share_of_places(self, first: int, count: int) -> Fraction:
        """The fraction of the net pool that places first … first+count−1 pay together (0 beyond the table)."""
        paid = self.places[first - 1 : first - 1 + count]
        return Fraction(sum(paid, Decimal(0))) / 100


@dataclass(frozen=True)
class CalcuttaSettings:
    """Everything the director sets before the auction opens. Amounts in cents."""

    payout: PayoutTable
    house_take_percent: Decimal = Decimal(10)
    minimum_opening_bid: int = 100
    increment: int = 100
    buy_back_limit: Fraction = Fraction(1, 2)  # of the player's own part of a lot; 0 turns buy-backs off
    buy_back_deadline: datetime | None = None  # None: buy-backs until settlement
    self_bidding: bool = False  # may a player bid on a lot they are in?

    def __post_init__(self) -> None:
        take = parse_percent(self.house_take_percent, field="house_take_percent")
        if take == HUNDRED:
            raise CalcuttaError(
                "bad_percent", "A house take of 100% leaves nothing to pay out.", field="house_take_percent"
            )
        for name in ("minimum_opening_bid", "increment"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise CalcuttaError(
                    "bad_amount", f"The {name.replace('_', ' ')} must be at least 0.01 (in cents: ≥ 1).", field=name
                )
        deadline = self.buy_back_deadline
        if deadline is not None and deadline.utcoffset() is None:
            raise CalcuttaError(
                "bad_deadline", "Give the buy-back deadline with its time zone.", field="buy_back_deadline"
            )
        limit = Fraction(self.buy_back_limit)
        if limit != 0:
            parse_share(limit, field="buy_back_limit")
