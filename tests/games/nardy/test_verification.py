"""Self-played long nardy matches verify as valid after write → read; mutated copies are rejected with the
code of the rule they break, at the move and line where it is broken."""

import dataclasses

import pytest

from games.nardy.board import HEAD, NardyBoard
from games.nardy.check import check_play
from games.nardy.notation import parse_move
from games.nardy.random_play import random_match
from games.nardy.record import NardyAction, NardyRecord, parse_nardy, write_nardy
from games.nardy.verification import CODES, SHARED_CODES, check_nardy_record, verify_nardy
from games.verification import CODES as BACKGAMMON_CODES
from games.verification import verify as verify_backgammon

SEEDS = [11, 12, 13, 14]


def _match(seed: int, length: int = 3) -> NardyRecord:
    return random_match(seed=seed, length=length, players=("Anna", "Boris"))


@pytest.mark.parametrize("seed", SEEDS)
def test_a_self_played_match_verifies_as_valid_after_write_and_read(seed):
    record = _match(seed)
    status, verdict = check_nardy_record(write_nardy(record).encode())
    assert status == "valid", verdict.errors
    final = [0, 0]
    for game in record.games:
        win = game.actions[-1]
        final[win.player] += win.points
    assert verdict.final_score == final and max(final) >= 3
    assert verdict.winner == ("Anna" if final[0] >= 3 else "Boris")
    assert [game.points for game in verdict.games] == [game.actions[-1].points for game in record.games]


def test_the_verdict_has_the_backgammon_verifiers_shape():
    from games.formats.mat import parse_mat

    nardy = verify_nardy(_match(11)).as_dict(file="a.txt")
    backgammon = verify_backgammon(parse_mat(" 1 point match\n Game 1\n A : 0   B : 0\n  1) 31: 8/5 6/5\n")).as_dict()
    assert nardy.keys() == backgammon.keys()
    assert nardy["games"][0].keys() == {"number", "winner", "points", "kind", "cube", "crawford"}
    assert {game["kind"] for game in nardy["games"]} <= {"oin", "mars"}


# --- mutations ----------------------------------------------------------------------------------------------


def _replay(record: NardyRecord, game_index: int = 0):
    """(action index, action, board before it, first turn of its player) for every roll of a game."""
    board = NardyBoard.start()
    played = [False, False]
    game = record.games[game_index]
    for index, action in enumerate(game.actions):
        if action.dice is None:
            return
        yield index, action, board, not played[action.player]
        check = check_play(board, action.player, action.dice, parse_move(action.move),
                           first_turn=not played[action.player], settings=record.settings)
        assert check.ok and check.result is not None
        board = check.result
        played[action.player] = True


def _replace(record: NardyRecord, index: int, action: NardyAction, game_index: int = 0) -> NardyRecord:
    game = record.games[game_index]
    actions = list(game.actions)
    actions[index] = action
    games = list(record.games)
    games[game_index] = dataclasses.replace(game, actions=tuple(actions))
    return dataclasses.replace(record, games=tuple(games))


def _lands_on_opponent(action, board, first_turn):
    view = board.view(action.player)
    for die in action.dice:
        for point in range(24, die, -1):
            if view[point - 1] > 0 and view[point - die - 1] < 0:
                return f"{point}/{point - die}"
    return None


def _head_rule(action, board, first_turn):
    high, low = action.dice
    view = board.view(action.player)
    if high == low or view[HEAD - 1] < 2 or view[HEAD - 1 - high] < 0 or view[HEAD - 1 - low] < 0:
        return None
    return f"24/{24 - high} 24/{24 - low}"


def _bear_off_not_home(action, board, first_turn):
    view = board.view(action.player)
    if board.all_home(action.player):
        return None
    for die in action.dice:
        if view[die - 1] > 0:
            return f"{die}/off"
    return None


def _incomplete(action, board, first_turn):
    steps = parse_move(action.move)
    if len(steps) < 2:
        return None
    shorter = " ".join(f"{a}/{b or 'off'}" for a, b in steps[:-1])
    check = check_play(board, action.player, action.dice, steps[:-1], first_turn=first_turn)
    # only where the shorter play is refused for its length (not for a block it happens to leave)
    return shorter if check.code == "incomplete_play" else None


def _cannot_move(action, board, first_turn):
    return "Cannot Move" if action.move != "Cannot Move" else None


MUTATIONS = [
    ("lands_on_opponent", _lands_on_opponent),
    ("head_rule", _head_rule),
    ("bear_off_not_home", _bear_off_not_home),
    ("incomplete_play", _incomplete),
    ("incomplete_play", _cannot_move),
]


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize(("code", "mutate"), MUTATIONS, ids=[f"{code}-{f.__name__}" for code, f in MUTATIONS])
def test_a_move_mutated_to_break_a_rule_is_rejected_at_that_move(seed, code, mutate):
    record = _match(seed)
    mutated = None
    for index, action, board, first_turn in _replay(record):
        move = mutate(action, board, first_turn)
        if move is not None and index > 4:  # past the opening moves, so the move number is not trivially 1
            mutated = _replace(record, index, dataclasses.replace(action, move=move))
            break
    assert mutated is not None, f"seed {seed}: no move to mutate for {code}"
    text = write_nardy(mutated)
    verdict = verify_nardy(parse_nardy(text))
    assert not verdict.valid
    error = verdict.errors[0]
    assert (error.code, error.game, error.move) == (code, 1, action.move_number), error.message
    assert error.player == ("Anna", "Boris")[action.player]
    assert move in text.splitlines()[error.line - 1]  # the line the director is sent to holds the mutated move
    assert len(verdict.errors) == 1  # the later games still verify: their scores are as written


def test_a_win_written_with_the_wrong_points_is_rejected():
    record = _match(12)
    game = record.games[0]
    win = game.actions[-1]
    wrong = _replace(record, len(game.actions) - 1, dataclasses.replace(win, points=3 - win.points))
    verdict = verify_nardy(parse_nardy(write_nardy(wrong)))
    error = verdict.errors[0]
    assert (error.code, error.game, error.move) == ("wrong_points", 1, win.move_number)
    # the game's result is unknown, so the next game's score is taken as written (as the backgammon verifier does)
    assert len(verdict.errors) == 1 and len(verdict.games) == len(record.games)


def test_a_missing_roll_leaves_the_next_one_out_of_turn():
    record = _match(13)
    game = record.games[0]
    actions = game.actions[:7] + game.actions[8:]
    shortened = dataclasses.replace(record, games=(dataclasses.replace(game, actions=actions), *record.games[1:]))
    verdict = verify_nardy(parse_nardy(write_nardy(shortened)))
    error = verdict.errors[0]
    assert (error.code, error.move) == ("out_of_turn", game.actions[8].move_number)


def test_a_header_score_that_does_not_follow_is_rejected():
    record = _match(14)
    assert len(record.games) >= 2
    second = record.games[1]
    wrong = dataclasses.replace(record, games=(record.games[0], dataclasses.replace(second, scores=(5, 5)),
                                               *record.games[2:]))
    verdict = verify_nardy(parse_nardy(write_nardy(wrong)))
    assert [error.code for error in verdict.errors][:2] == ["score_mismatch", "play_after_match_end"]


def test_a_record_cut_short_is_unfinished():
    record = _match(11)
    game = record.games[0]
    cut = dataclasses.replace(record, games=(dataclasses.replace(game, actions=game.actions[:20]),))
    verdict = verify_nardy(parse_nardy(write_nardy(cut)))
    assert [error.code for error in verdict.errors] == ["match_unfinished"]
    assert verify_nardy(parse_nardy(write_nardy(cut)), expect_finished=False).valid


def test_the_codes_shared_with_backgammon_are_the_backgammon_verifiers_own():
    assert set(SHARED_CODES) <= set(BACKGAMMON_CODES)
    assert set(CODES) >= {
        "head_rule", "lands_on_opponent", "six_block", "bear_off_not_home", "incomplete_play",
        "larger_die_required", "wrong_points", "illegal_move",
    }
