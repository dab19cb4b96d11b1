"""The pure match-play core: scoresheet replay, final scores, verified records, lateness, status changes."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from backgammon.scoring import ScoringError
from games.matchplay import state as core
from games.matchplay.state import GameEntry


def sheet(length=5, **kwargs):
    return core.start_state(length=length, **kwargs)


def test_games_add_up_and_the_match_is_decided_at_the_length():
    final, games = core.replay(sheet(5), [GameEntry(0, "gammon", 2), GameEntry(1), GameEntry(0, "single", 1)])
    assert final.scores == (5, 1)
    assert final.is_over and final.winner == 0
    assert [g.points for g in games] == [4, 1, 1]


def test_cube_above_one_in_the_crawford_game_is_refused_with_a_message_that_says_so():
    state, _ = core.replay(sheet(5), [GameEntry(0, "gammon", 2)])  # 4–0: next is the Crawford game
    assert state.crawford_game
    with pytest.raises(ScoringError) as exc:
        core.play_game(state, GameEntry(1, "single", 2), number=2)
    assert exc.value.code == "cube_in_crawford_game"
    assert "Game 2 is the Crawford game" in exc.value.message and "not 2" in exc.value.message


def test_no_drop_in_the_crawford_game():
    state, _ = core.replay(sheet(3), [GameEntry(0, "gammon", 1)])
    with pytest.raises(ScoringError, match="no double to drop") as exc:
        core.play_game(state, GameEntry(1, "drop", 1), number=2)
    assert exc.value.code == "drop_in_crawford_game"


def test_after_the_crawford_game_the_cube_is_back_post_crawford():
    state, games = core.replay(sheet(5), [GameEntry(0, "gammon", 2), GameEntry(1)])
    assert games[1].crawford_game
    assert state.post_crawford and core.describe(state)["phase"] == "post_crawford"
    state, game = core.play_game(state, GameEntry(1, "drop", 2), number=3)
    assert game.points == 2 and state.scores == (4, 3)


def test_games_after_the_match_is_decided_are_refused():
    state, _ = core.replay(sheet(1), [GameEntry(1)])
    with pytest.raises(ScoringError) as exc:
        core.play_game(state, GameEntry(0), number=2)
    assert exc.value.code == "play_after_match_end"


def test_resignation_scores_its_level_times_the_cube():
    state, games = core.replay(sheet(7), [GameEntry(1, "resign", 2, resign_level=2)])
    assert games[0].points == 4 and state.scores == (0, 4)


def test_a_bad_cube_value_is_refused():
    with pytest.raises(ScoringError, match="not 3"):
        core.play_game(sheet(5), GameEntry(0, "single", 3), number=1)


def test_describe_names_the_crawford_game_plainly():
    state, _ = core.replay(sheet(5), [GameEntry(0, "single", 4)])
    view = core.describe(state)
    assert view["phase"] == "crawford" and view["cube_allowed"] is False and view["away"] == [1, 5]


def test_crawford_rule_off_never_has_a_crawford_game():
    state, _ = core.replay(sheet(5, crawford_rule=False), [GameEntry(0, "single", 4)])
    assert not state.crawford_game
    core.play_game(state, GameEntry(1, "single", 2), number=2)


@given(
    length=st.integers(1, 15),
    games=st.lists(
        st.tuples(
            st.integers(0, 1), st.sampled_from(["single", "gammon", "backgammon", "drop"]), st.sampled_from([1, 2, 4])
        ),
        max_size=30,
    ),
)
def test_any_accepted_scoresheet_obeys_crawford_and_stops_at_the_end(length, games):
    state = sheet(length)
    for number, (winner, kind, cube) in enumerate(games, start=1):
        before = state
        try:
            state, scored = core.play_game(state, GameEntry(winner, kind, cube), number=number)
        except ScoringError as exc:
            assert before.is_over or (before.crawford_game and (cube != 1 or kind == "drop"))
            assert exc.code in ("play_after_match_end", "cube_in_crawford_game", "drop_in_crawford_game")
            continue
        assert not before.is_over
        assert sum(state.scores) - sum(before.scores) == scored.points
        if scored.crawford_game:
            assert cube == 1
    if state.is_over:
        assert core.check_reported_score(length=length, scores=state.scores) == state.winner
        assert min(state.scores) < length


def test_final_score_must_be_reachable():
    assert core.check_reported_score(length=5, scores=(3, 6)) == 1
    with pytest.raises(ScoringError) as exc:
        core.check_reported_score(length=5, scores=(5, 5))
    assert exc.value.code == "loser_at_length"
    with pytest.raises(ScoringError) as exc:
        core.check_reported_score(length=5, scores=(4, 3))
    assert exc.value.code == "match_unfinished"
    with pytest.raises(ScoringError) as exc:
        core.check_reported_score(length=11, scores=(111, 3))
    assert exc.value.code == "no_deciding_game"


def test_final_score_cannot_be_below_the_penalty_head_start():
    with pytest.raises(ScoringError, match="player B starts this match with 2 points") as exc:
        core.check_reported_score(length=5, scores=(5, 1), penalties=(2, 0))
    assert exc.value.code == "below_start"


def test_penalty_points_and_the_crawford_rule_change_which_final_scores_are_reachable():
    # 2-point match: 5–0 needs a 4-point game at 1–0, which is the Crawford game unless the rule is off.
    with pytest.raises(ScoringError) as exc:
        core.check_reported_score(length=2, scores=(5, 0))
    assert exc.value.code == "crawford_no_cube"
    assert core.check_reported_score(length=2, scores=(5, 0), crawford_rule=False) == 0
    # 5-point match, B's lateness gave A 2 points: A's last game started at 2, 3 or 4, so 10–0 needs 6, 7 or 8.
    assert core.check_reported_score(length=5, scores=(10, 0), penalties=(0, 2)) == 0
    with pytest.raises(ScoringError) as exc:  # 13 needs 9, 10 or 11: no game is worth that
        core.check_reported_score(length=5, scores=(13, 0), penalties=(0, 2))
    assert exc.value.code == "no_deciding_game"
    assert core.check_reported_score(length=5, scores=(13, 0)) == 0  # from 0–0 a 12-point game from 1–0 does it


@given(length=st.integers(1, 25), a=st.integers(0, 60), b=st.integers(0, 60))
def test_a_final_score_below_or_at_the_length_plus_one_point_game_is_accepted(length, a, b):
    """Every score a match can end at with a last game worth 1 is accepted; one where nobody or both reached the
    length is not (the exact rule is proved against every sequence of games in tests/games/test_scoring.py)."""
    try:
        core.check_reported_score(length=length, scores=(a, b))
    except ScoringError:
        assert (a >= length) == (b >= length) or max(a, b) > length
    else:
        assert (a >= length) != (b >= length)


def verdict(**changes):
    base = {
        "valid": True,
        "match_length": 5,
        "players": ["Anna Becker", "Bernd Hoffmann"],
        "final_score": [5, 2],
        "winner": "Anna Becker",
        "games": [],
        "errors": [],
    }
    return base | changes


def test_record_agreeing_in_either_order_gives_the_score_from_the_match_view():
    assert core.compare_record(verdict(), player_names=("Anna Becker", "Bernd Hoffmann"), length=5) == (5, 2)
    assert core.compare_record(verdict(), player_names=("bernd  hoffmann", "Anna Becker"), length=5, scores=(2, 5)) == (
        2,
        5,
    )


def test_record_with_other_players_or_score_is_refused_with_the_difference():
    with pytest.raises(ScoringError) as exc:
        core.compare_record(verdict(), player_names=("Anna Becker", "Clara Wagner"), length=5, scores=(5, 3))
    message = exc.value.message
    assert "between Anna Becker and Bernd Hoffmann" in message and "Clara Wagner" in message
    assert "the report says 5–3" in message
    with pytest.raises(ScoringError, match="7-point match"):
        core.compare_record(verdict(match_length=7), player_names=("Anna Becker", "Bernd Hoffmann"), length=5)


def test_invalid_record_is_refused_with_its_errors():
    with pytest.raises(ScoringError, match="game 3: score header wrong"):
        core.compare_record(
            verdict(valid=False, errors=["game 3: score header wrong"]), player_names=("a", "b"), length=5
        )


@pytest.mark.parametrize(("minutes", "points"), [(0, 0), (4.9, 0), (5, 1), (9, 1), (10, 2), (27, 5)])
def test_lateness_penalty_one_point_per_full_five_minutes(minutes, points):
    assert core.lateness_penalty(minutes) == points


def test_lateness_forfeits_when_penalties_exceed_half_the_length():
    assert not core.lateness_forfeits(penalty=2, length=5)
    assert core.lateness_forfeits(penalty=3, length=5)
    assert not core.lateness_forfeits(penalty=3, length=7) and not core.lateness_forfeits(penalty=2, length=4)
    assert core.lateness_forfeits(penalty=1, length=1)


@given(minutes=st.floats(0, 500), extra=st.floats(0, 500))
def test_lateness_never_decreases_with_more_minutes(minutes, extra):
    assert core.lateness_penalty(minutes + extra) >= core.lateness_penalty(minutes)


def test_penalty_points_start_the_match_at_the_opponents_favour():
    state = core.start_state(length=5, penalties=(2, 0))
    assert state.scores == (0, 2)


def test_status_transitions_are_guarded():
    assert core.can_transition("scheduled", "in_progress")
    assert core.can_transition("in_progress", "finished")
    assert core.can_transition("finished", "abandoned")
    assert not core.can_transition("finished", "in_progress")
    assert not core.can_transition("in_progress", "scheduled")


def test_only_played_out_matches_are_rated():
    assert core.is_rated("played")
    assert not any(core.is_rated(o) for o in ("lateness", "forfeit", "walkover", "no_show", "double_forfeit"))
    assert core.status_for_outcome("walkover") == "forfeited"
