"""Hand-checked long nardy positions and their exact legal plays.

Each case is read as a player reads it: the mover's checkers by its own points, the opponent's by the mover's
points (the opponent's head is the mover's 12, its home the mover's 13–18; unplaced checkers are off). The
expected plays are the distinct results the rules allow, each written as one way to reach it; the comment
says why the list is complete. The generator must give exactly these results, and every play it lists must
check as legal when written back.
"""

import pytest

from backgammon.nardy.board import NardyBoard
from backgammon.nardy.check import check_play
from backgammon.nardy.moves import legal_plays
from backgammon.nardy.notation import parse_move
from backgammon.nardy.settings import ANY_HEAD_DOUBLES, BlockRule, NardySettings
from tests.backgammon.nardy.positions import apply_steps, nardy_board

START = {24: 15}
OPPONENT_START = {12: 15}
ANY_DOUBLE = NardySettings(head_doubles=ANY_HEAD_DOUBLES)
OPPONENT_HOME = NardySettings(block_rule=BlockRule.OPPONENT_HOME)

# (name, mine, theirs, dice, first turn, settings, expected plays)
CASES = [
    # --- the head rule and the first turn ---
    ("66 on the first turn: two leave the head, the 12 is the opponent's head", START, OPPONENT_START, (6, 6),
     True, None, ["24/18 24/18"]),
    ("44 on the first turn: two checkers to 16 (a third step to 12 is blocked)", START, OPPONENT_START, (4, 4),
     True, None, ["24/20 24/20 20/16 20/16"]),
    ("33 on the first turn: 18 and 18, or 21 and 15", START, OPPONENT_START, (3, 3), True, None,
     ["24/21 24/21 21/18 21/18", "24/21 21/18 18/15 24/21"]),
    ("66 on a later turn: one checker, which cannot go on to 12", START, OPPONENT_START, (6, 6), False, None,
     ["24/18"]),
    ("55 on the first turn is no exception: one checker all the way", START, OPPONENT_START, (5, 5), True, None,
     ["24/19 19/14 14/9 9/4"]),
    ("55 on the first turn when any double lets two leave", START, OPPONENT_START, (5, 5), True, ANY_DOUBLE,
     ["24/4", "24/19 19/14 14/9 24/19", "24/14 24/14"]),
    ("22 on the first turn, classic: one checker", START, OPPONENT_START, (2, 2), True, None, ["24/16"]),
    ("22 on the first turn, any double: 16, or 22 and 18, or 20 and 20", START, OPPONENT_START, (2, 2), True,
     ANY_DOUBLE, ["24/16", "24/22 24/18", "24/20 24/20"]),
    ("64 on the first turn: one checker plays both dice", START, OPPONENT_START, (6, 4), True, None, ["24/14"]),
    ("21 from the start", START, OPPONENT_START, (2, 1), True, None, ["24/21"]),
    ("44 on the first turn with 16 taken: two checkers to 20, no more", START, {12: 14, 16: 1}, (4, 4), True,
     None, ["24/20 24/20"]),
    ("66 on the second player's first turn", START, {12: 14, 6: 1}, (6, 6), True, None, ["24/18 24/18"]),
    ("33 on a later turn: one head checker; 18 and 15, however reached", {24: 13, 21: 1, 15: 1}, OPPONENT_START,
     (3, 3), False, None, ["24/21 21/18 21/18 18/15"]),
    ("65 on a later turn: one head checker; 20/15 lands on the opponent", {24: 14, 20: 1}, {12: 14, 15: 1},
     (6, 5), False, None, ["24/13", "20/14 24/19", "20/9"]),
    # --- no landing on an opposing checker, forced play ---
    ("both dice land on opposing checkers: no play", {16: 1, 1: 14}, {12: 1, 15: 1}, (4, 1), False, None, [""]),
    ("either die alone, never both: the larger", {16: 1, 1: 14}, {12: 1}, (3, 1), False, None, ["16/13"]),
    ("the 3 is playable only after the 1: that order", {16: 1, 1: 14}, {13: 1}, (3, 1), False, None,
     ["16/15 15/12"]),
    ("the 6 is playable only after the 2", {9: 1, 1: 14}, {3: 1, 12: 14}, (6, 2), False, None, ["9/7 7/1"]),
    ("only the smaller die can be played: the smaller", {9: 1}, {3: 1, 1: 1, 12: 13}, (6, 2), False, None,
     ["9/7"]),
    ("either die alone, the larger", {9: 1}, {12: 14, 1: 1}, (6, 2), False, None, ["9/3"]),
    ("a double of which one step can be played", {20: 1, 1: 14}, {8: 1, 12: 14}, (4, 4), False, None, ["20/16"]),
    ("a double shared by two checkers: 16 and 14 however split", {20: 1, 18: 1, 1: 13}, {12: 14, 6: 1}, (2, 2),
     False, None, ["20/18 18/16 18/16 16/14"]),
    # --- the six-block rule ---
    ("a block of six with opposing checkers ahead is allowed", {22: 1, 21: 1, 20: 1, 19: 1, 18: 1, 17: 1, 1: 9},
     {15: 1, 14: 1, 13: 1, 12: 1, 11: 1, 10: 1}, (6, 6), False, None, ["22/16"]),
    ("the block formed by the first six is opened by the second", {22: 1, 21: 1, 20: 1, 19: 1, 18: 1, 17: 1, 1: 9},
     {15: 1, 14: 1, 13: 1, 12: 1, 11: 1, 4: 1}, (6, 6), False, None, ["22/10"]),
    # 22..17 is a block with nobody ahead: every play must break it and leave no other (18..13 is one too).
    ("no opposing checker ahead: only plays that end without a block", {22: 1, 21: 1, 20: 1, 19: 1, 18: 1, 17: 1,
     1: 9}, {12: 5, 11: 1, 10: 1, 9: 1, 8: 1}, (6, 6), False, None,
     ["22/16 21/15 19/7", "22/16 20/14 19/7", "21/15 20/14 19/7", "22/16 19/1", "21/15 19/1", "20/14 19/1"]),
    # 5,4,3,2,1,24 runs across the mover's own 24|1 seam: a block, and nobody is ahead of it (23..13 empty).
    ("10/5 would close a block across the mover's seam", {10: 1, 4: 1, 3: 1, 2: 1, 1: 1, 24: 10}, {12: 14, 9: 1},
     (6, 5), False, None, ["24/13", "10/4 24/19"]),
    ("the same block with an opposing checker ahead on 20", {10: 1, 4: 1, 3: 1, 2: 1, 1: 1, 24: 10},
     {12: 13, 9: 1, 20: 1}, (6, 5), False, None, ["24/13", "24/18 10/5", "10/4 24/19"]),
    ("opponent-home setting: a checker ahead but none home, no block", {10: 1, 4: 1, 3: 1, 2: 1, 1: 1, 24: 10},
     {12: 13, 9: 1, 20: 1}, (6, 5), False, OPPONENT_HOME, ["24/13", "10/4 24/19"]),
    ("opponent-home setting: an opposing checker home on 16, the block stands",
     {10: 1, 4: 1, 3: 1, 2: 1, 1: 1, 24: 10}, {12: 13, 9: 1, 16: 1}, (6, 5), False, OPPONENT_HOME,
     ["24/13", "24/18 10/5", "10/4 24/19"]),
    # --- bear-off ---
    ("both bear off exactly, or 6/3 then 3 off", {6: 1, 3: 1}, {}, (6, 3), False, None, ["6/off 3/off", "6/3 3/off"]),
    ("3 and 2 with 65: both off by the higher-die rule", {3: 1, 2: 1}, OPPONENT_START, (6, 5), False, None,
     ["3/off 2/off"]),
    ("6 and 2 with 54: no overshoot while the 6 stands", {6: 1, 2: 1}, OPPONENT_START, (5, 4), False, None,
     ["6/1 2/off", "6/2 2/off"]),
    ("a checker on 7 comes home before anything bears off", {7: 1, 3: 1}, OPPONENT_START, (6, 1), False, None,
     ["7/1 3/2", "7/off"]),
    ("5 and 2 with 61: 5/off 2/1 or 5/4/off", {5: 1, 2: 1}, OPPONENT_START, (6, 1), False, None,
     ["5/off 2/1", "5/off"]),
    ("home after the first die, off with the second", {8: 1, 1: 14}, {2: 1}, (6, 5), False, None, ["8/3 3/off"]),
    ("6 and 1 with 52: whichever die comes first, one checker left on 1", {6: 1, 1: 1}, {12: 14, 2: 1}, (5, 2),
     False, None, ["6/1 1/off"]),
    ("44 bears off three checkers, the 2 by the higher-die rule", {4: 2, 2: 1}, OPPONENT_START, (4, 4), False,
     None, ["4/off 4/off 2/off"]),
]


def _plays(expected: list[str]) -> list[list[tuple[int, int]]]:
    return [parse_move(text) for text in expected]


@pytest.mark.parametrize("side", [0, 1])
@pytest.mark.parametrize(("name", "mine", "theirs", "dice", "first_turn", "settings", "expected"), CASES,
                         ids=[case[0] for case in CASES])
def test_the_legal_plays_are_exactly_the_hand_checked_ones(name, mine, theirs, dice, first_turn, settings,
                                                           expected, side):
    settings = settings or NardySettings()
    board = nardy_board(mine, theirs, side=side)
    wanted = {apply_steps(board, side, steps) for steps in _plays(expected)}
    assert len(wanted) == len(expected), "two expected plays reach the same position"
    plays = legal_plays(board, side, dice, first_turn=first_turn, settings=settings)
    assert {play.result for play in plays} == wanted
    for play in plays:
        check = check_play(board, side, dice, list(play.steps), first_turn=first_turn, settings=settings)
        assert check.ok and check.result == play.result, check.message


def test_the_table_holds_thirty_positions_of_every_kind():
    assert len(CASES) >= 30
    names = " ".join(case[0] for case in CASES)
    for topic in ("66", "44", "33", "opposing checkers ahead", "no opposing checker ahead", "higher-die"):
        assert topic in names


def test_the_number_of_dice_played_on_the_start_board():
    board = NardyBoard.start()
    assert [len(play.steps) for play in legal_plays(board, 0, (6, 6), first_turn=True)] == [2]
    assert [len(play.steps) for play in legal_plays(board, 0, (6, 6))] == [1]
    assert [len(play.steps) for play in legal_plays(board, 1, (4, 4), first_turn=True)] == [4]
