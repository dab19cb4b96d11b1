"""The rules of checker play (docs/games.md, Moves), each tricky case on its own small position."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from backgammon.moves import (
    ILLEGAL_MOVE,
    INCOMPLETE_PLAY,
    LARGER_DIE_REQUIRED,
    check_play,
    legal_plays,
    legal_results,
    max_dice_playable,
)
from backgammon.random_play import random_positions
from backgammon.variants import Variant, starting_board
from tests.backgammon.positions import make_board

START = starting_board(Variant.STANDARD)


def mine_after(board, dice, side=0):
    return {
        tuple(sorted((index + 1, count) for index, count in enumerate(result.checkers[side]) if count))
        for result in legal_results(board, side, dice)
    }


def test_opening_31_has_16_distinct_results():
    assert len(legal_results(START, 0, (3, 1))) == 16
    assert len(legal_results(START, 1, (1, 3))) == 16


def test_each_play_is_one_single_die_step_per_die_and_results_are_distinct():
    plays = legal_plays(START, 0, (6, 5))
    assert all(len(play.steps) == 2 for play in plays)
    assert len({play.result for play in plays}) == len(plays)
    assert max_dice_playable(START, 0, (6, 5)) == 2


def test_only_one_die_playable_means_the_larger():
    board = make_board({20: 1}, {9: 2})  # 6 or 5 alone is fine, both would land on the blocked 9
    assert mine_after(board, (6, 5)) == {((14, 1),)}
    check = check_play(board, 0, (6, 5), [(20, 15)])
    assert check.code == LARGER_DIE_REQUIRED
    assert "larger one (6)" in check.message
    assert check_play(board, 0, (6, 5), [(20, 14)]).ok


def test_only_the_smaller_playable_is_played():
    board = make_board({20: 1}, {14: 2, 9: 2})
    assert mine_after(board, (6, 5)) == {((15, 1),)}
    assert max_dice_playable(board, 0, (6, 5)) == 1
    assert check_play(board, 0, (6, 5), [(20, 15)]).ok


def test_both_dice_playable_only_in_one_order_forces_that_order():
    board = make_board({20: 1}, {14: 2})
    assert {play.steps for play in legal_plays(board, 0, (6, 5))} == {((20, 15), (15, 9))}
    assert check_play(board, 0, (6, 5), [(20, 9)]).ok
    blocked = check_play(board, 0, (6, 5), [(20, 14), (14, 9)])
    assert blocked.code == ILLEGAL_MOVE
    assert "the 14-point is blocked (2 opposing checkers)" in blocked.message


def test_66_with_two_sixes_playable_plays_two():
    board = make_board({20: 1}, {2: 2})
    assert max_dice_playable(board, 0, (6, 6)) == 2
    assert mine_after(board, (6, 6)) == {((8, 1),)}
    assert check_play(board, 0, (6, 6), [(20, 8)]).ok
    assert check_play(board, 0, (6, 6), [(20, 14)]).code == INCOMPLETE_PLAY


def test_checkers_on_4_and_3_bear_off_with_65():
    board = make_board({4: 1, 3: 1}, total=2)
    assert mine_after(board, (6, 5)) == {()}
    assert check_play(board, 0, (6, 5), [(4, 0), (3, 0)]).result.off(0) == 2


def test_checkers_on_5_and_2_with_61():
    board = make_board({5: 1, 2: 1}, total=2)
    assert mine_after(board, (6, 1)) == {((1, 1),), ((2, 1),)}
    assert check_play(board, 0, (6, 1), [(5, 0), (2, 1)]).ok
    assert check_play(board, 0, (6, 1), [(5, 4), (4, 0)]).ok


def test_no_overshoot_while_a_higher_checker_stands():
    board = make_board({6: 1, 2: 1}, total=2)
    assert mine_after(board, (5, 4)) == {((1, 1),), ((2, 1),)}
    board = make_board({5: 1, 2: 1}, {1: 2}, total=2)
    check = check_play(board, 0, (4, 3), [(2, 0), (2, 0)])
    assert check.code == ILLEGAL_MOVE
    assert "cannot bear off from the 2-point while a checker stands on the 5-point" in check.message


def test_two_on_the_bar_and_only_a_1_enters():
    board = make_board({25: 2, 6: 5}, {19: 2})
    assert {play.steps for play in legal_plays(board, 0, (6, 1))} == {((25, 24),)}
    check = check_play(board, 0, (6, 1), [(25, 24), (24, 18)])
    assert check.code == ILLEGAL_MOVE
    assert "a checker on the bar must enter before any other checker moves" in check.message


def test_closed_board_means_no_move_and_the_roll_is_lost():
    board = make_board({25: 1, 6: 5}, dict.fromkeys(range(19, 25), 2))
    assert legal_results(board, 0, (4, 2)) == {board}
    assert max_dice_playable(board, 0, (4, 2)) == 0
    assert check_play(board, 0, (4, 2), []).ok
    refused = check_play(board, 0, (4, 2), [(25, 21)])
    assert refused.code == ILLEGAL_MOVE and "the 21-point is blocked" in refused.message


def test_a_hit_sends_the_blot_to_the_bar():
    board = make_board({13: 2}, {8: 1})
    (result,) = {play.result for play in legal_plays(board, 0, (5, 5)) if play.steps[0] == (13, 8)} & {
        check_play(board, 0, (5, 5), [(13, 8), (13, 8), (8, 3), (8, 3)]).result
    }
    assert result.on_bar(1) == 1


def test_bar_entry_hits_a_blot_on_the_entry_point():
    board = make_board({25: 1, 6: 5}, {22: 1})
    check = check_play(board, 0, (3, 1), [(25, 22), (6, 5)])
    assert check.ok and check.result.on_bar(1) == 1


def test_bear_off_needs_every_checker_home():
    board = make_board({9: 1, 3: 4}, total=5)
    check = check_play(board, 0, (3, 1), [(3, 0), (9, 8)])
    assert check.code == ILLEGAL_MOVE
    assert "bearing off needs all your checkers in the home board, but one is on the 9-point" in check.message


def test_smaller_die_first_may_bring_the_last_checker_home_to_bear_off():
    board = make_board({7: 1, 3: 4}, total=5)
    assert check_play(board, 0, (6, 1), [(7, 6), (6, 0)]).ok


def test_a_hit_checker_must_come_home_before_bear_off_resumes():
    board = make_board({25: 1, 2: 4}, {20: 2}, total=5)
    plays = legal_plays(board, 0, (6, 5))
    assert all(play.steps[0][0] == 25 for play in plays)
    assert all(to != 0 for play in plays for _, to in play.steps)


def test_doubles_play_up_to_four_and_partial_doubles():
    board = make_board({24: 1, 13: 1}, {8: 2, 14: 2})  # 24/20/16/12 then 12/8 blocked; 13/9/5/1 open
    assert max_dice_playable(board, 0, (4, 4)) == 4
    blocked_after_two = make_board({24: 1}, {16: 2})
    assert max_dice_playable(blocked_after_two, 0, (4, 4)) == 1
    assert check_play(blocked_after_two, 0, (4, 4), [(24, 20)]).ok


def test_incomplete_play_names_a_fuller_play():
    check = check_play(START, 0, (3, 1), [(8, 5)])
    assert check.code == INCOMPLETE_PLAY
    assert check.message.startswith("a play using both dice existed, e.g. ")


def test_distance_that_the_dice_cannot_make():
    check = check_play(START, 0, (5, 2), [(24, 21), (13, 8)])
    assert check.code == ILLEGAL_MOVE
    assert check.message == "24/21 moves 3 pips but the dice are 5 and 2"


def test_more_checkers_than_stand_on_a_point():
    check = check_play(START, 0, (3, 3), [(24, 21), (24, 21), (24, 21), (13, 10)])
    assert check.code == ILLEGAL_MOVE
    assert "no checker of yours left on the 24-point" in check.message


def test_moves_that_go_backwards_are_refused():
    assert check_play(START, 0, (3, 1), [(5, 8)]).code == ILLEGAL_MOVE


def test_bad_dice_are_refused_not_crashed():
    assert check_play(START, 0, (7, 1), [(8, 1)]).code == ILLEGAL_MOVE
    with pytest.raises(ValueError):
        legal_results(START, 0, (0, 3))


def test_one_written_step_may_span_several_dice_with_either_intermediate():
    assert check_play(START, 0, (6, 2), [(24, 16)]).ok
    assert check_play(START, 0, (4, 4), [(24, 16), (24, 16)]).ok


def test_marked_hits_choose_between_realisations():
    board = make_board({24: 1, 6: 5}, {18: 1, 22: 1})  # 24/16 with 62 hits on 18 or on 22
    via_18 = check_play(board, 0, (6, 2), [(24, 16)], hits=[18])
    via_22 = check_play(board, 0, (6, 2), [(24, 16)], hits=[22])
    assert via_18.ok and via_22.ok
    assert via_18.steps == ((24, 18), (18, 16))
    assert via_22.steps == ((24, 22), (22, 16))
    assert via_18.result != via_22.result


def test_second_side_uses_its_own_numbering():
    after = check_play(START, 1, (6, 5), [(24, 13)])
    assert after.ok and after.result.checkers[1][12] == 6 and after.result.checkers[0] == START.checkers[0]


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6), variant=st.sampled_from(list(Variant)))
def test_every_legal_play_checks_ok_with_its_own_steps(seed, variant):
    *_, (board, side, dice) = random_positions(seed=seed, count=1 + seed % 40, variant=variant)
    for play in legal_plays(board, side, dice):
        check = check_play(board, side, dice, play.steps)
        assert check.ok, (board.render(), dice, play.steps, check.message)
        assert check.result == play.result


@settings(max_examples=150, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    written=st.lists(st.tuples(st.integers(-2, 27), st.integers(-2, 27)), max_size=6),
)
def test_any_written_move_gets_a_verdict_never_an_exception(seed, written):
    *_, (board, side, dice) = random_positions(seed=seed, count=1 + seed % 30)
    check = check_play(board, side, dice, written)
    assert check.ok == (check.code is None)
    assert check.ok or check.message


def test_more_moves_than_dice():
    check = check_play(START, 0, (3, 1), [(8, 5), (6, 5), (24, 23)])
    assert check.code == ILLEGAL_MOVE
    assert check.message == "8/5 6/5 24/23 moves 3 times but the dice are 3 and 1"
