"""Settling a Calcutta from the bracket: who won what, to the cent.

1. Pool = the auction total. House take = pool × take %, rounded DOWN to the cent (any fraction of a cent
   stays with the players). Net pool = pool − house take.
2. Each entrant's share of the net pool comes from the payout table. Main-flight places use standard
   competition ranking: tied entrants share a place number and the next number is skipped (winner 1,
   finalist 2, both losing semi-finalists 3, the four losing quarter-finalists 5, …). A tied group of k
   entrants at place p shares the percentages of places p … p+k−1 equally (places beyond the table pay 0).
   The consolation winner, if the table pays one, gets that percentage on top of any main-flight place.
3. A lot's share is the sum of its entrants' shares. The net pool is split among the lots by these shares with
   the largest-remainder rule (money.py); lots are served in the order their hammer fell. If nobody bought the
   field, the prizes its entrants win are "unclaimed" (a separate line, listed last) for the director to decide.
4. Each lot's prize is split among its owners by holding with the same rule (owners in bidder-id order).

Sign convention (docs/calcutta.md: every owner's net is paid-in minus won): net = paid in − won. A positive net is
what the owner is out of pocket; a negative net is a profit. Over all owners, the nets sum to house take +
unclaimed.

Settling is a pure function of the auction, the ownership and the results: after a corrected result, settle
again and the new settlement replaces the old one; the same inputs always give the same cents.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from fractions import Fraction

from .auction import BidderId
from .auction_settings import CalcuttaSettings, PayoutTable
from .errors import CalcuttaError
from .lots import Entrant, LotId, id_key
from .money import allocate_cents, format_money
from .ownership import Ownership

UNCLAIMED = "unclaimed"


def place_for_elimination(players_in_round: int) -> int:
    """The place of a main-flight loser by the size of the round they lost: final (2) → 2, semi-final (4) → 3,
    quarter-final (8) → 5, round of 16 → 9. The winner's place is 1."""
    if players_in_round < 2 or players_in_round & (players_in_round - 1):
        raise CalcuttaError(
            "bad_round", f"A knockout round has 2, 4, 8, … players, not {players_in_round}.", players=players_in_round
        )
    return players_in_round // 2 + 1


@dataclass(frozen=True)
class Results:
    """Finishes from the bracket: main-flight places (ties share a number) and the consolation winner."""

    places: Mapping[Entrant, int]
    consolation_winner: Entrant | None = None


def entrant_shares(payout: PayoutTable, results: Results, entrants: frozenset[Entrant]) -> dict[Entrant, Fraction]:
    """Each finisher's fraction of the net pool; they sum to exactly 1 or a CalcuttaError says what is missing."""
    for entrant, place in results.places.items():
        if entrant not in entrants:
            raise CalcuttaError(
                "unknown_entrant", f"{entrant} has a finish but is not in this Calcutta.", field="results"
            )
        if isinstance(place, bool) or not isinstance(place, int) or place < 1:
            raise CalcuttaError(
                "bad_place",
                f"{entrant}'s place must be 1 or more, not {place}.",
                field="results",
                entrant=entrant,
                place=place,
            )
    groups: dict[int, list[Entrant]] = {}
    for entrant, place in results.places.items():
        groups.setdefault(place, []).append(entrant)
    covered = 0  # places 1 … covered are taken
    for place in sorted(groups):
        if place != covered + 1:
            raise CalcuttaError(
                "bad_places",
                f"Place {place} is given but place {covered + 1} is not: tied entrants share a number and the next "
                f"number is skipped (1, 2, 3, 3, 5, …).",
                field="results",
            )
        covered += len(groups[place])
    for place, percent in enumerate(payout.places, start=1):
        if place > len(entrants) and percent > 0:
            raise CalcuttaError(
                "table_longer_than_field",
                f"The payout table pays place {place} but only {len(entrants)} entrants play; shorten the table.",
                field="payout",
                place=place,
                entrants=len(entrants),
            )
        if place > covered and percent > 0:
            raise CalcuttaError(
                "unfilled_place",
                f"Place {place} pays {percent}% but nobody has finished there yet; confirm the bracket results first.",
                field="results",
            )
    shares: dict[Entrant, Fraction] = {}
    for place, tied in groups.items():
        each = payout.share_of_places(place, len(tied)) / len(tied)
        for entrant in tied:
            shares[entrant] = each
    if payout.consolation_winner > 0:
        winner = results.consolation_winner
        if winner is None:
            raise CalcuttaError(
                "unfilled_place", "The table pays the consolation winner, who is not known yet.", field="results"
            )
        if winner not in entrants:
            raise CalcuttaError("unknown_entrant", f"{winner} is not in this Calcutta.", field="results")
        shares[winner] = shares.get(winner, Fraction(0)) + Fraction(payout.consolation_winner) / 100
    return shares


@dataclass(frozen=True)
class OwnerLine:
    owner: BidderId
    paid_in: int
    won: int

    @property
    def net(self) -> int:
        """Paid in − won (docs/calcutta.md): positive = out of pocket, negative = profit."""
        return self.paid_in - self.won


@dataclass(frozen=True)
class Settlement:
    pool: int
    house_take: int
    net_pool: int
    unclaimed: int
    lot_prizes: Mapping[LotId, int]
    payouts: Mapping[tuple[LotId, BidderId], int]
    owners: tuple[OwnerLine, ...]

    def owner(self, owner: BidderId) -> OwnerLine:
        for line in self.owners:
            if line.owner == owner:
                return line
        raise CalcuttaError("not_an_owner", f"{owner} took no part in this Calcutta.", field="owner", holder=owner)


def house_take(pool: int, settings: CalcuttaSettings) -> int:
    """Rounded down to the cent: pool × take % / 100, the fraction of a cent left in the prize pool."""
    return int(Fraction(pool) * Fraction(settings.house_take_percent) / 100)


def settle(*, settings: CalcuttaSettings, ownership: Ownership, results: Results) -> Settlement:
    lots = ownership.result.lots
    sales = ownership.result.sales
    pool = ownership.total
    take = house_take(pool, settings)
    net_pool = pool - take
    shares = entrant_shares(settings.payout, results, frozenset(e for lot in lots for e in lot.entrants))

    weights: list[tuple[Hashable, Fraction]] = []
    unclaimed_share = Fraction(0)
    for lot in lots:
        share = sum((shares.get(entrant, Fraction(0)) for entrant in lot.entrants), Fraction(0))
        if lot.id in sales:
            weights.append((lot.id, share))
        else:
            unclaimed_share += share
    weights.append((UNCLAIMED, unclaimed_share))
    by_lot = allocate_cents(net_pool, weights)
    unclaimed = by_lot.pop(UNCLAIMED)

    payouts: dict[tuple[LotId, BidderId], int] = {}
    won: dict[BidderId, int] = {}
    for lot_id, prize in by_lot.items():
        for owner, amount in allocate_cents(prize, ownership.owners(lot_id)).items():
            payouts[(lot_id, owner)] = amount
            won[owner] = won.get(owner, 0) + amount
    paid_in = ownership.amounts_due()
    everyone = sorted(set(paid_in) | set(won), key=id_key)
    return Settlement(
        pool=pool,
        house_take=take,
        net_pool=net_pool,
        unclaimed=unclaimed,
        lot_prizes=by_lot,
        payouts=payouts,
        owners=tuple(OwnerLine(owner=o, paid_in=paid_in.get(o, 0), won=won.get(o, 0)) for o in everyone),
    )


def format_settlement(settlement: Settlement, names: Mapping[BidderId, str] | None = None) -> str:
    """The settlement as a plain-text table (the printable report and the worked example in docs/calcutta.md)."""
    names = names or {}
    lines = [
        f"pool {format_money(settlement.pool)}, house take {format_money(settlement.house_take)}, "
        f"net pool {format_money(settlement.net_pool)}, unclaimed {format_money(settlement.unclaimed)}",
        f"{'owner':<12}{'paid in':>10}{'won':>10}{'net':>10}",
    ]
    for line in settlement.owners:
        name = names.get(line.owner, str(line.owner))
        lines.append(
            f"{name:<12}{format_money(line.paid_in):>10}{format_money(line.won):>10}{format_money(line.net):>10}"
        )
    return "\n".join(lines)
