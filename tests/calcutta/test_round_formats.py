"""A Calcutta on a flight played in rounds: settled by the final places (the standings, or the cut's knockout
for the players who reached it), a correction after settlement settles again, and the Calcutta says what it
waits for meanwhile."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from base.api import Conflict
from calcutta import services
from calcutta.models import CalcuttaStatus, Settlement
from tests.tournaments.builders import overturn, play_all
from tests.tournaments.rounds_builders import open_tables, play_round, report, swiss_event
from tournaments import selectors as tournament_selectors
from tournaments import services as tournament_services

pytestmark = pytest.mark.django_db


def _sold(director, flight, payout):
    """A Calcutta with every entrant a lot of its own, each sold for 25.00 to an owner named after the lot."""
    calcutta = services.create_calcutta(
        actor=director, flight=flight, payout_places=payout, minimum_opening_bid=1000, increment=500
    )
    entries = list(flight.entries.order_by("pk"))
    services.set_lots(actor=director, calcutta=calcutta, groups=[[e.pk] for e in entries])
    services.set_order(actor=director, calcutta=calcutta, order=list(range(1, len(entries) + 1)))
    step = services.auctioneer_step
    step(actor=director, calcutta=calcutta, action="open")
    for number, entry in enumerate(entries, start=1):
        owner = services.register_bidder(actor=director, calcutta=calcutta, name=f"owner of {entry.pk}")
        step(actor=director, calcutta=calcutta, action="open_next_lot")
        services.place_bid(actor=director, calcutta=calcutta, lot_number=number, bidder=owner, amount=2500)
        for action in ("going_once", "going_twice", "sell"):
            step(actor=director, calcutta=calcutta, action=action)
    step(actor=director, calcutta=calcutta, action="close")
    return calcutta


def _won_by_entry(calcutta):
    settlement = Settlement.objects.get(calcutta=calcutta, is_current=True)
    return settlement, {
        int(line.bidder.name.split()[-1]): line.won for line in settlement.owner_lines.select_related("bidder")
    }


def test_a_round_robin_settles_by_its_standings_and_a_correction_settles_again(club, director_user):
    _, flight = swiss_event(club, director_user, 4, format="round_robin")
    calcutta = _sold(director_user, flight, ["100"])
    tournament_services.start_round(actor=director_user, flight=flight)
    play_round(director_user, flight)
    calcutta.refresh_from_db()
    assert calcutta.status == CalcuttaStatus.CLOSED
    assert "round 2" in calcutta.settlement_note  # says what it waits for (round 2 is paired)
    while flight.status != "finished":
        play_round(director_user, flight, choose=lambda pairing: 0 if pairing.round < 3 else 1)
    calcutta.refresh_from_db()
    assert calcutta.status == CalcuttaStatus.SETTLED
    first, won = _won_by_entry(calcutta)
    places = {p.entry_id: p.place for p in tournament_selectors.flight_placements(flight=flight)}
    winners = [entry for entry, place in places.items() if place == 1]
    assert {entry for entry, amount in won.items() if amount} == set(winners)
    assert sum(won.values()) == first.net_pool

    # The director corrects a round-1 result after the end: the standings, the places and the payout follow.
    table = flight.pairings.filter(round=1).select_related("match").first()
    overturn(director_user, table)
    current, _ = _won_by_entry(calcutta)
    assert current.version == first.version + 1
    assert current.places == {
        str(p.entry_id): p.place for p in tournament_selectors.flight_placements(flight=flight) if p.place
    }


def test_a_swiss_with_a_cut_settles_when_the_cut_knockout_is_won_and_its_corrected_final_resettles(club, director_user):
    event, flight = swiss_event(club, director_user, 8, rounds=3, cut_size=4)
    cut = tournament_services.add_flight(actor=director_user, event=event, name="Top 4", source=flight, feed_rule="cut")
    calcutta = _sold(director_user, flight, ["60", "40"])
    tournament_services.start_round(actor=director_user, flight=flight)
    while flight.status != "finished":
        play_round(director_user, flight)
    calcutta.refresh_from_db()
    assert calcutta.status == CalcuttaStatus.CLOSED
    assert "Top 4" in calcutta.settlement_note  # waiting for the cut's matches, named
    play_all(director_user, [cut], choose=lambda slot: 1)
    calcutta.refresh_from_db()
    assert calcutta.status == CalcuttaStatus.SETTLED
    first, won = _won_by_entry(calcutta)
    by_player = {e.player_id: e.pk for e in flight.entries.all()}
    champion = by_player[cut.entries.get(place=1).player_id]
    finalist = by_player[cut.entries.get(place=2).player_id]
    assert won[champion] == first.net_pool * 60 // 100 and won[finalist] > 0

    final = cut.slots.exclude(match=None).select_related("match").order_by("-round").first()
    overturn(director_user, final)  # the other finalist wins now
    current, corrected = _won_by_entry(calcutta)
    assert current.version == first.version + 1
    assert corrected[finalist] == won[champion] and corrected[champion] == won[finalist]


def test_no_calcutta_opens_on_a_flight_whose_first_round_is_being_played(club, director_user):
    _, flight = swiss_event(club, director_user, 4, rounds=2)
    tournament_services.start_round(actor=director_user, flight=flight)
    report(director_user, open_tables(flight)[0])
    with pytest.raises(Conflict) as refused:
        services.create_calcutta(actor=director_user, flight=flight, payout_places=["100"])
    assert refused.value.get_codes() == "round_one_started"


def test_a_result_costs_the_same_queries_with_a_calcutta_on_a_swiss_of_8_or_64(club, director_user):
    """The Calcutta settles (or says what it waits for) on every result of its flight: constant queries."""
    counts = []
    for n in (8, 64):
        _, flight = swiss_event(club, director_user, n, rounds=3)
        calcutta = services.create_calcutta(
            actor=director_user, flight=flight, payout_places=["100"], minimum_opening_bid=100, increment=100
        )
        first_entry = flight.entries.order_by("pk").first()
        services.set_lots(actor=director_user, calcutta=calcutta, groups=[[first_entry.pk]])  # and the field
        owner = services.register_bidder(actor=director_user, calcutta=calcutta, name="owner")
        step = services.auctioneer_step
        step(actor=director_user, calcutta=calcutta, action="open")
        for _lot in range(2):
            step(actor=director_user, calcutta=calcutta, action="open_next_lot")
            calcutta.refresh_from_db()
            number = calcutta.current_lot.number
            services.place_bid(actor=director_user, calcutta=calcutta, lot_number=number, bidder=owner, amount=100)
            for action in ("going_once", "going_twice", "sell"):
                step(actor=director_user, calcutta=calcutta, action=action)
        step(actor=director_user, calcutta=calcutta, action="close")
        tournament_services.start_round(actor=director_user, flight=flight)
        first, second = open_tables(flight)[:2]
        report(director_user, first)
        connection.queries_log.clear()
        with CaptureQueriesContext(connection) as captured:
            report(director_user, second)
        counts.append(len(captured))
    assert counts[0] == counts[1], counts
