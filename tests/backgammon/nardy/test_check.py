"""A written long nardy move is judged legal, or refused with the code of the rule it breaks."""

import pytest

from backgammon.nardy.board import NardyBoard
from backgammon.nardy.check import check_play
from backgammon.nardy.errors import NardyError
from backgammon.nardy.moves import forbidden_block
from backgammon.nardy.notation import parse_move
from backgammon.nardy.settings import ANY_HEAD_DOUBLES, BlockRule, NardySettings
from tests.backgammon.nardy.positions import nardy_board

START = NardyBoard.start()
SEAM_BLOCK = nardy_board({10: 1, 4: 1, 3: 1, 2: 1, 1: 1, 24: 10}, {12: 14, 9: 1})

REFUSED = [
    ("two checkers off the head on a later turn", START, (6, 5), False, "24/18 24/19", "head_rule"),
    ("55 is no head exception", START, (5, 5), True, "24/19 24/19 19/14 19/14", "head_rule"),
    ("the opponent's head", START, (6, 6), False, "24/18 18/12", "lands_on_opponent"),
    ("passing over opposing checkers on 18 and 20", nardy_board({24: 15}, {18: 1, 20: 1, 12: 13}), (6, 4),
     False, "24/14", "lands_on_opponent"),
    ("closing the seam block with nobody ahead", SEAM_BLOCK, (6, 5), False, "10/5 24/18", "six_block"),
    ("bearing off with a checker on 7", nardy_board({7: 1, 3: 1}, {12: 15}), (6, 1), False, "3/off 7/6",
     "bear_off_not_home"),
    ("one die of two", START, (6, 4), True, "24/18", "incomplete_play"),
    ("nothing, with a play there", START, (2, 1), True, "Cannot Move", "incomplete_play"),
    ("the smaller die when only one can be played", nardy_board({16: 1, 1: 14}, {12: 1}), (3, 1), False,
     "16/15", "larger_die_required"),
    ("steps that are not the dice", START, (6, 4), True, "24/17", "illegal_move"),
    ("no checker on the point", START, (6, 4), True, "20/14", "illegal_move"),
    ("overshooting while a checker stands higher", nardy_board({6: 1, 2: 1}, {12: 15}), (5, 4), False,
     "6/1 1/off", "illegal_move"),
]


@pytest.mark.parametrize(("name", "board", "dice", "first_turn", "written", "code"), REFUSED,
                         ids=[case[0] for case in REFUSED])
def test_a_move_that_breaks_a_rule_is_refused_with_its_code(name, board, dice, first_turn, written, code):
    for side in (0, 1):
        mine = board if side == 0 else NardyBoard.from_view(1, board.view(0), board.off)
        check = check_play(mine, side, dice, parse_move(written), first_turn=first_turn)
        assert (check.ok, check.code) == (False, code), check.message
        assert check.message and check.result is None


ACCEPTED = [
    ("one segment for both dice", START, (6, 4), True, "24/14", NardySettings()),
    ("the segments written in another order than played", nardy_board({6: 1, 2: 1}, {12: 15}), (5, 4), False,
     "2/off 6/1", NardySettings()),
    ("55 with two checkers when any double is the exception", START, (5, 5), True, "24/19 24/19 19/14 19/14",
     NardySettings(head_doubles=ANY_HEAD_DOUBLES)),
    ("repeats", START, (3, 3), True, "24/21(2) 21/18(2)", NardySettings()),
    ("the block stands once an opposing checker is home", nardy_board({10: 1, 4: 1, 3: 1, 2: 1, 1: 1, 24: 10},
     {12: 14, 16: 1}), (6, 5), False, "10/5 24/18", NardySettings(block_rule=BlockRule.OPPONENT_HOME)),
    ("no play when there is none", nardy_board({16: 1, 1: 14}, {12: 1, 15: 1}), (4, 1), False, "Cannot Move",
     NardySettings()),
]


@pytest.mark.parametrize(("name", "board", "dice", "first_turn", "written", "rules"), ACCEPTED,
                         ids=[case[0] for case in ACCEPTED])
def test_a_legal_move_is_accepted_however_it_is_written(name, board, dice, first_turn, written, rules):
    check = check_play(board, 0, dice, parse_move(written), first_turn=first_turn, settings=rules)
    assert check.ok, check.message
    assert check.result is not None and all(start - end <= max(dice) for start, end in check.steps)


def test_the_six_block_rule_counts_along_the_opponents_route():
    # 15,14,13 | 12,11,10 crosses the opponent's 24|1 seam (the mover's 13|12): six in a row, but no block
    across_their_seam = nardy_board({15: 1, 14: 1, 13: 1, 12: 1, 11: 1, 10: 1, 1: 9}, {20: 15})
    assert forbidden_block(across_their_seam, 0) == ()
    # 3,2,1 | 24,23,22 crosses the mover's own seam: a block, and nobody is ahead of it on the mover's 21..13
    across_my_seam = nardy_board({3: 1, 2: 1, 1: 1, 24: 1, 23: 1, 22: 10}, {12: 15})
    assert forbidden_block(across_my_seam, 0) == (3, 2, 1, 24, 23, 22)
    assert forbidden_block(nardy_board({3: 1, 2: 1, 1: 1, 24: 1, 23: 1, 22: 10}, {12: 14, 21: 1}), 0) == ()
    # seven in a row: the checker must be ahead of the whole run, not of its first six points
    seven = {20: 1, 19: 1, 18: 1, 17: 1, 16: 1, 15: 1, 14: 1, 1: 8}
    assert forbidden_block(nardy_board(seven, {13: 1}), 0) == ()
    assert forbidden_block(nardy_board(seven, {12: 1}), 0) != ()


def test_borne_off_checkers_are_not_ahead_but_count_as_home_for_the_setting():
    mine = {6: 1, 5: 1, 4: 1, 3: 1, 2: 1, 1: 1, 24: 9}  # the mover's home, six points; nothing can stand beyond
    board = nardy_board(mine, {12: 10})  # five opposing checkers off
    assert forbidden_block(board, 0) != ()
    assert forbidden_block(board, 0, NardySettings(block_rule=BlockRule.OPPONENT_HOME)) == ()


def test_a_roll_of_the_wrong_shape_is_refused():
    with pytest.raises(NardyError) as refused:
        check_play(START, 0, (7, 1), [])
    assert refused.value.code == "invalid_dice"
