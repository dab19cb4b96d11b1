"""Lots and the auction order.

A lot is one entrant, or several sold together (two lesser-rated players, a team balanced by rating), or
"the field": every entrant in no other lot, plus those of lots that found no bidder. The field is always
auctioned last. The order of the other lots is the director's, or random from a stored seed — the same seed
and the same lots always give the same order.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum

from .errors import CalcuttaError

FIELD = "field"  # the id of the field lot

Entrant = Hashable
LotId = Hashable


def id_key(value: Hashable) -> tuple[bool, object]:
    """A sort key that orders ints before strings, so ids of either kind sort deterministically."""
    return (isinstance(value, str), value)


@dataclass(frozen=True)
class Lot:
    id: LotId
    entrants: tuple[Entrant, ...]

    @property
    def is_field(self) -> bool:
        return self.id == FIELD


@dataclass(frozen=True)
class LotPlan:
    """The flight's entrants and the lots offered; whoever is in no lot belongs to the field."""

    entrants: tuple[Entrant, ...]
    lots: tuple[Lot, ...]

    def __post_init__(self) -> None:
        known = set(self.entrants)
        if len(known) != len(self.entrants):
            raise CalcuttaError("duplicate_entrant", "An entrant is listed twice in the flight.", field="entrants")
        seen_lots: set[LotId] = set()
        placed: set[Entrant] = set()
        for lot in self.lots:
            if lot.is_field:
                raise CalcuttaError(
                    "field_is_automatic", "The field is made of everyone in no other lot.", field="lots"
                )
            if lot.id in seen_lots:
                raise CalcuttaError("duplicate_lot", f"Two lots have the id {lot.id}.", field="lots", lot=lot.id)
            seen_lots.add(lot.id)
            if not lot.entrants:
                raise CalcuttaError(
                    "empty_lot", f"Lot {lot.id} has no entrant; remove it or add one.", field="lots", lot=lot.id
                )
            for entrant in lot.entrants:
                if entrant not in known:
                    raise CalcuttaError(
                        "unknown_entrant",
                        f"{entrant} in lot {lot.id} is not in the flight.",
                        field="lots",
                        entrant=entrant,
                        lot=lot.id,
                    )
                if entrant in placed:
                    raise CalcuttaError(
                        "entrant_in_two_lots",
                        f"{entrant} is in two lots; each entrant belongs to one lot.",
                        field="lots",
                        entrant=entrant,
                    )
                placed.add(entrant)

    @classmethod
    def build(cls, entrants: Iterable[Entrant], groups: Iterable[Sequence[Entrant]]) -> LotPlan:
        """Lots numbered 1, 2, … in the order of `groups`."""
        lots = tuple(Lot(id=number, entrants=tuple(group)) for number, group in enumerate(groups, start=1))
        return cls(entrants=tuple(entrants), lots=lots)

    @property
    def field(self) -> Lot:
        in_lots = {entrant for lot in self.lots for entrant in lot.entrants}
        return Lot(id=FIELD, entrants=tuple(e for e in self.entrants if e not in in_lots))

    def lot(self, lot_id: LotId) -> Lot:
        if lot_id == FIELD:
            return self.field
        for lot in self.lots:
            if lot.id == lot_id:
                return lot
        raise CalcuttaError("unknown_lot", f"There is no lot {lot_id} in this Calcutta.", field="lot", lot=lot_id)


class GroupingStyle(StrEnum):
    PAIR_LESSER = "pair_lesser"  # strongest sold alone, the rest in groups of neighbours by rating
    BALANCED = "balanced"  # teams with totals of rating as even as a snake draft makes them


def group_by_rating(
    ratings: Mapping[Entrant, float | Decimal],
    *,
    style: GroupingStyle | str,
    singles: int = 0,
    group_size: int = 2,
    field: int = 0,
) -> list[tuple[Entrant, ...]]:
    """A proposal of lots for the director to edit; ties in rating are ordered by entrant id.

    The `singles` highest-rated entrants are lots of their own and the `field` lowest-rated are left to the
    field. The rest are grouped: neighbours by rating in groups of `group_size` (a short last group joins the one
    before), or — balanced — into len // group_size teams dealt in snake order (1-2-3-3-2-1…).
    """
    style = GroupingStyle(style)
    if group_size < 2:
        raise CalcuttaError("bad_group_size", "A group has at least 2 entrants.", field="group_size")
    if singles < 0 or field < 0 or singles + field > len(ratings):
        raise CalcuttaError(
            "bad_grouping",
            f"Singles ({singles}) and field ({field}) exceed the {len(ratings)} entrants.",
            field="singles",
            singles=singles,
            field_size=field,
            entrants=len(ratings),
        )
    ranked = sorted(ratings, key=lambda e: (-ratings[e], id_key(e)))
    groups: list[tuple[Entrant, ...]] = [(entrant,) for entrant in ranked[:singles]]
    rest = ranked[singles : len(ranked) - field]
    if not rest:
        return groups
    if style == GroupingStyle.PAIR_LESSER:
        chunks = [rest[i : i + group_size] for i in range(0, len(rest), group_size)]
        if len(chunks) > 1 and len(chunks[-1]) < group_size:
            chunks[-2].extend(chunks.pop())
        return groups + [tuple(chunk) for chunk in chunks]
    teams: list[list[Entrant]] = [[] for _ in range(max(1, len(rest) // group_size))]
    for index, entrant in enumerate(rest):
        lap, position = divmod(index, len(teams))
        teams[position if lap % 2 == 0 else len(teams) - 1 - position].append(entrant)
    return groups + [tuple(team) for team in teams]


def random_order(lot_ids: Iterable[LotId], *, seed: int | str) -> tuple[LotId, ...]:
    """The auction order drawn from `seed`: the same seed and the same lots always give the same order.

    The field is not in it: it always comes last.
    """
    ids = sorted((lot_id for lot_id in lot_ids if lot_id != FIELD), key=id_key)
    random.Random(seed).shuffle(ids)
    return tuple(ids)


def check_order(plan: LotPlan, order: Sequence[LotId]) -> tuple[LotId, ...]:
    """A director's order must name every lot but the field exactly once."""
    expected = {lot.id for lot in plan.lots}
    given = [lot_id for lot_id in order if lot_id != FIELD]
    missing = [lot_id for lot_id in expected if lot_id not in given]
    extra = [lot_id for lot_id in given if lot_id not in expected]
    if missing or extra or len(set(given)) != len(given):
        details = []
        if missing:
            details.append("missing lots " + ", ".join(map(str, sorted(missing, key=id_key))))
        if extra:
            details.append("unknown lots " + ", ".join(map(str, extra)))
        if len(set(given)) != len(given):
            details.append("a lot listed twice")
        raise CalcuttaError(
            "bad_order", "The auction order must list every lot once: " + "; ".join(details) + ".", field="order"
        )
    return tuple(given)
