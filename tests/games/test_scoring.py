import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.rules.scoring import GameKind, MatchState, ScoringError, check_final_score, game_points


@pytest.mark.parametrize(
    "kind, cube, level, expected",
    [
        ("single", 1, None, 1),
        ("gammon", 2, None, 4),
        ("backgammon", 4, None, 12),
        ("drop", 8, None, 8),
        ("resign", 2, 1, 2),
        ("resign", 2, 2, 4),
        ("resign", 2, 3, 6),
    ],
)
def test_game_points(kind, cube, level, expected):
    assert game_points(kind=kind, cube=cube, resign_level=level) == expected


def test_jacoby_counts_gammon_as_single_while_cube_unturned():
    assert game_points(kind=GameKind.GAMMON, cube=1, jacoby=True) == 1
    assert game_points(kind=GameKind.GAMMON, cube=2, jacoby=True) == 4


def test_cube_must_be_a_power_of_two():
    with pytest.raises(ScoringError) as error:
        game_points(kind="single", cube=3)
    assert error.value.code == "bad_cube"


def test_crawford_game_follows_first_arrival_at_match_point():
    state = MatchState(length=5).after_game(winner=0, points=4)
    assert state.scores == (4, 0) and state.crawford_game and not state.cube_allowed
    state = state.after_game(winner=1, points=1)
    assert not state.crawford_game and state.post_crawford and state.cube_allowed
    state = state.after_game(winner=1, points=3)  # 4–4: still post-Crawford, no second Crawford game
    assert state.scores == (4, 4) and not state.crawford_game and state.post_crawford


def test_crawford_may_never_happen():
    state = MatchState(length=3).after_game(winner=0, points=4)
    assert state.is_over and state.winner == 0 and not state.crawford_game


def test_no_crawford_without_the_rule():
    state = MatchState(length=5, crawford_rule=False).after_game(winner=0, points=4)
    assert not state.crawford_game and state.cube_allowed


def test_game_after_match_end_is_refused():
    state = MatchState(length=1).after_game(winner=1, points=1)
    with pytest.raises(ScoringError) as error:
        state.after_game(winner=0, points=1)
    assert error.value.code == "play_after_match_end"


def test_at_score_knows_the_crawford_game_is_next():
    assert MatchState.at_score(length=7, scores=(6, 3)).crawford_game
    assert MatchState.at_score(length=7, scores=(6, 3), crawford_played=True).post_crawford


@pytest.mark.parametrize("scores, code", [((7, 7), "unreachable_score"), ((3, 6), "match_unfinished")])
def test_unreachable_final_scores(scores, code):
    with pytest.raises(ScoringError) as error:
        check_final_score(length=7, scores=scores)
    assert error.value.code == code


@given(
    length=st.integers(1, 25),
    games=st.lists(st.tuples(st.integers(0, 1), st.sampled_from([1, 2, 3, 4, 6, 8])), max_size=60),
)
def test_match_properties(length, games):
    state = MatchState(length=length)
    crawford_games = 0
    for winner, points in games:
        if state.is_over:
            break
        crawford_games += state.crawford_game
        previous = state
        state = state.after_game(winner=winner, points=points)
        assert state.scores[winner] == previous.scores[winner] + points
        assert state.scores[1 - winner] == previous.scores[1 - winner]
    assert crawford_games <= 1
    if state.is_over:
        check_final_score(length=length, scores=state.scores)
