"""The prize list: every flight's pool and who holds each paid place so far."""

from __future__ import annotations

from dataclasses import dataclass, replace

from django.db.models import Count, Sum

from clubs.models import Player
from tournaments.core import chances, payouts
from tournaments.models import (
    Entry,
    Flight,
    FlightChange,
)
from tournaments.selectors.chances import flight_chances
from tournaments.selectors.events import flight_placements

# --- money ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class FlightPrizes:
    flight: Flight
    entries: int
    payout: object  # tournaments.core.payouts.Payout
    paid_from: tuple = ()  # names of the flights whose templates pay this flight's places
    # (name, expected cents) per entrant, most first, while the flight's chances are computed (selectors.chances)
    expected: tuple = ()


def prize_list(*, event) -> list[FlightPrizes]:
    """Each flight's pool (fees of its entries and re-entries), the house's share and the template's lines
    with who holds each place so far; a flight without a template of its own is listed too, with its pool and the
    flights whose templates pay its places. Three queries, two more per side pool or knockout with a playoff
    for 2nd; the expected prizes one (the paid flights' versions) and two per paid knockout whose chances are
    not cached for its version yet (its slots, the ratings)."""
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
    return _with_expected_prizes(out, by_slug)


def _with_expected_prizes(prizes: list[FlightPrizes], by_slug: dict) -> list[FlightPrizes]:
    """Each flight's entrants' expected prize from every template line that pays one of its places (its own, or
    another flight's template naming it): Σ P(place) · the line's amount / the place's holders."""
    amounts: dict[int, dict[int, int]] = {}  # flight id -> place -> cents
    for prize in prizes:
        for line in prize.payout.lines:
            target = by_slug.get(line.share.flight, prize.flight) if line.share.flight else prize.flight
            row = amounts.setdefault(target.pk, {})
            row[line.share.place] = row.get(line.share.place, 0) + line.amount
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
        expected = chances.expected_prizes(places, amounts[prize.flight.pk], figures.holders)
        names = {e.entry_id: e.name for e in figures.entrants}
        ranked = sorted(((names[e], round(v)) for e, v in expected.items()), key=lambda t: (-t[1], t[0]))
        out.append(replace(prize, expected=tuple(ranked)))
    return out
