import pytest
from hypothesis import given
from hypothesis import strategies as st

from calcutta.core import FIELD, CalcuttaError, LotPlan, check_order, group_by_rating, random_order
from calcutta.core.lots import Lot

ENTRANTS = ["ann", "ben", "cat", "dan", "eve", "fay"]


def test_the_field_is_everyone_in_no_lot():
    plan = LotPlan.build(ENTRANTS, [["ann"], ["ben", "cat"]])
    assert [lot.id for lot in plan.lots] == [1, 2]
    assert plan.field == Lot(id=FIELD, entrants=("dan", "eve", "fay"))
    assert plan.lot(2).entrants == ("ben", "cat")


@pytest.mark.parametrize(
    "groups, code",
    [
        ([["ann"], ["ann", "ben"]], "entrant_in_two_lots"),
        ([["zed"]], "unknown_entrant"),
        ([[]], "empty_lot"),
    ],
)
def test_lot_plan_refuses_an_entrant_twice_a_stranger_or_an_empty_lot(groups, code):
    with pytest.raises(CalcuttaError) as error:
        LotPlan.build(ENTRANTS, groups)
    assert error.value.code == code


def test_the_field_cannot_be_made_by_hand():
    with pytest.raises(CalcuttaError) as error:
        LotPlan(entrants=("ann",), lots=(Lot(id=FIELD, entrants=("ann",)),))
    assert error.value.code == "field_is_automatic"


RATINGS = {"ann": 1900, "ben": 1800, "cat": 1700, "dan": 1600, "eve": 1500, "fay": 1400, "gus": 1400}


def test_pairing_lesser_rated_players_keeps_the_strongest_alone_and_leaves_the_weakest_to_the_field():
    groups = group_by_rating(RATINGS, style="pair_lesser", singles=2, field=1)
    # fay and gus tie at 1400: the id decides, so gus (later) goes to the field
    assert groups == [("ann",), ("ben",), ("cat", "dan"), ("eve", "fay")]


def test_a_short_last_group_joins_the_one_before():
    groups = group_by_rating(RATINGS, style="pair_lesser", singles=2)
    assert groups == [("ann",), ("ben",), ("cat", "dan"), ("eve", "fay", "gus")]


def test_balanced_teams_deal_in_snake_order():
    six = {k: v for k, v in RATINGS.items() if k != "gus"}
    teams = group_by_rating(six, style="balanced", group_size=2)
    assert teams == [("ann", "fay"), ("ben", "eve"), ("cat", "dan")]
    assert {sum(six[e] for e in team) for team in teams} == {3300}


def test_grouping_refuses_more_singles_and_field_than_entrants():
    with pytest.raises(CalcuttaError) as error:
        group_by_rating(RATINGS, style="balanced", singles=5, field=3)
    assert error.value.code == "bad_grouping"


def test_random_order_is_reproducible_from_the_seed_and_independent_of_listing_order():
    ids = list(range(1, 21))
    first = random_order(ids, seed="flight-42")
    assert first == random_order(list(reversed(ids)), seed="flight-42")
    assert sorted(first) == ids
    assert first != random_order(ids, seed="flight-43")  # 20! orders: a collision here would be a bug


def test_director_order_must_name_every_lot_once():
    plan = LotPlan.build(ENTRANTS, [["ann"], ["ben"], ["cat"]])
    assert check_order(plan, [3, 1, 2]) == (3, 1, 2)
    with pytest.raises(CalcuttaError) as error:
        check_order(plan, [3, 3, 9])
    assert error.value.code == "bad_order"
    assert "missing lots 1, 2" in error.value.message and "unknown lots 9" in error.value.message


@given(
    ratings=st.dictionaries(st.integers(1, 500), st.integers(1000, 2200), min_size=1, max_size=40),
    style=st.sampled_from(["pair_lesser", "balanced"]),
    group_size=st.integers(2, 4),
    data=st.data(),
)
def test_a_grouping_proposal_places_every_entrant_once_and_leaves_the_weakest_to_the_field(
    ratings, style, group_size, data
):
    singles = data.draw(st.integers(0, len(ratings)))
    field = data.draw(st.integers(0, len(ratings) - singles))
    groups = group_by_rating(ratings, style=style, singles=singles, group_size=group_size, field=field)
    grouped = [entrant for group in groups for entrant in group]
    assert len(grouped) == len(set(grouped)) == len(ratings) - field
    plan = LotPlan.build(sorted(ratings), groups)
    assert len(plan.field.entrants) == field
    if field and grouped:
        assert max(ratings[e] for e in plan.field.entrants) <= min(ratings[e] for e in grouped)
