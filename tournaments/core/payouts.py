"""Pools and payouts in whole cents: entry fees and re-entries make the pool, the house keeps its percentage,
and a flight's template shares the rest by place, possibly across flights (e.g. 50/25/25 to the main's
winner, the main's finalist and the consolation's winner). Several players at one place (two losing
semi-finalists) split that line; cents that do not divide go to the earlier lines, then the earlier players."""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

from base.numbers import parse_decimal
from tournaments.core.errors import BracketError

MAX_PLACE = 1024  # no bracket has more places; also keeps a typed place from becoming a huge number


@dataclass(frozen=True)
class Share:
    flight: str  # "" = the pool's own flight
    place: int
    percent: Decimal


@dataclass(frozen=True)
class PaidLine:
    share: Share
    amount: int  # cents for the whole line
    holders: tuple[Hashable, ...]  # who holds the place (empty while undecided)
    each: tuple[int, ...]  # cents per holder


@dataclass(frozen=True)
class Payout:
    pool: int
    house: int
    net: int
    lines: tuple[PaidLine, ...]


def validate_template(template: Sequence[Mapping]) -> list[Share]:
    """Shares from a template like [{"flight": "main", "place": 1, "percent": 50}, ...]; they total 100%."""
    if not isinstance(template, (list, tuple)) or len(template) > MAX_PLACE:
        raise BracketError(
            "payout_template_not_list", "Give the payout template as a list of shares.", "payout_template"
        )
    shares, seen = [], set()
    for line in template:
        if not isinstance(line, Mapping):
            raise BracketError("payout_share_shape", "Each share is {flight, place, percent}.", "payout_template")
        try:
            place = line["place"]
            if isinstance(place, str) and len(place) > 6:
                raise ValueError(place)
            percent = parse_decimal(line["percent"], max_digits=7, decimal_places=4, min_value=0, max_value=100)
            share = Share(str(line.get("flight") or "")[:80], int(place), percent)
        except (KeyError, TypeError, ValueError, ArithmeticError):  # NumberError is a ValueError
            raise BracketError(
                "payout_share_incomplete", "Each share needs a place (1, 2, ...) and a percent.", "payout_template"
            ) from None
        if not 1 <= share.place <= MAX_PLACE or not Decimal("0") < share.percent <= Decimal("100"):
            raise BracketError(
                "payout_share_range", "A place is 1 or more and a percent between 0 and 100.", "payout_template"
            )
        if (share.flight, share.place) in seen:
            raise BracketError("payout_place_twice", "A place appears twice in the template.", "payout_template")
        seen.add((share.flight, share.place))
        shares.append(share)
    if shares and sum(s.percent for s in shares) != Decimal("100"):
        raise BracketError("payout_not_100", "The shares must add up to 100%.", "payout_template")
    return shares


def to_cents(amount) -> int:
    return int((Decimal(str(amount)) * 100).quantize(Decimal("1"), rounding=ROUND_HALF_UP))


def compute(
    *, pool: int, house_percent, shares: Sequence[Share], holders: Mapping[tuple[str, int], Sequence[Hashable]]
) -> Payout:
    house = int((Decimal(pool) * Decimal(str(house_percent)) / 100).quantize(Decimal("1"), rounding=ROUND_HALF_UP))
    net = pool - house
    amounts = [int(net * s.percent // 100) for s in shares]
    for i in range(net - sum(amounts)) if shares else ():
        amounts[i % len(amounts)] += 1
    lines = []
    for share, amount in zip(shares, amounts, strict=True):
        who = tuple(holders.get((share.flight, share.place), ()))
        each: tuple[int, ...] = ()
        if who:
            base, extra = divmod(amount, len(who))
            each = tuple(base + (1 if i < extra else 0) for i in range(len(who)))
        lines.append(PaidLine(share, amount, who, each))
    return Payout(pool, house, net, tuple(lines))
