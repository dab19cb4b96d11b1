import pytest
from hypothesis import given
from hypothesis import strategies as st

from ratings.core.ladder import LadderError, apply_result, can_challenge, join


def test_winning_challenger_takes_the_place_and_the_loser_drops_one():
    assert apply_result([1, 2, 3, 4, 5], challenger=5, defender=2, challenger_won=True) == [1, 5, 2, 3, 4]


def test_losing_challenger_drops_one():
    assert apply_result([1, 2, 3, 4, 5], challenger=4, defender=2, challenger_won=False) == [1, 2, 3, 5, 4]
    assert apply_result([1, 2, 3], challenger=3, defender=1, challenger_won=False) == [1, 2, 3]


def test_challenge_reaches_three_places_above_and_no_further():
    ladder = [1, 2, 3, 4, 5]
    can_challenge(ladder, 5, 2)
    with pytest.raises(LadderError) as error:
        can_challenge(ladder, 5, 1)
    assert error.value.code == "out_of_reach"
    with pytest.raises(LadderError):
        can_challenge(ladder, 2, 3)
    with pytest.raises(LadderError):
        can_challenge(ladder, 9, 1)


def test_newcomers_join_at_the_bottom_once():
    assert join([4, 7], 9) == [4, 7, 9]
    assert join([4, 7], 4) == [4, 7]


@given(st.integers(2, 12).flatmap(lambda n: st.tuples(st.just(n), st.integers(1, 3), st.integers(1, 3), st.booleans())))
def test_a_result_keeps_everyone_on_the_ladder_and_moves_only_between_the_two(args):
    n, back, reach_from_bottom, won = args
    ladder = list(range(100, 100 + n))
    challenger_at = max(1, n - reach_from_bottom)
    defender_at = max(0, challenger_at - back)
    challenger, defender = ladder[challenger_at], ladder[defender_at]
    after = apply_result(ladder, challenger, defender, won)
    assert sorted(after) == ladder
    low, high = min(defender_at, challenger_at), max(defender_at, challenger_at) + 1
    assert after[:low] == ladder[:low] and after[high + 1 :] == ladder[high + 1 :]
    if won:
        assert after.index(challenger) == defender_at and after.index(defender) == defender_at + 1
