"""Long nardy move text, and what a game and a match are worth."""

import pytest

from backgammon.nardy.errors import NardyError
from backgammon.nardy.notation import format_steps, parse_move
from backgammon.nardy.scoring import NardyMatch, NardyResult, allowed_points, game_result
from tests.backgammon.nardy.positions import nardy_board


@pytest.mark.parametrize(
    ("text", "segments"),
    [
        ("24/18 18/14", [(24, 18), (18, 14)]),
        ("24/18/14", [(24, 18), (18, 14)]),
        ("24/14", [(24, 14)]),
        ("24/20(2) 20/16(2)", [(24, 20), (24, 20), (20, 16), (20, 16)]),
        ("6/off 3/0", [(6, 0), (3, 0)]),
        ("Cannot Move", []),
        ("", []),
    ],
)
def test_moves_are_read_as_from_to_segments(text, segments):
    assert parse_move(text) == segments


@pytest.mark.parametrize("text", ["24-18", "18/24", "25/20", "off/3", "24/20(5)", "6/5 5/4 4/3 3/2 2/1", "bar/20"])
def test_text_that_is_no_nardy_move_is_refused(text):
    with pytest.raises(NardyError) as refused:
        parse_move(text)
    assert refused.value.code == "illegal_move"


def test_steps_are_written_one_die_each():
    assert format_steps([(24, 18), (18, 14)]) == "24/18 18/14"
    assert format_steps([(3, 0)]) == "3/off"
    assert format_steps([]) == "Cannot Move"


def test_mars_when_the_loser_bore_off_none_oin_otherwise():
    won = nardy_board({}, {12: 15})  # the mover bore off all; the opponent none
    assert game_result(won, 0) == NardyResult.MARS and allowed_points(won, 0) == (2,)
    oin = nardy_board({}, {12: 14})
    assert game_result(oin, 0) == NardyResult.OIN and allowed_points(oin, 0) == (1,)
    with pytest.raises(NardyError):
        game_result(nardy_board({3: 1}, {12: 14}), 0)


def test_a_resignation_gives_up_oin_or_mars_while_the_loser_has_borne_off_none():
    assert allowed_points(nardy_board({3: 2}, {12: 15}), 0) == (1, 2)
    assert allowed_points(nardy_board({3: 2}, {12: 14}), 0) == (1,)


def test_a_match_is_won_on_reaching_its_length_and_has_no_cube():
    match = NardyMatch(3).after_game(winner=0, points=2)
    assert match.scores == (2, 0) and not match.is_over
    match = match.after_game(winner=1, points=2).after_game(winner=0, points=2)
    assert match.scores == (4, 2) and match.winner == 0
    with pytest.raises(NardyError) as refused:
        match.after_game(winner=1, points=1)
    assert refused.value.code == "match_over"
    with pytest.raises(NardyError) as refused:
        NardyMatch(5).after_game(winner=1, points=4)
    assert refused.value.code == "wrong_points"
    assert NardyMatch(0, (9, 3)).winner is None
