"""GNU Backgammon Position ID and Match ID, and XGID: test vectors, round trips, malformed input."""

import contextlib

import gnubg_nn
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from backgammon.matchfiles.ids import (
    GameState,
    IdFormatError,
    MatchId,
    XgId,
    board_from_position_id,
    match_id,
    parse_match_id,
    parse_xgid,
    position_id,
    xgid,
)
from backgammon.random_play import random_positions
from backgammon.variants import Variant, checkers_per_side, starting_board

START = starting_board(Variant.STANDARD)


def test_start_position_id():
    assert position_id(START, 0) == "4HPwATDgc/ABMA"
    assert position_id(START, 1) == "4HPwATDgc/ABMA"
    assert board_from_position_id("4HPwATDgc/ABMA") == START


def test_position_id_puts_the_player_not_on_roll_first_as_gnubg_prints_it():
    # gnubg 1.07: player 1 played 8/5 6/5 as the reply to 13/8 24/23, player 0 is on roll
    board = board_from_position_id("sGfwATDg8+ABKA", side_on_roll=0)
    assert board.count(1, 5) == 2 and board.count(1, 6) == 4
    assert board.count(0, 8) == 4 and board.count(0, 23) == 1
    assert position_id(board, 0) == "sGfwATDg8+ABKA"


def test_position_id_agrees_with_gnubg_nn():
    for board, side, _ in random_positions(seed=7, count=300):
        expected = gnubg_nn.position_id([list(board.checkers[1 - side]), list(board.checkers[side])])
        assert position_id(board, side) == expected


def test_match_id_test_vector_from_the_gnubg_manual():
    fields = MatchId(cube=2, cube_owner=0, dice_owner=1, turn=1, dice=(5, 2), length=9, scores=(2, 4))
    assert match_id(fields) == "QYkqASAAIAAA"
    assert parse_match_id("QYkqASAAIAAA") == fields


def test_match_id_as_gnubg_prints_a_fresh_match():
    fields = parse_match_id("cAkgAQAAAAAE")
    assert fields.length == 9 and fields.cube == 1 and fields.cube_owner is None
    assert fields.dice is None and fields.dice_owner == 1 and fields.game_state == GameState.PLAYING
    assert fields.extension == 1
    assert match_id(fields) == "cAkgAQAAAAAE"


def test_xgid_start_position():
    text = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10"
    parsed = parse_xgid(text)
    assert parsed.board == START and parsed.turn == 0 and parsed.cube == 1 and parsed.max_cube == 1024
    assert xgid(parsed) == text


def test_xgid_nackgammon_start_and_match_fields():
    parsed = parse_xgid("XGID=-bb---D-C---dD---c-d---BB-:1:-1:-1:52:3:4:1:7:10")
    assert parsed.board == starting_board(Variant.NACKGAMMON)
    assert (parsed.cube, parsed.cube_owner, parsed.turn, parsed.dice) == (2, 1, 1, (5, 2))
    assert parsed.scores == (3, 4) and parsed.length == 7 and parsed.crawford


def test_xgid_money_rules_and_cube_action():
    parsed = parse_xgid("-b----E-C---eE---c-e----B-:0:0:1:D:0:0:3:0:10")
    assert parsed.cube_action == "D" and parsed.dice is None and parsed.jacoby and parsed.beaver


@pytest.mark.parametrize(
    "text",
    ["", "4HPwATDgc/ABM", "4HPwATDgc/ABMA!", "//////////////", "4HPwATDgc/AB A"],
)
def test_bad_position_ids_are_refused(text):
    with pytest.raises(IdFormatError):
        board_from_position_id(text)


@pytest.mark.parametrize("text", ["", "QYkqASAAIAA", "///////////", "QYkqASAAIA=A", "QYkqASAAIAA*"])
def test_bad_match_ids_are_refused(text):
    with pytest.raises(IdFormatError):
        parse_match_id(text)


@pytest.mark.parametrize(
    "text",
    [
        "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0",
        "XGID=-b----E-C---eE---c-e----B:0:0:1:00:0:0:0:0:10",
        "XGID=-b----E-C---eE---c-e----B-:0:0:1:77:0:0:0:0:10",
        "XGID=-b----E-C---eE---c-e----B-:0:2:1:00:0:0:0:0:10",
        "XGID=-b----E-C---eE---c-e----B-:x:0:1:00:0:0:0:0:10",
        "XGID=-z----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10",
        "XGID=Ab----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10",
    ],
)
def test_bad_xgids_are_refused(text):
    with pytest.raises(IdFormatError):
        parse_xgid(text)


positions = st.builds(
    lambda seed, count, variant: (list(random_positions(seed=seed, count=count, variant=variant))[-1], variant),
    st.integers(0, 10**6),
    st.integers(1, 60),
    st.sampled_from(list(Variant)),
)


@settings(max_examples=80, deadline=None)
@given(positions)
def test_position_id_round_trips(sample):
    (board, side, _), variant = sample
    text = position_id(board, side)
    assert len(text) == 14
    assert board_from_position_id(text, side_on_roll=side, total=checkers_per_side(variant)) == board


match_ids = st.builds(
    MatchId,
    cube=st.integers(0, 15).map(lambda power: 1 << power),
    cube_owner=st.sampled_from([None, 0, 1]),
    dice_owner=st.integers(0, 1),
    crawford=st.booleans(),
    game_state=st.sampled_from(list(GameState)),
    turn=st.integers(0, 1),
    double_offered=st.booleans(),
    resignation=st.integers(0, 3),
    dice=st.none() | st.tuples(st.integers(1, 6), st.integers(1, 6)),
    length=st.integers(0, 32767),
    scores=st.tuples(st.integers(0, 32767), st.integers(0, 32767)),
    extension=st.integers(0, 63),
)


@settings(max_examples=150, deadline=None)
@given(match_ids)
def test_match_id_round_trips(fields):
    text = match_id(fields)
    assert len(text) == 12
    assert parse_match_id(text) == fields


@settings(max_examples=80, deadline=None)
@given(
    positions,
    st.integers(0, 12),
    st.sampled_from([None, 0, 1]),
    st.integers(0, 1),
    st.none() | st.tuples(st.integers(1, 6), st.integers(1, 6)),
    st.integers(0, 25),
    st.booleans(),
)
def test_xgid_round_trips(sample, cube_power, owner, turn, dice, length, flag):
    (board, _, _), variant = sample
    fields = XgId(
        board=board,
        cube=1 << cube_power,
        cube_owner=owner,
        turn=turn,
        dice=dice,
        cube_action="" if dice else "D",
        scores=(min(length, 3), 0),
        crawford=flag and length > 0,
        jacoby=flag and length == 0,
        length=length,
    )
    assert parse_xgid(xgid(fields), total=checkers_per_side(variant)) == fields


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=60) | st.text(alphabet="ABCDEFGHIJKLMNOPabcdefghijklmnop0123456789+/-:=XGID", max_size=60))
def test_decoders_raise_only_id_format_error(text):
    for decode in (board_from_position_id, parse_match_id, parse_xgid):
        with contextlib.suppress(IdFormatError):
            decode(text)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/", min_size=12, max_size=14))
def test_base64_shaped_garbage_raises_only_id_format_error(text):
    for decode in (board_from_position_id, parse_match_id):
        with contextlib.suppress(IdFormatError):
            decode(text)
