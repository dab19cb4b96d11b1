"""End to end with the real bracket: results confirmed in the tournament settle the Calcutta, and a corrected
final changes the settlement."""

import datetime

import pytest

from calcutta import services
from calcutta.models import CalcuttaStatus, Settlement
from games.matchplay import services as match_services
from tests.clubs.factories import MembershipFactory
from tournaments import services as tournament_services

pytestmark = pytest.mark.django_db


def play_ready_matches(flight, director, *, a_wins=True):
    for slot in flight.slots.filter(result="ready").select_related("match"):
        scores = (7, 0) if a_wins else (0, 7)
        match_services.submit_report(
            actor=director, match=slot.match, method="final_score", scores=scores, as_director=True
        )


def test_results_in_the_bracket_settle_the_calcutta_and_a_correction_resettles(club, director_user):
    event = tournament_services.create_event(
        actor=director_user, club=club, name="Cup", starts_on=datetime.date(2026, 11, 22)
    )
    flight = tournament_services.add_flight(actor=director_user, event=event, name="Main")
    for name in ["Anna", "Bernd", "Clara", "Dieter"]:
        player = MembershipFactory(club=club, player__name=name).player
        tournament_services.register(actor=director_user, flight=flight, player=player)

    calcutta = services.create_calcutta(
        actor=director_user, flight=flight, payout_places=["70", "30"], minimum_opening_bid=1000, increment=500
    )
    entries = list(flight.entries.order_by("pk"))
    services.set_lots(actor=director_user, calcutta=calcutta, groups=[[e.pk] for e in entries])
    services.set_order(actor=director_user, calcutta=calcutta, order=[1, 2, 3, 4])
    owners = [services.register_bidder(actor=director_user, calcutta=calcutta, name=f"owner {n}") for n in range(4)]
    step = services.auctioneer_step
    step(actor=director_user, calcutta=calcutta, action="open")
    for number, owner in enumerate(owners, start=1):
        step(actor=director_user, calcutta=calcutta, action="open_next_lot")
        services.place_bid(actor=director_user, calcutta=calcutta, lot_number=number, bidder=owner, amount=2500)
        for action in ("going_once", "going_twice", "sell"):
            step(actor=director_user, calcutta=calcutta, action=action)
    step(actor=director_user, calcutta=calcutta, action="close")

    tournament_services.draw_flight(actor=director_user, flight=flight, seed=7)
    tournament_services.confirm_draw(actor=director_user, flight=flight)
    tournament_services.release_draw(actor=director_user, flight=flight)
    play_ready_matches(flight, director_user)  # the semi-finals
    calcutta.refresh_from_db()
    assert calcutta.status == CalcuttaStatus.CLOSED
    assert sorted(lot.finish for lot in calcutta.lots.filter(is_field=False) if lot.finish) == [3, 3]

    play_ready_matches(flight, director_user)  # the final
    calcutta.refresh_from_db()
    assert calcutta.status == CalcuttaStatus.SETTLED
    first = Settlement.objects.get(calcutta=calcutta, is_current=True)
    won = {line.bidder.name: line.won for line in first.owner_lines.select_related("bidder")}
    assert (first.pool, first.net_pool) == (10000, 9000)
    assert sorted(won.values()) == [0, 0, 2700, 6300]

    final = flight.slots.exclude(match=None).order_by("-round").first()
    match_services.submit_report(
        actor=director_user, match=final.match, method="final_score", scores=(0, 7), as_director=True
    )  # the director corrects the final: the other finalist won
    current = Settlement.objects.get(calcutta=calcutta, is_current=True)
    assert current.version == 2
    corrected = {line.bidder.name: line.won for line in current.owner_lines.select_related("bidder")}
    winner_before = max(won, key=won.get)
    assert corrected[winner_before] == 2700 and sorted(corrected.values()) == [0, 0, 2700, 6300]
