"""Event points schemes (docs/ratings.md; the GammonPoints-style formula is this project's own, docs/ratings.md).

Places come as standard competition ranking (1, 2, 3, 3, 5, 5, 5, 5, …): players eliminated in the same round
share a place. Every function returns the points per player id.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Mapping

from ratings.core.fibs import START_RATING

# --- shared ----------------------------------------------------------------------------------------------


def _groups(places: Mapping[int, int]) -> list[tuple[int, list[int]]]:
    """(place, players) sorted by place; validates competition ranking (a place p shared by k players means the
    next place is p + k)."""
    by_place: dict[int, list[int]] = defaultdict(list)
    for player, place in places.items():
        if place < 1:
            raise ValueError(f"place {place} of player {player}: places start at 1")
        by_place[place].append(player)
    return sorted((place, sorted(players)) for place, players in by_place.items())


def _average_over_ranks(place: int, tied: int, value) -> float:
    """A shared place averages the values of the individual ranks it spans (place … place + tied − 1)."""
    return sum(value(rank) for rank in range(place, place + tied)) / tied


# --- GammonPoints-style ----------------------------------------------------------------------------------

GP_SCALE = 10.0
GP_RATING_BASE = START_RATING  # an average field: the FIBS rating everyone starts at
GP_DOUBLING = 400.0  # a field 400 rating points stronger than 1500 doubles the points
GP_MIN_FIELD = 8


def strength_factor(strength_of_field: float) -> float:
    """S = 2^((SOF − 1500) / 400): 1 for an average field, 2 for a field 400 points stronger."""
    return 2.0 ** ((strength_of_field - GP_RATING_BASE) / GP_DOUBLING)


def strength_of_field(ratings: list[float]) -> float:
    """The mean rating of the entrants."""
    if not ratings:
        raise ValueError("a field needs at least one entrant")
    return sum(ratings) / len(ratings)


def gammonpoints_rank_value(rank: int, field: int, strength: float) -> float:
    """Points for the individual rank `rank` in a field of `field` players with strength of field `strength`:
    GP = 10 · S · log2((n + 1) / rank)."""
    return GP_SCALE * strength_factor(strength) * math.log2((field + 1) / rank)


def gammonpoints(places: Mapping[int, int], ratings: Mapping[int, float], *, min_field: int = GP_MIN_FIELD):
    """Points per player for a finished event. `places`: player → competition-ranking place; `ratings`: each
    entrant's rating (the strength of field is their mean). Fields smaller than `min_field` earn nothing."""
    field = len(places)
    if field < min_field:
        return dict.fromkeys(places, 0.0)
    sof = strength_of_field([ratings[p] for p in places])
    result = {}
    for place, players in _groups(places):
        value = _average_over_ranks(place, len(players), lambda r: gammonpoints_rank_value(r, field, sof))
        for player in players:
            result[player] = value
    return result


# --- USBGF master points (2019) --------------------------------------------------------------------------

DIVISION_WEIGHTS = {"open": 1.0, "intermediate": 0.7, "novice": 0.5}


def usbgf_match_win(length: int, *, event_weight: float = 1.0, division_weight: float = 1.0) -> float:
    """Master points for one match won: EW × DW × √N / 3."""
    return event_weight * division_weight * math.sqrt(length) / 3.0


def usbgf_rank_factor(rank: int) -> float:
    """RF(1) = 1.0, RF(2) = 0.7, RF(r ≥ 3) = 1 / (r − 1)."""
    if rank < 1:
        raise ValueError("ranks start at 1")
    if rank == 1:
        return 1.0
    if rank == 2:
        return 0.7
    return 1.0 / (rank - 1)


def usbgf_placement(
    places: Mapping[int, int],
    *,
    event_weight: float = 1.0,
    division_weight: float = 1.0,
    split_ties: bool = False,
) -> dict[int, float]:
    """Placement points EW × DW × 0.6 × log2(players) × RF(r).

    2019 rule (default): r counts finishing positions — winner 1, finalist 2, the semi-finalists (sharing place 3)
    3, the quarter-finalists 4, … — and everyone at a position gets its full factor. With `split_ties` (the 2015
    rule) tied players split the factors of the individual ranks they span.
    """
    field = len(places)
    if field < 2:
        return dict.fromkeys(places, 0.0)
    base = event_weight * division_weight * 0.6 * math.log2(field)
    result = {}
    for position, (place, players) in enumerate(_groups(places), start=1):
        if split_ties:
            factor = _average_over_ranks(place, len(players), usbgf_rank_factor)
        else:
            factor = usbgf_rank_factor(position)
        for player in players:
            result[player] = base * factor
    return result


# --- ABT factor pools ------------------------------------------------------------------------------------

ABT_FACTORS = (32, 20, 13, 9, 7, 6, 5, 4)
ABT_DIVISION_FACTORS = {"main": 1.0, "second": 0.5, "third": 0.25}


def abt_factor(place: int) -> float:
    """ "More Swiss" factors: 32, 20, 13, 9, 7, 6, 5, 4 for places 1–8, then 32/N for place N."""
    if place < 1:
        raise ValueError("places start at 1")
    return float(ABT_FACTORS[place - 1]) if place <= len(ABT_FACTORS) else 32.0 / place


def abt_paid_places(field: int) -> int:
    """How many places share the pool: 8, or one in eight of a larger field (this project's choice)."""
    return min(field, max(len(ABT_FACTORS), field // 8))


def abt_points(
    places: Mapping[int, int], *, division_factor: float = 1.0, paid_places: int | None = None
) -> dict[int, float]:
    """Pool = players × division factor; a paid place gets pool × factor / Σ factors of the paid places; tied
    players average the factors of the places they span (those inside the paid places)."""
    field = len(places)
    if field == 0:
        return {}
    paid = abt_paid_places(field) if paid_places is None else min(paid_places, field)
    pool = field * division_factor
    total = sum(abt_factor(p) for p in range(1, paid + 1))
    result = {}
    for place, players in _groups(places):
        spanned = [r for r in range(place, place + len(players)) if r <= paid]
        share = sum(abt_factor(r) for r in spanned) / len(players) if spanned else 0.0
        for player in players:
            result[player] = pool * share / total
    return result
