import functools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from backgammon.scoring import GameKind, MatchState, ScoringError, check_final_score, game_points


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
    assert game_points(kind=GameKind.GAMMON, cube=2, jacoby=True, turned=True) == 4


def test_jacoby_asks_whether_a_double_was_offered_not_what_the_cube_shows():
    # An automatic double on tied opening dice raised the cube to 2; nobody doubled: a gammon counts single
    # (at the cube's value), a resigned gammon too. Once a double is taken the gammon counts.
    assert game_points(kind=GameKind.GAMMON, cube=2, jacoby=True, turned=False) == 2
    assert game_points(kind=GameKind.BACKGAMMON, cube=4, jacoby=True, turned=False) == 4
    assert game_points(kind=GameKind.RESIGN, cube=2, resign_level=2, jacoby=True, turned=False) == 2
    assert game_points(kind=GameKind.GAMMON, cube=4, jacoby=True, turned=True) == 8
    assert game_points(kind=GameKind.GAMMON, cube=2, jacoby=False, turned=False) == 4


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


@pytest.mark.parametrize(
    "length, scores, start, crawford, code, words",
    [
        (7, (7, 7), (0, 0), True, "loser_at_length", "In a 7-point match the loser can have at most 6 points"),
        (7, (3, 6), (0, 0), True, "match_unfinished", "one player must reach 7"),
        (5, (21, 0), (0, 0), True, "no_deciding_game", "worth 17 to 21 points"),
        (11, (111, 3), (0, 0), True, "no_deciding_game", "so 96 or 128 come closest"),
        (5, (21, 0), (2, 0), True, "no_deciding_game", "at least 2 and at most 4 points, so that game would"),
        (2, (5, 0), (0, 0), True, "crawford_no_cube", "worth 4 points from 1–0"),
        (2, (0, 7), (0, 0), True, "crawford_no_cube", "worth 6 points from 0–1"),
        (5, (5, 1), (0, 2), True, "below_start", "player B starts this match with 2 points"),
    ],
)
def test_unreachable_final_scores_say_why(length, scores, start, crawford, code, words):
    with pytest.raises(ScoringError) as error:
        check_final_score(length=length, scores=scores, start=start, crawford_rule=crawford)
    assert error.value.code == code and words in error.value.message


@pytest.mark.parametrize(
    "length, scores, start, crawford",
    [
        (5, (8, 0), (0, 0), True),  # 2–0, then a backgammon on a 2-cube
        (5, (7, 0), (0, 0), True),  # 4–0, then a backgammon in the Crawford game
        (2, (5, 0), (0, 0), False),  # 1–0, then a gammon on a 2-cube: no Crawford game to stop it
        (2, (5, 1), (0, 0), True),  # 1–0, the trailer wins the Crawford game, then a gammon on a 2-cube
        (11, (11, 3), (0, 0), True),
        (1, (8, 0), (0, 0), True),  # a dead cube turned anyway is legal
        (5, (5, 4), (2, 0), True),
    ],
)
def test_reachable_final_scores_are_accepted(length, scores, start, crawford):
    assert check_final_score(length=length, scores=scores, start=start, crawford_rule=crawford) == (
        0 if scores[0] >= length else 1
    )


def _game_values(state: MatchState, most: int) -> set[int]:
    """Every amount the next game can be worth (up to `most`): any kind on any cube, the cube at 1 in the
    Crawford game, as the scoresheet allows."""
    cubes = [1 << k for k in range(most.bit_length())] if state.cube_allowed else [1]
    kinds = (GameKind.SINGLE, GameKind.GAMMON, GameKind.BACKGAMMON)
    values = {game_points(kind=kind, cube=cube) for kind in kinds for cube in cubes}
    return {v for v in values if v <= most}


@functools.cache
def brute_force_finals(length: int, crawford: bool, start: tuple[int, int], bound: int) -> frozenset:
    """Every final score with the winner at most `bound`, found by playing every legal game from every score."""
    first = MatchState.at_score(length=length, scores=start, crawford_rule=crawford)
    seen = {(first.scores, first.crawford_game, first.crawford_done)}
    todo, finals = [first], set()
    while todo:
        state = todo.pop()
        for winner in (0, 1):
            for points in _game_values(state, bound - state.scores[winner]):
                after = state.after_game(winner=winner, points=points)
                key = (after.scores, after.crawford_game, after.crawford_done)
                if after.is_over:
                    finals.add(after.scores)
                elif key not in seen:
                    seen.add(key)
                    todo.append(after)
    return frozenset(finals)


def assert_refused_exactly_when_unreachable(length: int, crawford: bool, start: tuple[int, int]) -> None:
    """Every score up to `length` + 24 on both sides (last games worth up to 48 and beyond, every gap between
    game values, the Crawford game) is accepted exactly when the brute force reaches it."""
    bound = length + 24 + max(start)
    finals = brute_force_finals(length, crawford, start, bound)
    assert finals  # a single point at a time always ends the match
    for a in range(bound + 1):
        for b in range(bound + 1):
            try:
                winner = check_final_score(length=length, scores=(a, b), start=start, crawford_rule=crawford)
            except ScoringError as error:
                assert (a, b) not in finals, f"{a}–{b} was refused ({error.code}) but is reachable"
            else:
                assert (a, b) in finals, f"{a}–{b} was accepted but no sequence of games reaches it"
                assert (a, b)[winner] >= length


@pytest.mark.parametrize("crawford", [True, False])
@pytest.mark.parametrize("length", range(1, 26))
def test_from_love_all_a_final_score_is_accepted_exactly_when_some_sequence_of_games_reaches_it(length, crawford):
    assert_refused_exactly_when_unreachable(length, crawford, (0, 0))


@settings(max_examples=50, deadline=None)
@given(length=st.integers(1, 25), crawford=st.booleans(), data=st.data())
def test_from_penalty_points_a_final_score_is_accepted_exactly_when_some_sequence_of_games_reaches_it(
    length, crawford, data
):
    half = length // 2  # more penalty points than half the length forfeit the match
    start = (data.draw(st.integers(0, half), "start A"), data.draw(st.integers(0, half), "start B"))
    assert_refused_exactly_when_unreachable(length, crawford, start)


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
        if state.crawford_game and points > 3:
            continue  # the Crawford game is played without the cube: it is worth 1, 2 or 3, never 4 or more
        crawford_games += state.crawford_game
        previous = state
        state = state.after_game(winner=winner, points=points)
        assert state.scores[winner] == previous.scores[winner] + points
        assert state.scores[1 - winner] == previous.scores[1 - winner]
    assert crawford_games <= 1
    if state.is_over:
        check_final_score(length=length, scores=state.scores)
