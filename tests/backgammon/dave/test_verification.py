"""Self-played Dave sessions and matches verify as valid after write → read; mutated copies are rejected with
the code of the rule they break, at the action (move number, player, text) where it is broken."""

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from backgammon.dave.random_play import Chances, random_session
from backgammon.dave.record import DaveAction, DaveGame, DaveRecord, Kind, numbered, parse_dave, write_dave
from backgammon.dave.stake import Progression
from backgammon.dave.verification import CODES, SHARED_CODES, check_dave_record, verify_dave
from backgammon.matchfiles.mat import parse_mat
from backgammon.verification import CODES as BACKGAMMON_CODES
from backgammon.verification import verify as verify_backgammon

SEEDS = [5, 6, 7, 8, 9, 10]
PLAYERS = ("Anna", "Boris")
BUSY = Chances(offer=0.3, accept=0.8)  # many Daves per game, so every mutation finds its place


def _session(seed: int, progression=Progression.GEOMETRIC, **kwargs) -> DaveRecord:
    return random_session(seed=seed, games=3, players=PLAYERS, progression=progression, chances=BUSY, **kwargs)


@pytest.mark.parametrize("progression", list(Progression))
@pytest.mark.parametrize("seed", SEEDS)
def test_a_self_played_session_verifies_as_valid_after_write_and_read(seed, progression):
    record = _session(seed, progression)
    status, verdict = check_dave_record(write_dave(record).encode())
    assert status == "valid", verdict.errors
    wins = [game.actions[-1] for game in record.games]
    assert [game.points for game in verdict.games] == [win.value for win in wins]
    final = [0, 0]
    for win in wins:
        final[win.player] += win.value
    assert verdict.final_score == final and verdict.winner is None
    assert {game.kind for game in verdict.games} <= {"won", "gave_up"}
    assert all(progression.level_of(game.cube) is not None for game in verdict.games)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32), progression=st.sampled_from(list(Progression)),
       offer=st.floats(0, 0.5), accept=st.floats(0, 1))
def test_any_self_played_session_round_trips_and_verifies(seed, progression, offer, accept):
    record = random_session(seed=seed, games=2, players=PLAYERS, progression=progression,
                            chances=Chances(offer=offer, accept=accept))
    text = write_dave(record)
    assert parse_dave(text) == record
    status, verdict = check_dave_record(text)
    assert status == "valid", verdict.errors


def test_a_match_played_with_daves_ends_when_a_player_reaches_the_length():
    record = random_session(seed=3, length=7, players=PLAYERS, chances=BUSY)
    status, verdict = check_dave_record(write_dave(record))
    assert status == "valid", verdict.errors
    assert max(verdict.final_score) >= 7 and verdict.winner == PLAYERS[verdict.final_score[1] >= 7]
    cut = dataclasses.replace(record, games=record.games[:-1])
    status, verdict = check_dave_record(write_dave(cut))
    assert status == "invalid" and [error.code for error in verdict.errors] == ["match_unfinished"]


def test_the_verdict_has_the_backgammon_verifiers_shape_and_codes():
    dave = verify_dave(_session(5)).as_dict(file="a.txt")
    backgammon = verify_backgammon(parse_mat(" 1 point match\n Game 1\n A : 0   B : 0\n  1) 31: 8/5 6/5\n")).as_dict()
    assert dave.keys() == backgammon.keys()
    assert dave["games"][0].keys() == backgammon["games"][0].keys()
    assert set(SHARED_CODES) <= set(BACKGAMMON_CODES) and len(set(CODES)) == len(CODES)


# --- mutations ----------------------------------------------------------------------------------------------


def _with_game(record: DaveRecord, index: int, actions: list[DaveAction]) -> DaveRecord:
    games = list(record.games)
    games[index] = dataclasses.replace(games[index], actions=numbered(actions))
    return dataclasses.replace(record, games=tuple(games))


def _rejected_at(record: DaveRecord, game_index: int, actions: list[DaveAction], at: int, code: str) -> None:
    """Write the record with game `game_index` replaced by `actions`, read it back, verify: the first error is
    `code`, in that game, at action `at` (its move number, player and text)."""
    mutated = _with_game(record, game_index, actions)
    status, verdict = check_dave_record(write_dave(mutated))
    assert status == "invalid", f"expected {code}"
    error = verdict.errors[0]
    action = numbered(actions)[at]
    assert (error.code, error.game, error.move) == (code, game_index + 1, action.move_number), error
    assert (error.player, error.text) == (PLAYERS[action.player], action.text), error
    assert parse_dave(write_dave(mutated)).games[game_index].actions[at].line == error.line


def _places(record: DaveRecord, wanted):
    """(game index, actions, action index) for each action `wanted(actions, index)` picks."""
    for game_index, game in enumerate(record.games):
        actions = list(game.actions)
        for index in range(len(actions)):
            if wanted(actions, index):
                yield game_index, actions, index


def _first(record: DaveRecord, wanted):
    place = next(_places(record, wanted), None)
    assert place is not None, "the seeded session has no such place"
    return place


@pytest.mark.parametrize("seed", SEEDS)
def test_a_dave_to_a_stake_off_the_progression_is_wrong_stake(seed):
    record = _session(seed)
    game, actions, index = _first(record, lambda actions, i: actions[i].kind is Kind.DAVE)
    actions[index] = dataclasses.replace(actions[index], value=actions[index].value + 1)
    _rejected_at(record, game, actions, index, "wrong_stake")


@pytest.mark.parametrize("seed", SEEDS)
def test_a_second_dave_by_the_player_whose_dave_was_accepted_is_not_theirs(seed):
    """Right after `Accepts`, the offerer is still on roll, but only the acceptor may offer the next Dave."""
    record = _session(seed)
    game, actions, index = _first(record, lambda actions, i: actions[i].kind is Kind.ACCEPT)
    offerer = actions[index - 1]
    actions.insert(index + 1, DaveAction(offerer.player, 0, Kind.DAVE, value=(offerer.value or 0) * 2))
    _rejected_at(record, game, actions, index + 1, "dave_not_yours")


@pytest.mark.parametrize("seed", SEEDS)
def test_a_dave_after_ones_own_roll_is_dave_after_roll(seed):
    record = _session(seed)
    game, actions, index = _first(record, lambda actions, i: actions[i].kind is Kind.ROLL and i > 2)
    actions.insert(index + 1, DaveAction(actions[index].player, 0, Kind.DAVE, value=64))
    _rejected_at(record, game, actions, index + 1, "dave_after_roll")


@pytest.mark.parametrize("seed", SEEDS)
def test_a_roll_while_a_dave_awaits_its_answer_is_dave_unanswered(seed):
    record = _session(seed)
    game, actions, index = _first(record, lambda actions, i: actions[i].kind is Kind.ACCEPT)
    del actions[index]  # the offerer's roll now follows the offer directly
    _rejected_at(record, game, actions, index, "dave_unanswered")


@pytest.mark.parametrize("seed", SEEDS)
def test_an_answer_nobody_asked_for_is_dave_not_offered(seed):
    record = _session(seed)
    game, actions, index = _first(record, lambda actions, i: actions[i].kind is Kind.ROLL and i > 0
                                  and actions[i - 1].kind is Kind.ROLL)
    actions.insert(index, DaveAction(1 - actions[index].player, 0, Kind.ACCEPT))
    _rejected_at(record, game, actions, index, "dave_not_offered")


@pytest.mark.parametrize("seed", SEEDS)
def test_a_win_written_as_a_gammon_or_with_the_refused_raise_is_wrong_points(seed):
    record = random_session(seed=seed, games=3, players=PLAYERS, chances=Chances(offer=0.02, accept=0.9))
    game, actions, index = _first(record, lambda actions, i: actions[i].kind is Kind.WIN
                                  and actions[i - 1].kind is Kind.ROLL)
    actions[index] = dataclasses.replace(actions[index], value=2 * (actions[index].value or 0))  # "a gammon"
    _rejected_at(record, game, actions, index, "wrong_points")
    record = random_session(seed=seed, games=3, players=PLAYERS, chances=Chances(offer=0.3, accept=0.3))
    game, actions, index = _first(record, lambda actions, i: actions[i].kind is Kind.GIVE_UP)
    actions[index + 1] = dataclasses.replace(actions[index + 1], value=actions[index - 1].value)  # the raise
    _rejected_at(record, game, actions, index + 1, "wrong_points")


@pytest.mark.parametrize("seed", SEEDS[:2])
def test_a_double_on_the_opening_roll_and_a_roll_after_the_win_are_refused(seed):
    record = _session(seed)
    actions = list(record.games[0].actions)
    actions[0] = dataclasses.replace(actions[0], dice=(3, 3))
    _rejected_at(record, 0, actions, 0, "opening_double")
    actions = [*record.games[0].actions, DaveAction(0, 0, Kind.ROLL, dice=(3, 1), move="8/5 6/5")]
    _rejected_at(record, 0, actions, len(actions) - 1, "play_after_game_end")


@pytest.mark.parametrize("seed", SEEDS[:2])
def test_checker_play_is_judged_as_standard_backgammon(seed):
    record = _session(seed)
    game, actions, index = _first(record, lambda actions, i: actions[i].kind is Kind.ROLL and i > 0)
    actions[index] = dataclasses.replace(actions[index], move="Cannot Move")  # a backgammon position always moves
    _rejected_at(record, game, actions, index, "incomplete_play")
    actions[index] = dataclasses.replace(actions[index], move="13/12 13/12 13/12 13/12 13/12")  # five steps
    _rejected_at(record, game, actions, index, "illegal_move")


def test_a_dave_never_answered_at_the_end_of_the_record_is_named():
    text = ('; [Variation "Short Backgammon with Dave"]\n0 point match\n Game 1\n A : 0   B : 0\n'
            "  1) 31: 8/5 6/5                   Dave => 2\n")
    status, verdict = check_dave_record(text)
    assert status == "invalid"
    assert [(error.code, error.line, error.text) for error in verdict.errors] == [("dave_unanswered", 5,
                                                                                    "Dave => 2")]


def test_a_score_line_that_does_not_follow_from_the_games_before_is_a_mismatch():
    record = _session(5)
    games = list(record.games)
    games[2] = DaveGame(3, (games[2].scores[0] + 1, games[2].scores[1]), games[2].actions)
    status, verdict = check_dave_record(write_dave(dataclasses.replace(record, games=tuple(games))))
    assert [(error.code, error.game) for error in verdict.errors] == [("score_mismatch", 3)]
