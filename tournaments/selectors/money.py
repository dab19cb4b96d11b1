"""The prize list: every flight's pool and who holds each paid place so far."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, Sum

from clubs.models import Player
from tournaments.core import payouts
from tournaments.models import (
    Entry,
    Flight,
)
from tournaments.selectors.events import flight_placements

# --- money ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class FlightPrizes:
    flight: Flight
    entries: int
    payout: object  # tournaments.core.payouts.Payout
    paid_from: tuple = ()  # names of the flights whose templates pay this flight's places


def prize_list(*, event) -> list[FlightPrizes]:
    """Each flight's pool (fees of its entries and re-entries), the house's share and the template's lines
    with who holds each place so far; a flight without a template of its own is listed too, with its pool and the
    flights whose templates pay its places. Three queries, two more per side pool or knockout with a playoff
    for 2nd."""
    flights = list(event.flights.annotate(pool=Sum("entries__fee"), n=Count("entries")).order_by("order", "id"))
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
    names = dict(Player.objects.filter(pk__in={p for ps in places.values() for p in ps}).values_list("pk", "name"))
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
        out.append(FlightPrizes(flight, flight.n, payout, paid_from))
    return out
