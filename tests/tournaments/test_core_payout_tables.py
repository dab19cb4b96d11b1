"""Payout tables that grow with the field (pure): presets, a club's own bands, the pool and its split to the cent."""

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.core import payout_tables as pt


@pytest.mark.parametrize("key", sorted(pt.PRESETS))
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_every_preset_pays_the_whole_pool_for_every_field_with_ties(key, data):
    table = pt.preset(key)
    for field in range(2, 257):
        shares = table.shares(field)
        assert sum(shares) == 1 and all(s > 0 for s in shares) and len(shares) <= field
        net = data.draw(st.integers(0, 10**9), label="net") if field % 37 == 2 else 100 * field + field % 7
        amounts = pt.split(net, shares)
        assert sum(amounts) == net
        assert list(amounts) == sorted(amounts, reverse=True)  # a higher place never gets less
    # ties: the whole field placed in tied groups (1, 2, 3, 3, 5, ...) takes exactly the pool
    field = data.draw(st.integers(2, 256), label="field")
    net = data.draw(st.integers(0, 10**9), label="pot")
    amounts = pt.split(net, table.shares(field))
    sizes = data.draw(st.lists(st.integers(1, 4), min_size=1, max_size=field), label="ties")
    standings, place, player = {}, 1, 0
    for size in sizes:
        size = min(size, field - player)
        if size <= 0:
            break
        standings[place] = [f"p{player + i}" for i in range(size)]
        place, player = place + size, player + size
    if player < field:
        standings[place] = [f"p{i}" for i in range(player, field)]
    awards = pt.award(amounts, standings)
    assert sum(sum(a.each) for a in awards) == net
    for a in awards:
        assert max(a.each) - min(a.each) <= 1


def test_rounding_gives_the_leftover_cents_to_the_higher_places():
    assert pt.split(100, (Fraction(1, 3), Fraction(1, 3), Fraction(1, 3))) == (34, 33, 33)
    assert pt.split(101, (Fraction(1, 3), Fraction(1, 3), Fraction(1, 3))) == (34, 34, 33)


def test_club_preset_grows_with_the_field():
    table = pt.preset("club")
    assert [len(table.shares(n)) for n in (2, 8, 9, 16, 17, 32, 33, 200)] == [2, 2, 3, 3, 4, 4, 6, 6]
    assert pt.split(10_000, table.shares(12)) == (5_000, 3_000, 2_000)


def test_top_ten_percent_pays_a_tenth_of_the_field_on_a_falling_scale():
    table = pt.preset("top10")
    assert len(table.shares(8)) == 1 and len(table.shares(40)) == 4 and len(table.shares(41)) == 5
    assert table.percents(40) == tuple(pt.Decimal(p) for p in ("40.00", "30.00", "20.00", "10.00"))


def test_two_tied_third_places_share_third_and_fourth():
    amounts = pt.split(10_001, pt.preset("club").shares(20))  # 45/25/15/15
    awards = pt.award(amounts, {1: ["a"], 2: ["b"], 3: ["c", "d"], 5: ["e"]})
    third = awards[2]
    assert third.covers == (3, 4) and third.amount == amounts[2] + amounts[3]
    assert third.each == (1500, 1500) and awards[3].amount == 0 and awards[3].covers == ()


def test_pool_house_percent_fixed_take_and_added_money():
    pool = pt.make_pool(collected=10_000, entries=10, house_percent="10", house_fixed=50, added=2_000)
    assert (pool.house, pool.net) == (1_500, 10_500) and pool.return_percent == pt.Decimal("105.0")
    assert pt.make_pool(collected=100, entries=10, house_percent=0, house_fixed=500).net == 0  # never below zero


def good():
    return [
        {"from": 2, "to": 8, "percents": ["70", "30"]},
        {"from": 9, "to": 16, "percents": ["50", "30", "20"]},
        {"from": 17, "to": None, "percents": ["40", "30", "20", "10"]},
    ]


def test_a_club_table_is_read_in_any_order():
    table = pt.parse_bands(list(reversed(good())))
    assert [b.label for b in table.bands] == ["2–8", "9–16", "17+"]
    assert len(table.shares(100)) == 4


@pytest.mark.parametrize(
    ("change", "code", "says"),
    [
        (lambda b: b[1].update(percents=["50", "30", "15"]), "band_under_100", "add 5%"),
        (lambda b: b[1].update(percents=["50", "40", "20"]), "band_over_100", "take away 10%"),
        (lambda b: b[1].update({"from": 7}), "bands_overlap", "start the second at 9"),
        (lambda b: b[2].update({"from": 20}), "bands_gap", "start band 20+ at 17"),
        (lambda b: b[0].update({"from": 3}), "bands_start", "start at 2"),
        (lambda b: b[2].update(to=64), "bands_open_end", "open-ended"),
        (lambda b: b[0].update(percents=["40", "30", "30"]), "band_too_many_places", "start it at 3"),
        (lambda b: b[0].update(percents=["30", "70"]), "band_rising", "largest first"),
        (lambda b: b[0].update(percents=["NaN", "100"]), "band_percent_range", "more than 0"),
        (lambda b: b[0].update(percents=["1e999999", "1"]), "band_percent_range", "at most 100"),
        (lambda b: b[0].update(percents=[-50, 150]), "band_percent_range", "more than 0"),
        (lambda b: b[0].update({"to": 2**63}), "band_bound_range", "between 2 and"),
        (lambda b: b.clear(), "bands_empty", "at least one band"),
    ],
)
def test_a_bad_club_table_is_refused_saying_what_would_work(change, code, says):
    bands = good()
    change(bands)
    with pytest.raises(pt.PayoutTableError) as refused:
        pt.parse_bands(bands)
    assert refused.value.code == code and says in refused.value.message


def test_an_unknown_preset_names_the_known_ones():
    with pytest.raises(pt.PayoutTableError, match="winner, club, top10, top25"):
        pt.preset("nope")
