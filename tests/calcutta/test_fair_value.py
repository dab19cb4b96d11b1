"""A lot's fair value from its entrants' place chances and the payout table (calcutta.core.fair)."""

from decimal import Decimal

import pytest

from calcutta.core import CalcuttaSettings, PayoutTable, fair


def test_a_certain_winner_is_worth_the_winners_share_and_tied_places_share_their_percentages():
    payout = PayoutTable.of(["50", "30", "10", "10"])
    places = {"a": {1: 1.0}, "b": {2: 1.0}, "c": {3: 1.0}, "d": {3: 1.0}}
    shares = fair.expected_shares(payout, places, {1: 1, 2: 1, 3: 2})
    assert shares == pytest.approx({"a": 0.5, "b": 0.3, "c": 0.1, "d": 0.1})
    settings = CalcuttaSettings(payout=payout, house_take_percent=Decimal(10))
    net = fair.net_pool(100_00, settings)
    assert net == 90_00
    assert fair.fair_value(net, fair.lot_share(["c", "d"], shares)) == 18_00


def test_the_expected_shares_of_all_entrants_add_up_to_the_whole_table():
    payout = PayoutTable.of(["60", "40"])
    places = {"a": {1: 0.7, 2: 0.3}, "b": {1: 0.3, 2: 0.7}}
    shares = fair.expected_shares(payout, places, {1: 1, 2: 1})
    assert shares["a"] == pytest.approx(0.7 * 0.6 + 0.3 * 0.4)
    assert sum(shares.values()) == pytest.approx(1.0)


@pytest.mark.django_db
def test_the_auctioneer_sees_each_lots_fair_value_at_the_pot_so_far_and_the_owner_their_holdings(
    calcutta, flight, director_user
):
    from django.test import Client
    from django.utils import translation

    from calcutta import selectors, services
    from tests.calcutta.rows import entry_ids

    services.set_lots(actor=director_user, calcutta=calcutta, groups=[entry_ids(flight, "Anna")])
    paul = services.register_bidder(actor=director_user, calcutta=calcutta, name="paul")
    for action in ("open", "open_next_lot"):
        services.auctioneer_step(actor=director_user, calcutta=calcutta, action=action)
    services.place_bid(actor=director_user, calcutta=calcutta, lot_number=1, bidder=paul, amount=2000)
    for action in ("going_once", "going_twice", "sell"):
        services.auctioneer_step(actor=director_user, calcutta=calcutta, action=action)
    calcutta.refresh_from_db()
    fair = selectors.fair_values(calcutta=calcutta)
    assert (fair["pot"], fair["net"], fair["method"]) == (2000, 1800, "simulated")  # 10 % house take
    anna, field = sorted(fair["lots"].values(), key=lambda row: row["lot"].is_field)
    # eight unrated players: Anna one eighth of the pool, the field the rest (simulated draws: within 3 points)
    assert anna["share"] == pytest.approx(1 / 8, abs=0.03)
    assert anna["share"] + field["share"] == pytest.approx(1.0)
    assert anna["value"] + field["value"] == pytest.approx(1800, abs=1)
    client = Client()
    client.force_login(director_user)
    with translation.override("en"):
        page = client.get(f"/calcuttas/{calcutta.pk}/auctioneer/").content.decode()
    assert "Fair values" in page and "at the pot so far (20.00, 18.00 after the house take)" in page
    for action in ("open_next_lot",):
        services.auctioneer_step(actor=director_user, calcutta=calcutta, action=action)
    services.place_bid(actor=director_user, calcutta=calcutta, lot_number=0, bidder=paul, amount=1000)
    for action in ("going_once", "going_twice", "sell", "close"):
        services.auctioneer_step(actor=director_user, calcutta=calcutta, action=action)
    with translation.override("en"):
        owner = client.get(f"/calcuttas/{calcutta.pk}/owners/{paul.pk}/").content.decode()
    assert "Expected value" in owner
    calcutta.refresh_from_db()
    fair = selectors.fair_values(calcutta=calcutta)
    assert fair["net"] == 2700
    for row in fair["lots"].values():  # paul holds both lots whole: each lot's fair value is his
        assert f"{row['value'] / 100:.2f}" in owner
