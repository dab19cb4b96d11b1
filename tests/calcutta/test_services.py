"""The Django layer on the core: the live auction stored as steps, ownership, settlement from the bracket."""

from types import SimpleNamespace

import pytest

from base.api import Conflict
from calcutta import demo, selectors, services
from calcutta.core import CalcuttaError
from calcutta.models import Bid, CalcuttaStatus, Holding, LotPhase, Settlement
from tests.calcutta.rows import entry_ids, place
from tests.refusals import PermissionDenied, ValidationError
from tests.tournaments.builders import drawn_event, ready_slots, win
from tournaments import hooks

pytestmark = pytest.mark.django_db


def register(calcutta, director, *names):
    return [services.register_bidder(actor=director, calcutta=calcutta, name=name) for name in names]


@pytest.fixture
def worked_example(calcutta, flight, director_user):
    """docs/calcutta.md's worked example, run through the services."""
    services.set_lots(
        actor=director_user,
        calcutta=calcutta,
        groups=[
            entry_ids(flight, "Anna"),
            entry_ids(flight, "Bernd"),
            entry_ids(flight, "Clara", "Dieter"),
            entry_ids(flight, "Eva"),
        ],
    )
    services.set_order(actor=director_user, calcutta=calcutta, order=[1, 2, 3, 4])
    paul, olga, quinn, rita, sara, tom = register(
        calcutta, director_user, "paul", "olga", "quinn", "rita", "sara", "tom"
    )
    anna_player = flight.entries.get(player__name="Anna").player
    anna = services.register_bidder(actor=director_user, calcutta=calcutta, name="anna", player=anna_player)
    step = services.auctioneer_step
    step(actor=director_user, calcutta=calcutta, action="open")
    step(actor=director_user, calcutta=calcutta, action="open_next_lot")
    services.place_bid(actor=director_user, calcutta=calcutta, lot_number=1, bidder=paul, amount=10000)
    services.place_bid(actor=director_user, calcutta=calcutta, lot_number=1, bidder=olga, amount=12000)
    for action in ("going_once", "going_twice", "sell"):
        step(actor=director_user, calcutta=calcutta, action=action)
    for number, sale in ((2, (paul, 8500)), (3, (quinn, 6001)), (4, None), (0, (rita, 4500))):
        step(actor=director_user, calcutta=calcutta, action="open_next_lot")
        if sale is None:
            step(actor=director_user, calcutta=calcutta, action="pass_lot")
            continue
        services.place_bid(actor=director_user, calcutta=calcutta, lot_number=number, bidder=sale[0], amount=sale[1])
        for action in ("going_once", "going_twice", "sell"):
            step(actor=director_user, calcutta=calcutta, action=action)
    step(actor=director_user, calcutta=calcutta, action="close")
    offer = services.offer_syndicate(
        actor=director_user, calcutta=calcutta, lot_number=2, holder=paul, shares={paul: "1/3", sara: "1/3", tom: "1/3"}
    )
    assert offer.status == "formed"  # guests without a login: the director answers for them
    services.buy_back(actor=director_user, calcutta=calcutta, lot_number=1, bidder=anna, share="25%")
    calcutta.refresh_from_db()
    return calcutta, {b.name: b for b in (paul, olga, quinn, rita, sara, tom, anna)}


def lines(settlement):
    return {
        line.bidder.name: (line.paid_in, line.won, line.net) for line in settlement.owner_lines.select_related("bidder")
    }


def test_worked_example_settles_to_the_cent_when_the_bracket_finishes(worked_example, flight):
    calcutta, bidders = worked_example
    assert calcutta.status == CalcuttaStatus.CLOSED
    assert "confirm the bracket results" in calcutta.settlement_note
    place(flight, {"Bernd": 1, "Greta": 2, "Anna": 3, "Clara": 3})
    hooks.flight_results_changed(flight)
    calcutta.refresh_from_db()
    assert calcutta.status == CalcuttaStatus.SETTLED
    settlement = Settlement.objects.get(calcutta=calcutta, is_current=True)
    assert (settlement.pool, settlement.house_take, settlement.net_pool, settlement.unclaimed) == (
        31001,
        3100,
        27901,
        0,
    )
    assert lines(settlement) == {
        "anna": (3000, 872, 2128),
        "olga": (9000, 2616, 6384),
        "paul": (2834, 4650, -1816),
        "quinn": (6001, 3488, 2513),
        "rita": (4500, 6975, -2475),
        "sara": (2833, 4650, -1817),
        "tom": (2833, 4650, -1817),
    }
    assert sum(p.amount for p in settlement.payouts.all()) == settlement.net_pool


def test_a_corrected_result_changes_the_settlement(worked_example, flight):
    calcutta, _ = worked_example
    place(flight, {"Bernd": 1, "Greta": 2, "Anna": 3, "Clara": 3})
    hooks.flight_results_changed(flight)
    place(flight, {"Bernd": 2, "Greta": 1})  # the final's result is corrected
    hooks.flight_results_changed(flight)
    current = Settlement.objects.get(calcutta=calcutta, is_current=True)
    assert current.version == 2
    assert lines(current)["rita"][1] == 13950  # the field's Greta won: 50% of 279.01, rounded by the rule
    assert Settlement.objects.filter(calcutta=calcutta).count() == 2


def test_the_same_results_again_write_no_new_version(worked_example, flight):
    calcutta, _ = worked_example
    place(flight, {"Bernd": 1, "Greta": 2, "Anna": 3, "Clara": 3})
    hooks.flight_results_changed(flight)
    hooks.flight_results_changed(flight)
    assert Settlement.objects.filter(calcutta=calcutta).count() == 1


def test_a_voided_final_unsettles_until_it_is_played_again(worked_example, flight):
    calcutta, _ = worked_example
    place(flight, {"Bernd": 1, "Greta": 2, "Anna": 3, "Clara": 3})
    hooks.flight_results_changed(flight)
    place(flight, {"Bernd": None, "Greta": None})
    hooks.flight_results_changed(flight)
    calcutta.refresh_from_db()
    assert calcutta.status == CalcuttaStatus.CLOSED and calcutta.settlement_note
    assert not Settlement.objects.filter(calcutta=calcutta, is_current=True).exists()


def test_lots_show_their_finish_as_results_come_in(worked_example, flight):
    calcutta, _ = worked_example
    place(flight, {"Anna": 3})
    hooks.flight_results_changed(flight)
    assert calcutta.lots.get(number=1).finish == 3
    assert calcutta.lots.get(number=2).finish is None


def test_holdings_sum_to_one_and_amounts_due_to_the_total(worked_example):
    calcutta, _ = worked_example
    from fractions import Fraction

    for lot in calcutta.lots.filter(phase=LotPhase.SOLD):
        assert sum((h.share for h in lot.holdings.all()), Fraction(0)) == 1
    assert sum(Holding.objects.filter(lot__calcutta=calcutta).values_list("amount_due", flat=True)) == 31001


def test_passed_lot_joins_the_field(worked_example, flight):
    calcutta, _ = worked_example
    field = calcutta.lots.get(is_field=True)
    assert set(field.entries.values_list("player__name", flat=True)) == {"Eva", "Felix", "Greta", "Hans"}
    assert calcutta.lots.get(number=4).phase == LotPhase.PASSED


@pytest.fixture
def running(calcutta, flight, director_user):
    services.set_lots(
        actor=director_user, calcutta=calcutta, groups=[entry_ids(flight, "Anna"), entry_ids(flight, "Bernd")]
    )
    services.set_order(actor=director_user, calcutta=calcutta, order=[1, 2])
    paul, olga = register(calcutta, director_user, "paul", "olga")
    services.auctioneer_step(actor=director_user, calcutta=calcutta, action="open")
    services.auctioneer_step(actor=director_user, calcutta=calcutta, action="open_next_lot")
    calcutta.refresh_from_db()
    return calcutta, paul, olga


def test_each_bid_must_beat_the_last_by_the_increment(running, director_user):
    calcutta, paul, olga = running
    with pytest.raises(ValidationError) as refused:
        services.place_bid(actor=director_user, calcutta=calcutta, lot_number=1, bidder=paul, amount=999)
    assert "10.00" in str(refused.value)
    services.place_bid(actor=director_user, calcutta=calcutta, lot_number=1, bidder=paul, amount=1000)
    with pytest.raises(ValidationError) as refused:
        services.place_bid(actor=director_user, calcutta=calcutta, lot_number=1, bidder=olga, amount=1499)
    assert refused.value.message_dict == {"amount": ["Bid at least 15.00."]}


def test_a_bid_on_a_sold_lot_or_after_the_close_is_a_conflict(running, director_user):
    calcutta, paul, olga = running
    services.place_bid(actor=director_user, calcutta=calcutta, lot_number=1, bidder=paul, amount=1000)
    for action in ("going_once", "going_twice", "sell"):
        services.auctioneer_step(actor=director_user, calcutta=calcutta, action=action)
    with pytest.raises(CalcuttaError, match="sold") as sold:
        services.place_bid(actor=director_user, calcutta=calcutta, lot_number=1, bidder=olga, amount=5000)
    assert sold.value.is_conflict  # answered 409
    for action in ("open_next_lot", "pass_lot", "open_next_lot", "pass_lot", "close"):
        services.auctioneer_step(actor=director_user, calcutta=calcutta, action=action)
    with pytest.raises(CalcuttaError, match="closed") as closed:
        services.place_bid(actor=director_user, calcutta=calcutta, lot_number=0, bidder=olga, amount=5000)
    assert closed.value.is_conflict


def test_a_retried_bid_with_the_same_key_is_placed_once(running, director_user):
    calcutta, paul, olga = running
    first, created = services.place_bid(
        actor=director_user, calcutta=calcutta, lot_number=1, bidder=paul, amount=1000, idempotency_key="k1"
    )
    again, created_again = services.place_bid(
        actor=director_user, calcutta=calcutta, lot_number=1, bidder=paul, amount=1000, idempotency_key="k1"
    )
    assert (created, created_again, again.pk) == (True, False, first.pk)
    assert Bid.objects.filter(calcutta=calcutta).count() == 1
    services.place_bid(actor=director_user, calcutta=calcutta, lot_number=1, bidder=olga, amount=1500)
    late, created_late = services.place_bid(  # the retry arrives after a higher bid: still the bid it placed
        actor=director_user, calcutta=calcutta, lot_number=1, bidder=paul, amount=1000, idempotency_key="k1"
    )
    assert (created_late, late.pk) == (False, first.pk)
    with pytest.raises(CalcuttaError) as reused:
        services.place_bid(
            actor=director_user, calcutta=calcutta, lot_number=1, bidder=paul, amount=2000, idempotency_key="k1"
        )
    assert (reused.value.code, reused.value.is_conflict) == ("key_reused", False)  # answered 400


def test_undo_the_last_sold_lot_before_the_next_opens(running, director_user):
    calcutta, paul, _ = running
    services.place_bid(actor=director_user, calcutta=calcutta, lot_number=1, bidder=paul, amount=1000)
    for action in ("going_once", "going_twice", "sell"):
        services.auctioneer_step(actor=director_user, calcutta=calcutta, action=action)
    services.auctioneer_step(actor=director_user, calcutta=calcutta, action="undo_last")
    lot = calcutta.lots.get(number=1)
    assert (lot.phase, lot.price, lot.high_bid) == (LotPhase.OPEN, None, 1000)
    for action in ("going_once", "going_twice", "sell", "open_next_lot"):
        services.auctioneer_step(actor=director_user, calcutta=calcutta, action=action)
    with pytest.raises(CalcuttaError) as too_late:
        services.auctioneer_step(actor=director_user, calcutta=calcutta, action="undo_last")
    assert too_late.value.is_conflict


def test_only_directors_run_the_auction_and_bidders_bid_only_as_themselves(running, member_user, director_user):
    calcutta, paul, _ = running
    with pytest.raises(PermissionDenied):
        services.auctioneer_step(actor=member_user, calcutta=calcutta, action="going_once")
    with pytest.raises(PermissionDenied):
        services.place_bid(actor=member_user, calcutta=calcutta, lot_number=1, bidder=paul, amount=1000)
    me = services.register_bidder(actor=member_user, calcutta=calcutta)
    bid, _ = services.place_bid(actor=member_user, calcutta=calcutta, lot_number=1, bidder=me, amount=1000)
    assert bid.bidder == me and me.user == member_user


def test_a_player_may_not_bid_on_their_own_lot(running, director_user, flight):
    calcutta, paul, _ = running
    anna = services.register_bidder(
        actor=director_user, calcutta=calcutta, player=flight.entries.get(player__name="Anna").player
    )
    with pytest.raises(CalcuttaError, match="lot they are in") as own_lot:
        services.place_bid(actor=director_user, calcutta=calcutta, lot_number=1, bidder=anna, amount=1000)
    assert (own_lot.value.field, own_lot.value.is_conflict) == ("bidder", False)
    services.place_bid(actor=director_user, calcutta=calcutta, lot_number=1, bidder=paul, amount=1000)
    # a bid already beaten is refused before the lock is taken, but a bid on one's own lot is told that first
    with pytest.raises(CalcuttaError, match="lot they are in"):
        services.place_bid(actor=director_user, calcutta=calcutta, lot_number=1, bidder=anna, amount=1000)
    bernd = services.register_bidder(
        actor=director_user, calcutta=calcutta, player=flight.entries.get(player__name="Bernd").player
    )
    with pytest.raises(ValidationError) as beaten:  # Bernd is in lot 2, so lot 1 is his to bid on
        services.place_bid(actor=director_user, calcutta=calcutta, lot_number=1, bidder=bernd, amount=1000)
    assert beaten.value.message_dict == {"amount": ["Bid at least 15.00."]}


def test_settings_are_checked_and_frozen_once_the_auction_opens(calcutta, director_user):
    with pytest.raises(CalcuttaError) as refused:
        services.update_settings(actor=director_user, calcutta=calcutta, payout_places=["50", "30"])
    assert refused.value.field == "payout_places"
    services.auctioneer_step(actor=director_user, calcutta=calcutta, action="open")
    with pytest.raises(Conflict):
        services.update_settings(actor=director_user, calcutta=calcutta, payout_places=["100"])


def test_the_random_order_is_reproducible_from_the_stored_seed(calcutta, flight, director_user):
    from calcutta.selectors import display_order

    services.set_lots(
        actor=director_user,
        calcutta=calcutta,
        groups=[[pk] for pk in entry_ids(flight, *["Anna", "Bernd", "Clara", "Dieter", "Eva"])],
    )
    calcutta.refresh_from_db()
    first = display_order(calcutta, [1, 2, 3, 4, 5])
    assert display_order(calcutta, [1, 2, 3, 4, 5]) == first
    services.auctioneer_step(actor=director_user, calcutta=calcutta, action="open")
    services.auctioneer_step(actor=director_user, calcutta=calcutta, action="open_next_lot")
    calcutta.refresh_from_db()
    assert calcutta.current_lot.number == first[0]


def test_a_late_entry_winning_leaves_the_calcutta_closed_with_the_reason(worked_example, flight):
    from tests.clubs.factories import MembershipFactory
    from tournaments.models import Entry

    calcutta, _ = worked_example
    late = Entry.objects.create(flight=flight, player=MembershipFactory(club=flight.event.club).player, place=1)
    place(flight, {"Bernd": 2, "Greta": 3, "Anna": 3})
    hooks.flight_results_changed(flight)  # the bracket's change goes through
    calcutta.refresh_from_db()
    assert late.pk not in calcutta.entrants
    assert calcutta.status == CalcuttaStatus.CLOSED and calcutta.settlement_note


def test_a_player_registered_by_the_director_takes_over_their_bidder_when_signing_up(calcutta, director_user, club):
    from tests.clubs.factories import MembershipFactory

    player = MembershipFactory(club=club).player
    by_director = services.register_bidder(actor=director_user, calcutta=calcutta, player=player)
    by_themselves = services.register_bidder(actor=player.user, calcutta=calcutta)
    assert by_themselves.pk == by_director.pk and by_themselves.user == player.user
    with pytest.raises(ValidationError):
        services.register_bidder(actor=director_user, calcutta=calcutta, name="someone", user=player.user)


def test_a_calcutta_is_sold_before_round_one_and_never_auctions_an_eliminated_player(club, director_user):
    event, flights = drawn_event(club, director_user, 8)
    main = flights["main"]
    early = services.create_calcutta(actor=director_user, flight=main)  # released, nothing played: allowed
    slot = ready_slots(main)[0]
    win(director_user, slot, 0)
    loser = slot.entry_b
    with pytest.raises(Conflict, match="Round 1 of Main has started: a Calcutta is sold before the first match"):
        services.auctioneer_step(actor=director_user, calcutta=early, action="open")
    early.delete()
    assert main not in selectors.flights_to_start(user=director_user)  # not offered on the list any more
    with pytest.raises(Conflict, match="Run it on a flight that has not started yet"):
        services.create_calcutta(actor=director_user, flight=main)
    loser.refresh_from_db()
    assert loser.place is not None
    assert loser.pk not in {e.pk for e in selectors.calcutta_entries(early)}


def test_an_unsettled_calcutta_says_which_matches_it_waits_for(club, director_user):
    event, flights = drawn_event(club, director_user, 8)
    main = flights["main"]
    players = [entry.player for entry in main.entries.order_by("pk")]
    context = SimpleNamespace(director=director_user, players=players[:4], lines=[])
    calcutta = demo.auction(context, event, main)  # sold and closed before round 1
    calcutta.refresh_from_db()
    first = ready_slots(main)[0]
    assert calcutta.status == CalcuttaStatus.CLOSED
    assert calcutta.settlement_note.startswith("Main has 7 matches to play before the paid places are known")
    assert f"ready to play: {first.entry_a.player.name} – {first.entry_b.player.name}" in calcutta.settlement_note
    while len(ready_slots(main)) and ready_slots(main)[0].round < 3:
        win(director_user, ready_slots(main)[0])
    final = ready_slots(main)[0]
    calcutta.refresh_from_db()
    names = f"{final.entry_a.player.name} – {final.entry_b.player.name}"
    assert calcutta.settlement_note == (
        f"Main has 1 match to play before the paid places are known; ready to play: {names}."
    )
    win(director_user, final)
    calcutta.refresh_from_db()
    assert calcutta.status == CalcuttaStatus.SETTLED and calcutta.settlement_note == ""
