"""Pools, the house's share, payout templates (across flights, split places) and side pools."""

from decimal import Decimal

import pytest

from tournaments import selectors, services
from tournaments.core.errors import BracketError
from tournaments.core.payouts import Share, compute, validate_template

from .builders import drawn_event, play_all


def test_template_must_total_100_percent_and_name_each_place_once():
    assert validate_template([{"place": 1, "percent": 70}, {"place": 2, "percent": "30"}])[1].percent == 30
    for bad in (
        [{"place": 1, "percent": 60}],
        [{"place": 1, "percent": 50}, {"place": 1, "percent": 50}],
        [{"place": 0, "percent": 100}],
        [{"percent": 100}],
        "50/50",
    ):
        with pytest.raises(BracketError):
            validate_template(bad)


def test_payout_from_the_actual_pool_with_house_share_and_split_places():
    shares = [Share("", 1, Decimal(50)), Share("", 2, Decimal(25)), Share("", 3, Decimal(25))]
    payout = compute(pool=10001, house_percent=Decimal("10"), shares=shares, holders={("", 3): ["A", "B"]})
    assert (payout.pool, payout.house, payout.net) == (10001, 1000, 9001)
    assert [line.amount for line in payout.lines] == [4501, 2250, 2250]  # the odd cent goes to the winner
    assert payout.lines[2].each == (1125, 1125)
    assert sum(line.amount for line in payout.lines) == payout.net


@pytest.mark.django_db
def test_side_pool_ranks_its_members_by_the_main_and_pays_from_its_own_fees(club, director_user):
    event, flights = drawn_event(club, director_user, 8, entry_fee=10)
    main = flights["main"]
    pool = services.add_flight(
        actor=director_user,
        event=event,
        name="Jackpot",
        kind="side_pool",
        source=main,
        entry_fee=5,
        payout_template=[{"place": 1, "percent": 100}],
    )
    members = [e.player for e in main.entries.order_by("draw_position")[:4]]
    for player in members:
        services.register(actor=director_user, flight=pool, player=player)
    play_all(director_user, [main])
    placements = selectors.flight_placements(flight=pool)
    assert placements[0].place == 1
    mains = {e.player_id: e.place for e in main.entries.all()}
    best = min(mains[p.pk] for p in members)
    assert mains[placements[0].player_id] == best
    prizes = {p.flight.slug: p for p in selectors.prize_list(event=event)}
    assert prizes["jackpot"].payout.pool == 2000
    assert prizes["jackpot"].payout.lines[0].holders
