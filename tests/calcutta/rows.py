"""Rows for Calcutta tests: a flight of entrants at a public event, places as the bracket sets them, a whole auction."""

import datetime

from calcutta import core, services
from tests.clubs.factories import MembershipFactory
from tournaments.models import Entry, Event, Flight

NAMES = ["Anna", "Bernd", "Clara", "Dieter", "Eva", "Felix", "Greta", "Hans"]


def make_flight(club, *, names=NAMES, kind="main", event=None, slug="main"):
    if event is None:
        event = Event.objects.create(
            club=club,
            name="Autumn Open",
            slug="autumn-open",
            starts_on=datetime.date(2026, 11, 21),
            ends_on=datetime.date(2026, 11, 22),
        )
    flight = Flight.objects.create(event=event, kind=kind, name=kind.title(), slug=slug)
    for name in names:
        player = MembershipFactory(club=club, player__name=name).player
        Entry.objects.create(flight=flight, player=player)
    return flight


def entry_ids(flight, *names):
    by_name = {e.player.name: e.pk for e in flight.entries.select_related("player")}
    return [by_name[name] for name in names]


def place(flight, places: dict[str, int | None]):
    """Set main-flight places by player name, as the bracket does when an entry is eliminated."""
    for entry in flight.entries.select_related("player"):
        if entry.player.name in places:
            entry.place = places[entry.player.name]
            entry.save(update_fields=["place"])


def sell_all(calcutta, director, prices):
    """Open the auction and sell every lot (field last) to prices[lot number] = (bidder, cents), or pass it."""
    step = services.auctioneer_step
    step(actor=director, calcutta=calcutta, action="open")
    while True:
        calcutta.refresh_from_db()
        try:
            step(actor=director, calcutta=calcutta, action="open_next_lot")
        except core.CalcuttaError as refused:  # every lot is done: the core says so, as a state (409)
            assert refused.code == "nothing_left"
            break
        calcutta.refresh_from_db()
        lot = calcutta.current_lot
        sale = prices.get(lot.number)
        if sale is None:
            step(actor=director, calcutta=calcutta, action="pass_lot")
            continue
        services.place_bid(actor=director, calcutta=calcutta, lot_number=lot.number, bidder=sale[0], amount=sale[1])
        for action in ("going_once", "going_twice", "sell"):
            step(actor=director, calcutta=calcutta, action=action)
    step(actor=director, calcutta=calcutta, action="close")
    calcutta.refresh_from_db()
    return calcutta


def open_auction(club, director, n: int, *, entrants: int = 4, lots: int = 3, bidders: int = 3):
    """A Calcutta on the flight of a new event (number `n`): the first `lots` entrants one lot each (the rest the
    field), `bidders` registered bidders, the auction open. Returns (calcutta, bidders)."""
    event = Event.objects.create(
        club=club,
        name=f"Open {n}",
        slug=f"open-{n}",
        starts_on=datetime.date(2026, 11, 21),
        ends_on=datetime.date(2026, 11, 22),
    )
    flight = make_flight(club, names=[f"P{n}-{i}" for i in range(entrants)], event=event)
    calcutta = services.create_calcutta(
        actor=director, flight=flight, payout_places=["70", "30"], minimum_opening_bid=100, increment=100
    )
    entries = list(flight.entries.order_by("pk").values_list("pk", flat=True))
    services.set_lots(actor=director, calcutta=calcutta, groups=[[pk] for pk in entries[:lots]])
    registered = [services.register_bidder(actor=director, calcutta=calcutta, name=f"b{i}") for i in range(bidders)]
    services.auctioneer_step(actor=director, calcutta=calcutta, action="open")
    return calcutta, registered
