"""Backward hitting in the rules engine, on small hand-checked positions: each test lists the exact legal plays
a player works out by hand (written as a record writes them, hits unmarked), and the verdict on written moves."""

import pytest

from backgammon.moves import (
    BACKWARD_NOT_HIT,
    BACKWARD_ON_BAR,
    BACKWARD_SMALLER_DIE,
    ILLEGAL_MOVE,
    INCOMPLETE_PLAY,
    LARGER_DIE_REQUIRED,
    check_play,
    format_steps,
    legal_plays,
    legal_results,
    max_dice_playable,
)
from backgammon.variants import BackwardHitting
from tests.backgammon.positions import make_board

ANY = BackwardHitting.ANY_DIE
SMALLER = BackwardHitting.SMALLER_DIE

# Two checkers on the 6, one on the 8; a lone opposing checker on my 9, two on my 1.
BLOT_ON_NINE = make_board({6: 2, 8: 1}, {9: 1, 1: 2})


def plays(board, dice, backward, side=0):
    """The legal plays as text, one per distinct result."""
    return sorted(format_steps(play.steps) for play in legal_plays(board, side, dice, backward=backward))


def test_either_die_may_hit_backwards():
    # forward: 6/3, 8/5 (3) and 6/5, 8/7 (1); backward hits: 6/9 with the 3, 8/9 with the 1
    assert plays(BLOT_ON_NINE, (3, 1), ANY) == [
        "6/3 3/2", "6/3 6/5", "6/3 8/7", "6/3 8/9",
        "6/9 6/5", "6/9 8/7", "6/9 9/8",
        "8/5 5/4", "8/5 6/5",
        "8/9 9/6",
    ]  # fmt: skip
    assert plays(BLOT_ON_NINE, (1, 3), ANY) == plays(BLOT_ON_NINE, (3, 1), ANY)


def test_the_smaller_die_setting_hits_backwards_with_the_smaller_die_only():
    assert plays(BLOT_ON_NINE, (3, 1), SMALLER) == [
        "6/3 3/2", "6/3 6/5", "6/3 8/7", "6/3 8/9", "8/5 5/4", "8/5 6/5", "8/9 9/6",
    ]  # fmt: skip
    check = check_play(BLOT_ON_NINE, 0, (3, 1), [(6, 9), (8, 7)], backward=SMALLER)
    assert (check.ok, check.code) == (False, BACKWARD_SMALLER_DIE)
    assert "only the smaller die (1)" in check.message
    assert check_play(BLOT_ON_NINE, 0, (3, 1), [(6, 9), (8, 7)], backward=ANY).ok


def test_standard_rules_know_no_backward_move():
    assert plays(BLOT_ON_NINE, (3, 1), None) == ["6/3 3/2", "6/3 6/5", "6/3 8/7", "8/5 5/4", "8/5 6/5"]
    check = check_play(BLOT_ON_NINE, 0, (3, 1), [(6, 9), (8, 7)])
    assert (check.ok, check.code) == (False, ILLEGAL_MOVE)


def test_a_written_backward_hit_gives_the_board_with_the_blot_on_the_bar():
    check = check_play(BLOT_ON_NINE, 0, (3, 1), [(8, 9), (9, 6)], backward=ANY, hits=[9])
    assert check.ok and check.steps == ((8, 9), (9, 6))
    assert check.result == make_board({6: 3}, {0: 1, 1: 2})


@pytest.mark.parametrize(
    "theirs",
    [{1: 2}, {9: 2, 1: 2}],  # the 9-point empty, or held by two opposing checkers
)
def test_no_backward_move_that_does_not_hit(theirs):
    board = make_board({6: 2, 8: 1}, theirs)
    assert plays(board, (3, 1), ANY) == plays(board, (3, 1), None)
    for written in ([(6, 9), (8, 7)], [(8, 9), (6, 3)], [(6, 7), (6, 3)]):
        check = check_play(board, 0, (3, 1), written, backward=ANY)
        assert (check.ok, check.code) == (False, BACKWARD_NOT_HIT), written
        assert "only to hit a lone opposing checker" in check.message


def test_a_backward_move_onto_an_own_checker_is_no_hit():
    check = check_play(BLOT_ON_NINE, 0, (3, 2), [(6, 8), (6, 3)], backward=ANY)
    assert (check.ok, check.code) == (False, BACKWARD_NOT_HIT)


def test_no_backward_hit_while_a_checker_is_on_the_bar():
    two_on_bar = make_board({25: 2, 6: 1}, {9: 1})
    assert plays(two_on_bar, (3, 1), ANY) == ["bar/22 bar/24"]
    one_on_bar = make_board({25: 1, 6: 1}, {9: 1})
    # once the bar is empty the other die may hit backwards: bar/24, then 6/9 with the 3 (bar/24 24/21 ends
    # where bar/22 22/21 does: one play per result)
    assert plays(one_on_bar, (3, 1), ANY) == ["bar/22 22/21", "bar/22 6/5", "bar/24 6/3", "bar/24 6/9"]
    check = check_play(two_on_bar, 0, (3, 1), [(25, 24), (6, 9)], backward=ANY)
    assert (check.ok, check.code) == (False, BACKWARD_ON_BAR)


def test_forced_play_counts_a_backward_hit_as_a_play():
    # One checker on the 13 (the rest borne off); my 7 and 8 are blocked, a blot stands on my 18: the only way
    # to play is the backward hit 13/18 with the 5, then on with the 6.
    board = make_board({13: 1}, {7: 2, 8: 2, 18: 1})
    assert plays(board, (6, 5), None) == [""]
    assert plays(board, (6, 5), ANY) == ["13/18 18/12"] == plays(board, (6, 5), SMALLER)
    assert max_dice_playable(board, 0, (6, 5), backward=ANY) == 2
    for written in ([], [(13, 18)]):
        check = check_play(board, 0, (6, 5), written, backward=ANY)
        assert (check.ok, check.code) == (False, INCOMPLETE_PLAY), written
        assert "13/18 18/12" in check.message
    assert check_play(board, 0, (6, 5), [(13, 18), (18, 12)], backward=SMALLER).ok


def test_the_larger_die_rule_considers_backward_hits():
    # Blots on my 18 and 19, my 12 and 14 blocked: either die hits backwards, and then nothing moves on.
    board = make_board({13: 1}, {7: 2, 8: 2, 12: 2, 14: 2, 18: 1, 19: 1})
    assert plays(board, (6, 5), ANY) == ["13/19"]
    assert max_dice_playable(board, 0, (6, 5), backward=ANY) == 1
    check = check_play(board, 0, (6, 5), [(13, 18)], backward=ANY)
    assert (check.ok, check.code) == (False, LARGER_DIE_REQUIRED)
    # with the smaller-die setting the 6 cannot be played at all, so the 5 is the play
    assert plays(board, (6, 5), SMALLER) == ["13/18"]
    assert check_play(board, 0, (6, 5), [(13, 18)], backward=SMALLER).ok


def test_a_double_with_backward_hits():
    # One checker on my 10, my 8 blocked, blots on my 12 and 14: 22 plays 10/12 12/14 (two hits), then home.
    board = make_board({10: 1}, {8: 2, 12: 1, 14: 1})
    assert plays(board, (2, 2), ANY) == ["10/12 12/14 14/12 12/10"]
    result = legal_results(board, 0, (2, 2), backward=ANY)
    assert result == {make_board({10: 1}, {8: 2, 0: 2})}
    check = check_play(board, 0, (2, 2), [(10, 14), (14, 10)], backward=ANY)
    assert check.ok and check.result in result
    # a double hits nothing backwards under the smaller-die setting
    assert plays(board, (2, 2), SMALLER) == [""]
    check = check_play(board, 0, (2, 2), [(10, 12)], backward=SMALLER)
    assert (check.ok, check.code) == (False, BACKWARD_SMALLER_DIE)


def test_a_backward_hit_out_of_the_home_board_stops_bearing_off():
    # All home (one on the 1, one on the 5), a blot on my 8: after 5/8 the 1 cannot bear off with the 2.
    board = make_board({1: 1, 5: 1}, {8: 1}, total=2)
    assert "5/8 1/off" not in plays(board, (3, 2), ANY)
    assert "5/8 8/6" in plays(board, (3, 2), ANY)
