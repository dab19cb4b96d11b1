"""Single, gammon, backgammon."""

import pytest

from backgammon.outcome import game_kind
from backgammon.scoring import GameKind, ScoringError
from tests.backgammon.positions import make_board


def test_loser_with_a_checker_off_loses_a_single():
    assert game_kind(make_board({}, {20: 14}), winner=0) == GameKind.SINGLE


def test_loser_with_none_off_loses_a_gammon():
    assert game_kind(make_board({}, {12: 15}), winner=0) == GameKind.GAMMON


def test_loser_in_the_winners_home_or_on_the_bar_loses_a_backgammon():
    assert game_kind(make_board({}, {12: 14, 3: 1}), winner=0) == GameKind.BACKGAMMON
    assert game_kind(make_board({}, {12: 14, 0: 1}), winner=0) == GameKind.BACKGAMMON


def test_the_winner_must_have_borne_off_everything():
    with pytest.raises(ScoringError) as caught:
        game_kind(make_board({1: 1}, {12: 15}), winner=0)
    assert caught.value.code == "game_not_over"
