"""A lot's fair value: what it can expect to be paid from the pool, from its entrants' place chances
(tournaments.core.chances) and the Calcutta's payout table.

An entrant's expected share of the net pool is Σ over places of P(place) · the share a holder of that place gets
(the settlement's rule: the k holders of a tied place share places p … p+k−1 equally). A lot's expected share is
its entrants' sum; its fair value is that share of the net pool (the pot less the house take). The consolation
winner's percentage is left out: the chances cover the main flight only.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from fractions import Fraction

from .auction_settings import CalcuttaSettings, PayoutTable
from .settlement import house_take


def expected_shares(
    payout: PayoutTable, places: Mapping[Hashable, Mapping[int, float]], holders: Mapping[int, int]
) -> dict[Hashable, float]:
    """Each entrant's expected fraction of the net pool."""
    each = {place: float(payout.share_of_places(place, max(1, k)) / max(1, k)) for place, k in holders.items()}
    return {e: sum(chance * each.get(place, 0.0) for place, chance in row.items()) for e, row in places.items()}


def net_pool(pot: int, settings: CalcuttaSettings) -> int:
    """The pot less the house take, in cents."""
    return pot - house_take(pot, settings)


def fair_value(net: int, share: float) -> int:
    """A share of the net pool in whole cents (rounded to the nearest)."""
    return round(Fraction(net) * Fraction(share))


def lot_share(entrants: Iterable[Hashable], shares: Mapping[Hashable, float]) -> float:
    return sum(shares.get(e, 0.0) for e in entrants)
