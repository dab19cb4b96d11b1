"""Self-played long nardy matches verify as valid after write → read; mutated copies are rejected with the
code of the rule they break, at the move and line where it is broken."""

import dataclasses
import random

import pytest

from backgammon.nardy.board import HEAD, NardyBoard
from backgammon.nardy.check import check_play
from backgammon.nardy.moves import ROUTE, legal_plays, successors, view_block
from backgammon.nardy.notation import format_steps, parse_move
from backgammon.nardy.random_play import random_match
from backgammon.nardy.record import NardyAction, NardyGame, NardyRecord, parse_nardy, write_nardy
from backgammon.nardy.settings import NardySettings
from backgammon.nardy.verification import CODES, SHARED_CODES, check_nardy_record, verify_nardy
from backgammon.verification import CODES as BACKGAMMON_CODES
from backgammon.verification import verify as verify_backgammon
from tests.backgammon.nardy.oracle import forbidden
from tests.backgammon.nardy.positions import apply_steps

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
    from backgammon.matchfiles.mat import parse_mat

    nardy = verify_nardy(_match(11)).as_dict(file="a.txt")
    backgammon = verify_backgammon(parse_mat(" 1 point match\n Game 1\n A : 0   B : 0\n  1) 31: 8/5 6/5\n")).as_dict()
    assert nardy.keys() == backgammon.keys()
    assert nardy["games"][0].keys() == {"number", "winner", "points", "kind", "cube", "crawford"}
    assert {game["kind"] for game in nardy["games"]} <= {"oin", "mars"}


# --- mutations ----------------------------------------------------------------------------------------------


def _replay(record: NardyRecord):
    """(game index, action index, action, board before it, first turn of its player) for every roll."""
    for game_index, game in enumerate(record.games):
        board = NardyBoard.start()
        played = [False, False]
        for index, action in enumerate(game.actions):
            if action.dice is None:
                break
            yield game_index, index, action, board, not played[action.player]
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
    result = apply_steps(board, action.player, steps[:-1])
    view = result.view(action.player)
    mine = {index + 1: value for index, value in enumerate(view) if value > 0}
    theirs = {index + 1: -value for index, value in enumerate(view) if value < 0}
    if forbidden(mine, theirs, result.off[1 - action.player], NardySettings()):
        return None  # the shorter play would be refused for the block it leaves, not for its length
    return format_steps(steps[:-1])


def _larger_die(action, board, first_turn):
    """The smaller die alone, where only one die of two can be played and the larger is playable."""
    high, low = max(action.dice), min(action.dice)
    if high == low or len(parse_move(action.move)) != 1:
        return None
    budget = NardySettings().head_budget(action.dice, first_turn=first_turn)
    legal = {play.result.view(action.player) for play in legal_plays(board, action.player, action.dice,
                                                                      first_turn=first_turn)}
    for step, after, _ in successors(board.view(action.player), low, budget):
        if after not in legal and not view_block(after, board.off[1 - action.player], NardySettings()):
            return format_steps([step])  # (the smaller die bearing off the checker the larger would is legal)
    return None


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
    found = None
    for game_index, index, action, board, first_turn in _replay(record):
        move = mutate(action, board, first_turn)
        if move is not None and index > 4:  # past the opening moves, so the move number is not trivially 1
            found = game_index, index, action, move
            break
    assert found is not None, f"seed {seed}: no move to mutate for {code}"
    game_index, index, action, move = found
    _assert_rejected_at(_replace(record, index, dataclasses.replace(action, move=move), game_index), code,
                        game_index + 1, action, move)


def test_the_smaller_die_written_where_only_the_larger_may_be_played_is_rejected():
    """Such rolls are rare in random play (mostly in the bear-off, where both dice usually take the same
    checker off): the first match of these seeds that has one is mutated there."""
    for seed in range(11, 40):
        record = _match(seed)
        for game_index, index, action, board, first_turn in _replay(record):
            move = _larger_die(action, board, first_turn)
            if move is not None:
                mutated = _replace(record, index, dataclasses.replace(action, move=move), game_index)
                _assert_rejected_at(mutated, "larger_die_required", game_index + 1, action, move)
                return
    raise AssertionError("no match of seeds 11–39 has a roll where only one die of two can be played")


def _assert_rejected_at(mutated: NardyRecord, code: str, game: int, action: NardyAction, move: str) -> None:
    text = write_nardy(mutated)
    verdict = verify_nardy(parse_nardy(text))
    assert not verdict.valid
    error = verdict.errors[0]
    assert (error.code, error.game, error.move) == (code, game, action.move_number), error.message
    assert error.player == mutated.players[action.player]
    assert move in text.splitlines()[error.line - 1]  # the line the director is sent to holds the mutated move
    assert len(verdict.errors) == 1  # the other games still verify: their scores are as written


def _longest_run(view: tuple[int, ...]) -> int:
    best = run = 0
    for index in ROUTE:
        run = run + 1 if view[index] > 0 else 0
        best = max(best, run)
    return best


def test_a_move_mutated_to_close_a_forbidden_block_is_rejected_at_that_move():
    """Random play seldom builds six in a row, so Anna here prefers the play with the longest run (Boris plays
    at random) until a roll lets her close a six-block nobody is ahead of; that play is written instead."""
    rng = random.Random(0)
    board, player, played = NardyBoard.start(), 0, [False, False]
    actions: list[NardyAction] = []
    rules = NardySettings()
    while True:
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        first_turn = not played[player]
        number = len(actions) // 2 + 1
        if player == 0 and dice[0] != dice[1]:
            budget = rules.head_budget(dice, first_turn=first_turn)
            view = board.view(0)
            closing = [
                [first, second]
                for first, after, left in successors(view, dice[0], budget)
                for second, end, _ in successors(after, dice[1], left)
                if view_block(end, board.off[1], rules)
            ]
            if closing:
                break
        plays = legal_plays(board, player, dice, first_turn=first_turn)
        play = max(plays, key=lambda p: (_longest_run(p.result.view(0)), rng.random())) if player == 0 else (
            rng.choice(plays))
        actions.append(NardyAction(player, number, dice=dice, move=format_steps(play.steps)))
        board, played[player], player = play.result, True, 1 - player
        assert len(actions) < 200, "no chance to close a block"
    legal = format_steps(legal_plays(board, 0, dice)[0].steps)
    record = NardyRecord(1, ("Anna", "Boris"), (NardyGame(1, (0, 0), (*actions, NardyAction(0, number, dice, legal))),))
    assert verify_nardy(parse_nardy(write_nardy(record)), expect_finished=False).valid
    move = format_steps(closing[0])
    last = len(record.games[0].actions) - 1
    mutated = _replace(record, last, dataclasses.replace(record.games[0].actions[last], move=move))
    text = write_nardy(mutated)
    verdict = verify_nardy(parse_nardy(text), expect_finished=False)
    assert [(error.code, error.move) for error in verdict.errors] == [("six_block", number)]
    assert move in text.splitlines()[verdict.errors[0].line - 1]


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
