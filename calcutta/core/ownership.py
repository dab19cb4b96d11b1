"""Who owns which fraction of each sold lot, and what each owner pays.

A lot starts owned wholly by its buyer. A holder may split their holding among a syndicate (shares of that
holding summing to 100%). A player in a lot may buy back a share of the lot from its other owners, who give it
up in proportion to what they hold; the player pays the same fraction of the price. Each entrant may buy back
at most `buy_back_limit` of their own part of the lot (a lot of n entrants: limit / n of the lot each), never
of the field, and not after the deadline.

Fractions are exact (Fraction), so each lot's fractions always sum to exactly 1. Each owner's amount due is
the price split by holding with the largest-remainder rule (see money.py), so amounts due sum to the auction
total to the cent.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime
from decimal import Decimal
from fractions import Fraction

from .auction import AuctionResult, Bidder, BidderId
from .auction_settings import CalcuttaSettings
from .errors import CalcuttaError
from .lots import Entrant, Lot, LotId, id_key
from .money import ONE, allocate_cents, parse_share

Holdings = Mapping[BidderId, Fraction]


def _percent(share: Fraction) -> str:
    """A share written for people, e.g. '33.33%' (rounded for display only)."""
    exact = Decimal(share.numerator * 100) / Decimal(share.denominator)
    return f"{exact.quantize(Decimal('0.01')).normalize():f}%"


@dataclass(frozen=True)
class Ownership:
    """Holdings per sold lot; immutable — every change returns a new Ownership."""

    result: AuctionResult
    holdings: Mapping[LotId, Holdings]
    bought_back: Mapping[tuple[LotId, Entrant], Fraction] = field(default_factory=dict)

    @classmethod
    def from_auction(cls, result: AuctionResult) -> Ownership:
        return cls(result=result, holdings={lot_id: {sale.bidder: ONE} for lot_id, sale in result.sales.items()})

    # --- reading -------------------------------------------------------------------------------------------

    @property
    def total(self) -> int:
        """The auction total: every sale's price, which is also the pool before the house take."""
        return self.result.total

    def lot(self, lot_id: LotId) -> Lot:
        for lot in self.result.lots:
            if lot.id == lot_id:
                return lot
        raise CalcuttaError("unknown_lot", f"There is no lot {lot_id} in this Calcutta.", field="lot", lot=lot_id)

    def owners(self, lot_id: LotId) -> list[tuple[BidderId, Fraction]]:
        """The holders of a lot, in bidder-id order (the order remainders are served in)."""
        return sorted(self.holdings[lot_id].items(), key=lambda item: id_key(item[0]))

    def amounts_due_by_lot(self, lot_id: LotId) -> dict[BidderId, int]:
        return allocate_cents(self.result.sales[lot_id].price, self.owners(lot_id))

    def amounts_due(self) -> dict[BidderId, int]:
        """What each owner pays when the auction closes, summed over their lots (cents)."""
        due: dict[BidderId, int] = {}
        for lot in self.result.lots:
            if lot.id in self.result.sales:
                for owner, amount in self.amounts_due_by_lot(lot.id).items():
                    due[owner] = due.get(owner, 0) + amount
        return dict(sorted(due.items(), key=lambda item: id_key(item[0])))

    # --- changing ------------------------------------------------------------------------------------------

    def form_syndicate(self, *, lot: LotId, holder: BidderId, shares: Mapping[BidderId, Fraction | str]) -> Ownership:
        """Split `holder`'s holding of `lot` among a syndicate; `shares` are of that holding and total 100%."""
        held = self._holdings_of_sold(lot)
        if holder not in held:
            raise CalcuttaError(
                "not_an_owner", f"{holder} holds no share of lot {lot}.", field="holder", holder=holder, lot=lot
            )
        parsed = {member: parse_share(share, field="shares") for member, share in shares.items()}
        total = sum(parsed.values(), Fraction(0))
        if total != ONE:
            raise CalcuttaError(
                "shares_not_100",
                f"The syndicate's shares total {_percent(total)}; they must total exactly 100%.",
                field="shares",
                total=_percent(total),
            )
        holding = held[holder]
        changed = {owner: share for owner, share in held.items() if owner != holder}
        for member, share in parsed.items():
            changed[member] = changed.get(member, Fraction(0)) + holding * share
        return replace(self, holdings={**self.holdings, lot: changed})

    def buy_back(
        self, *, lot: LotId, player: Bidder, share: Fraction | str, at: datetime, settings: CalcuttaSettings
    ) -> Ownership:
        """`player` (a bidder who is an entrant of `lot`) buys back `share` of the lot from its other owners."""
        held = self._holdings_of_sold(lot)
        the_lot = self.lot(lot)
        if the_lot.is_field:
            raise CalcuttaError(
                "no_buy_back_on_field",
                "The field cannot be bought back: a buy-back is only for a player's own lot.",
                field="lot",
            )
        if player.entrant is None or player.entrant not in the_lot.entrants:
            raise CalcuttaError(
                "not_in_lot", f"Only a player in lot {lot} can buy back a share of it.", field="player", lot=lot
            )
        if settings.buy_back_limit == 0:
            raise CalcuttaError("buy_back_off", "This Calcutta has no buy-backs.", field="share")
        if at.utcoffset() is None:
            raise CalcuttaError("bad_time", "The time of a buy-back must carry its time zone.", field="at")
        if settings.buy_back_deadline is not None and at > settings.buy_back_deadline:
            raise CalcuttaError(
                "buy_back_closed",
                f"Buy-backs closed at {settings.buy_back_deadline:%Y-%m-%d %H:%M}.",
                field="share",
                deadline=f"{settings.buy_back_deadline:%Y-%m-%d %H:%M}",
            )
        wanted = parse_share(share, field="share")
        limit = Fraction(settings.buy_back_limit) / len(the_lot.entrants)
        already = self.bought_back.get((lot, player.entrant), Fraction(0))
        if already + wanted > limit:
            raise CalcuttaError(
                "over_buy_back_limit",
                f"You may buy back at most {_percent(limit)} of lot {lot}"
                + (f" and have bought {_percent(already)} already." if already else "."),
                field="share",
                limit=_percent(limit),
                lot=lot,
            )
        others = {owner: part for owner, part in held.items() if owner != player.id}
        others_total = sum(others.values(), Fraction(0))
        if others_total < wanted:
            raise CalcuttaError(
                "nothing_to_buy_back",
                f"Other owners hold only {_percent(others_total)} of lot {lot}.",
                field="share",
                others=_percent(others_total),
                lot=lot,
            )
        keep = 1 - wanted / others_total
        changed = {owner: part * keep for owner, part in others.items() if part * keep > 0}
        changed[player.id] = held.get(player.id, Fraction(0)) + wanted
        assert sum(changed.values(), Fraction(0)) == ONE  # the others gave up exactly what the player took
        return replace(
            self,
            holdings={**self.holdings, lot: changed},
            bought_back={**self.bought_back, (lot, player.entrant): already + wanted},
        )

    def _holdings_of_sold(self, lot: LotId) -> Holdings:
        if lot in self.result.passed:
            raise CalcuttaError(
                "lot_passed", f"Lot {lot} found no bidder and went into the field.", field="lot", lot=lot
            )
        if lot not in self.holdings:
            self.lot(lot)  # unknown lot → its own error
            raise CalcuttaError("lot_not_sold", f"Lot {lot} was not sold, so nobody owns it.", field="lot", lot=lot)
        return self.holdings[lot]
