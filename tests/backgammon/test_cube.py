"""Cube handling: access, timing, Crawford, Holland, beaver/raccoon, limit and Murphy."""

import pytest

from backgammon.cube import Cube, CubeRules
from backgammon.scoring import ScoringError

MATCH = CubeRules(match_play=True)
MONEY = CubeRules(match_play=False, beaver=True, raccoon=True)


def code_of(call, *args, **kwargs):
    with pytest.raises(ScoringError) as caught:
        call(*args, **kwargs)
    return caught.value.code


def test_centred_cube_may_be_turned_by_either_side_and_taken():
    Cube().check_double(MATCH, side=0)
    Cube().check_double(MATCH, side=1)
    assert Cube().take(MATCH, taker=1) == Cube(value=2, owner=1)


def test_only_the_owner_redoubles():
    cube = Cube(value=2, owner=1)
    assert code_of(cube.check_double, MATCH, side=0) == "double_without_access"
    cube.check_double(MATCH, side=1)
    assert cube.take(MATCH, taker=0) == Cube(value=4, owner=0)


def test_no_double_after_rolling_or_in_the_crawford_game():
    assert code_of(Cube().check_double, MATCH, side=0, has_rolled=True) == "double_after_roll"
    assert code_of(Cube().check_double, MATCH, side=0, crawford_game=True) == "double_in_crawford"


def test_holland_rule_holds_the_trailer_until_each_side_rolled_twice():
    holland = CubeRules(match_play=True, holland=True)
    refused = code_of(Cube().check_double, holland, side=0, holland_trailer=True, rolls_this_game=(2, 1))
    assert refused == "double_before_holland"
    Cube().check_double(holland, side=0, holland_trailer=True, rolls_this_game=(2, 2))
    Cube().check_double(MATCH, side=0, holland_trailer=True, rolls_this_game=(0, 0))


def test_beaver_and_raccoon_in_money_play():
    assert Cube().beaver(MONEY, taker=1) == Cube(value=4, owner=1)
    assert Cube(value=2, owner=0).raccoon(MONEY, taker=1) == Cube(value=16, owner=1)


def test_beaver_and_raccoon_refused_in_match_play_or_when_not_agreed():
    assert code_of(Cube().beaver, MATCH, taker=1) == "beaver_not_allowed"
    assert code_of(Cube().raccoon, CubeRules(match_play=False, beaver=True), taker=1) == "beaver_not_allowed"
    assert code_of(CubeRules, match_play=True, beaver=True) == "money_option_in_match"


def test_cube_limit():
    limited = CubeRules(match_play=False, beaver=True, limit=4)
    Cube(value=2, owner=0).check_double(limited, side=0)
    assert code_of(Cube(value=4, owner=0).check_double, limited, side=0) == "cube_limit"
    assert code_of(Cube(value=2, owner=0).beaver, limited, taker=1) == "cube_limit"


def test_murphy_automatic_doubles_up_to_the_agreed_maximum():
    murphy = CubeRules(match_play=False, murphy_max=2)
    assert Cube().after_tied_opening_rolls(murphy, ties=1) == Cube(value=2)
    assert Cube().after_tied_opening_rolls(murphy, ties=5) == Cube(value=4)
    assert Cube().after_tied_opening_rolls(CubeRules(match_play=False), ties=3) == Cube()


def test_a_cube_shows_a_power_of_two():
    assert code_of(Cube, value=3) == "bad_cube"
