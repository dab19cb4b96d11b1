"""Demo data: a settled Calcutta on the finished demo event's main flight.

A Calcutta is sold after the draw and before the first match, so `prepare` asks the tournaments demo to call
`auction` right after releasing the main draw (the tournaments app never imports the Calcutta); the results then
settle it as the event is played, and `load` (run after the tournaments demo) only reports it. Everything goes
through the services, as a director would: lots proposed by rating, bidders (players with a login and two
guests), the live auction lot by lot, a syndicate, a buy-back, and the settlement from the bracket. Running it
again finds the Calcutta and adds nothing.
"""

from calcutta import selectors, services
from calcutta.models import Calcutta, CalcuttaStatus

GUESTS = ["Harald (guest)", "Syndicate Nord"]


def prepare(context) -> None:
    context.after_draw_released.append(auction)


def load(context) -> None:
    event = getattr(context, "finished_event", None)
    if event is None:
        context.lines.append("Calcutta demo skipped: the tournaments demo set no finished event.")
        return
    flight = event.flights.filter(kind="main").order_by("pk").first()
    if flight is None or not flight.entries.exists():
        context.lines.append("Calcutta demo skipped: the finished event has no main flight with entries.")
        return
    calcutta = Calcutta.objects.filter(flight=flight).first()
    if calcutta is None:
        context.lines.append("Calcutta demo skipped: the finished event was played before a Calcutta was sold.")
        return
    if calcutta.status != CalcuttaStatus.SETTLED:
        services.settle_calcutta(calcutta=calcutta)
    calcutta.refresh_from_db()
    context.lines.append(
        f"Calcutta on {flight} ({calcutta.get_status_display()}): board /calcuttas/{calcutta.pk}/board/, "
        f"settlement /calcuttas/{calcutta.pk}/settlement/"
    )


def auction(context, event, flight) -> Calcutta:
    """The Calcutta of a freshly released flight: set up, auctioned and closed before round 1 is played."""
    director = context.director
    has_consolation = event.flights.filter(kind="consolation").exists()
    calcutta = services.create_calcutta(
        actor=director,
        flight=flight,
        payout_places=["45", "25", "10", "10"] if has_consolation else ["50", "25", "15", "10"],
        consolation_percent="10" if has_consolation else "0",
        house_take_percent="10",
        minimum_opening_bid=1000,
        increment=500,
    )
    count = len(selectors.calcutta_entries(calcutta))
    singles = min(4, count)
    field = max(0, min(4, count - singles - 2))
    groups = selectors.propose_lots(calcutta=calcutta, style="pair_lesser", singles=singles, field=field)
    services.set_lots(actor=director, calcutta=calcutta, groups=groups)

    bidders = []
    for player in context.players:
        if player.user_id is not None:
            bidders.append(services.register_bidder(actor=director, calcutta=calcutta, player=player, user=player.user))
    bidders += [services.register_bidder(actor=director, calcutta=calcutta, name=name) for name in GUESTS]

    step = services.auctioneer_step
    step(actor=director, calcutta=calcutta, action="open")
    number = 0
    while True:
        calcutta.refresh_from_db()
        if calcutta.current_lot is None:
            state = services.load(calcutta)
            if state.auction.next_lot() is None:
                break
            step(actor=director, calcutta=calcutta, action="open_next_lot")
            calcutta.refresh_from_db()
        lot = calcutta.current_lot
        in_lot = set(lot.entries.values_list("player_id", flat=True))
        allowed = [b for b in bidders if b.player_id not in in_lot]
        price = 1000 + 500 * ((number * 7) % 9)
        bids = [(allowed[number % len(allowed)], 1000), (allowed[(number + 1) % len(allowed)], price + 500)]
        for bidder, amount in bids:
            services.place_bid(actor=director, calcutta=calcutta, lot_number=lot.number, bidder=bidder, amount=amount)
        for action in ("going_once", "going_twice", "sell"):
            step(actor=director, calcutta=calcutta, action=action)
        number += 1
    step(actor=director, calcutta=calcutta, action="close")

    calcutta.refresh_from_db()
    guests = [b for b in bidders if b.name in GUESTS]
    shared = calcutta.lots.filter(is_field=False, phase="sold").exclude(buyer__in=guests).order_by("number").first()
    if shared is not None:  # a player's lot shared half and half with the guests' syndicate
        offer = services.offer_syndicate(
            actor=director,
            calcutta=calcutta,
            lot_number=shared.number,
            holder=shared.buyer,
            shares={shared.buyer: "1/2", guests[1]: "1/2"},
        )
        if offer.waiting_for():  # the director spoke for the guests; the player with a login accepts themselves
            services.answer_syndicate(actor=shared.buyer.user, offer=offer, accept=True)
    for bidder in bidders:
        own_lot = calcutta.lots.filter(is_field=False, phase="sold", entries__player=bidder.player_id).first()
        if bidder.player_id and own_lot is not None and own_lot.buyer_id != bidder.pk:
            services.buy_back(actor=director, calcutta=calcutta, lot_number=own_lot.number, bidder=bidder, share="1/4")
            break
    for bidder in bidders[:3]:
        services.set_paid(actor=director, calcutta=calcutta, bidder=bidder, paid=True)
    services.settle_calcutta(calcutta=calcutta)
    return calcutta
