"""Strict verification of a Dave record: replay every game and give the same verdict as the backgammon verifier
(backgammon/verification.py: valid, match length, players, final score, winner, games, errors and warnings, each
error with game, move, line, player, text, code, message), so the record pages and the API show both alike.

Why a replay of its own: the checker play is standard backgammon and is judged by the same engine
(backgammon via backgammon.verification.play_written), but the stake is not the cube: the Dave state machine
(stake.py) says who may offer, and a game is worth the stake, never a gammon. After an error in a game the replay
goes on with the next game from the score written in its header. In the verdict, `cube` holds the game's final
stake and `kind` is how it ended: `won` (played out), `gave_up` (a Dave given up) or `resigned`.
"""

from __future__ import annotations

from dataclasses import dataclass

from backgammon.board import Board
from backgammon.dave.errors import DaveError, DaveRecordError
from backgammon.dave.record import DaveAction, DaveGame, DaveRecord, Kind, parse_dave
from backgammon.dave.stake import Progression, StakeState
from backgammon.matchfiles.notation import RecordFormatError, decode_move
from backgammon.variants import Variant, starting_board
from backgammon.verification import GameVerdict, RecordError, Verdict, play_written

# The codes the backgammon verifier also uses mean the same here; the rest are the Dave rules'.
SHARED_CODES = ("format", "illegal_move", "incomplete_play", "larger_die_required", "opening_double", "out_of_turn",
                "play_after_game_end", "game_unfinished", "wrong_points", "score_mismatch", "play_after_match_end",
                "match_unfinished")
CODES = (*SHARED_CODES, "dave_not_yours", "dave_after_roll", "dave_unanswered", "dave_not_offered", "wrong_stake")


class _GameError(DaveError):
    """A game's replay stopped at `action`."""

    def __init__(self, action: DaveAction, code: str, message: str) -> None:
        super().__init__(code, message)
        self.action = action


@dataclass(frozen=True)
class _Outcome:
    state: StakeState
    kind: str | None  # won | gave_up | resigned; None while unfinished


def unreadable(error: DaveRecordError) -> Verdict:
    """The verdict for a text that is no Dave record: one `format` error at its line."""
    problem = RecordError(None, None, error.line, None, "", "format", error.message)
    return Verdict(False, None, [], [], None, errors=[problem])


def verify_dave(record: DaveRecord, *, expect_finished: bool = True) -> Verdict:
    """Replay `record`. `expect_finished`: a match (length > 0) must end with a winner; a money session
    (length 0) never has one."""
    names = record.players
    verdict = Verdict(True, record.length, list(names), [0, 0], None)
    expected: tuple[int, int] | None = (0, 0)  # None: unknown after a game that could not be scored
    scores = (0, 0)
    for game in record.games:
        if expected is not None and game.scores != expected:
            verdict.errors.append(_at_game(game, "score_mismatch", f"starts at {game.scores[0]}–{game.scores[1]}, "
                                           f"but the games before it end at {expected[0]}–{expected[1]}."))
        scores, expected = game.scores, None
        if record.length and max(scores) >= record.length:
            verdict.errors.append(_at_game(game, "play_after_match_end", f"starts at {scores[0]}–{scores[1]}: the "
                                           f"{record.length}-point match was already decided."))
            continue
        try:
            outcome = _replay(names, game, record.progression)
        except _GameError as error:
            verdict.errors.append(_at_action(names, game, error))
            verdict.games.append(GameVerdict(game.number, None, None, None, 1, False))
            continue
        state = outcome.state
        if state.winner is None or state.points is None:
            verdict.games.append(GameVerdict(game.number, None, None, None, state.stake, False))
            if game is not record.games[-1]:
                verdict.errors.append(_at_game(game, "game_unfinished", "ends without a winner, yet another game "
                                               "follows."))
            continue
        verdict.games.append(GameVerdict(game.number, names[state.winner], state.points, outcome.kind, state.stake,
                                         False))
        won = [0, 0]
        won[state.winner] = state.points
        scores = expected = (scores[0] + won[0], scores[1] + won[1])
    verdict.final_score = list(scores)
    if record.length and max(scores) >= record.length:
        verdict.winner = names[0] if scores[0] >= record.length else names[1]
    last = record.games[-1]
    # When the last game itself is wrong its result is unknown, so "unfinished" would be a guess.
    if record.length and verdict.winner is None and expect_finished and all(
        error.game != last.number for error in verdict.errors
    ):
        actions = last.actions
        verdict.errors.append(RecordError(
            last.number, actions[-1].move_number if actions else None, actions[-1].line if actions else last.line,
            None, "", "match_unfinished", f"The record ends at {scores[0]}–{scores[1]}: nobody has reached "
            f"{record.length} points, so the match is not finished."))
    verdict.valid = not verdict.errors
    return verdict


def _at_game(game: DaveGame, code: str, message: str) -> RecordError:
    return RecordError(game.number, None, game.line, None, f"Game {game.number}", code,
                       f"Game {game.number} {message}")


def _at_action(names: tuple[str, str], game: DaveGame, error: _GameError) -> RecordError:
    action = error.action
    return RecordError(game.number, action.move_number, action.line, names[action.player], action.text, error.code,
                       f"Game {game.number}, move {action.move_number}, {error.message}")


def _replay(names: tuple[str, str], game: DaveGame, progression: Progression) -> _Outcome:
    board = starting_board(Variant.STANDARD)
    state = StakeState(progression)
    kind: str | None = None
    offer: DaveAction | None = None  # the Dave awaiting its answer
    for index, action in enumerate(game.actions):
        who = names[action.player]
        if action.kind is Kind.WIN:
            state, kind = _win(names, state, kind, action)
            if index + 1 < len(game.actions):
                after = game.actions[index + 1]
                raise _GameError(after, "play_after_game_end", f"{names[after.player]} wrote '{after.text}' after "
                                 "the game was over.")
            return _Outcome(state, kind)
        if state.is_over:
            raise _GameError(action, "play_after_game_end", f"{who} wrote '{action.text}' after the game was over.")
        try:
            if action.kind is Kind.DAVE:
                offered = state.next_stake
                state, offer = state.offer(action.player), action
                if action.value != offered:
                    raise _GameError(action, "wrong_stake", f"{who} offered a Dave to {action.value}; the "
                                     f"{progression} progression goes from {state.stake} to {offered}.")
            elif action.kind is Kind.ACCEPT:
                state, offer = state.accept(action.player), None
            elif action.kind is Kind.GIVE_UP:
                state, kind, offer = state.give_up(action.player), "gave_up", None
            else:
                opening = state.turn is None
                state = state.roll(action.player)
                board = _play(who, board, action, opening=opening)
                if board.off(action.player) == board.total:
                    state, kind = state.win(action.player), "won"
        except _GameError:
            raise
        except DaveError as error:
            raise _GameError(action, error.code, f"{who} wrote '{action.text}': {_plain(names, error.message)}.") \
                from error
    if offer is not None:
        raise _GameError(offer, "dave_unanswered", f"{names[offer.player]}'s Dave to {offer.value} is never "
                         "answered.")
    return _Outcome(state, kind)


def _plain(names: tuple[str, str], message: str) -> str:
    """The state machine's message with the players' names for its `side 0` / `side 1`."""
    return message.replace("side 0", names[0]).replace("side 1", names[1])


def _play(who: str, board: Board, action: DaveAction, *, opening: bool) -> Board:
    """The board after a written roll, judged by the backgammon engine."""
    dice = action.dice or (0, 0)
    if opening and dice[0] == dice[1]:
        raise _GameError(action, "opening_double", f"{who} opened with {dice[0]}{dice[1]}: the opening roll is one "
                         "die each, so it is never a double.")
    try:
        decoded = decode_move("" if action.move == "Cannot Move" else action.move, line=action.line)
    except RecordFormatError as error:
        raise _GameError(action, "illegal_move", f"{who} wrote {action.move}: {error.message}") from error
    check = play_written(board, action.player, dice, decoded)
    if not check.ok or check.result is None:
        raise _GameError(action, check.code or "illegal_move", f"{who} rolled {dice[0]}{dice[1]} and wrote "
                         f"{action.move or 'nothing'}: {check.message}")
    return check.result


def _win(names: tuple[str, str], state: StakeState, kind: str | None, action: DaveAction) -> tuple[StakeState, str]:
    """The `Wins n points` line: after the game was played out or given up, or a resignation by the other."""
    who = names[action.player]
    if not state.is_over:
        state, kind = state.resign(1 - action.player), "resigned"
    assert state.winner is not None and kind is not None
    if state.winner != action.player:
        raise _GameError(action, "wrong_points", f"{who} is written as the winner, but {names[state.winner]} won.")
    if action.value != state.points:
        why = {"won": "a game played out is worth the stake", "gave_up": "a Dave given up pays the stake before "
               "the raise", "resigned": "a resignation pays the stake"}[kind]
        raise _GameError(action, "wrong_points", f"{who} is written to win {action.value}, but {why}: "
                         f"{state.points}.")
    return state, kind


def check_dave_record(data: bytes | str, *, expect_finished: bool = True) -> tuple[str, Verdict]:
    """Read and verify a record's text: (status, verdict), status valid | invalid | unreadable."""
    try:
        verdict = verify_dave(parse_dave(data), expect_finished=expect_finished)
    except DaveRecordError as error:  # only the reader raises it
        return "unreadable", unreadable(error)
    return ("valid" if verdict.valid else "invalid"), verdict
