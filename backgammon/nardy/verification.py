"""Strict verification of a long nardy match record: replay every game and give the same verdict as the
backgammon verifier (backgammon/verification.py: valid, match length, players, final score, winner, games, errors
and warnings with game, move, line, player, text, code, message), so the record pages and the API show both alike.

Why a replay of its own: the nardy rules (head rule, no landing on an opposing checker, the six-block rule, oin
and mars, no cube) share nothing with backgammon's board arithmetic. After an error in a game the replay goes
on with the next game from the score written in its header.
"""

from __future__ import annotations

from dataclasses import dataclass

from backgammon.nardy.board import CHECKERS, NardyBoard
from backgammon.nardy.check import check_play
from backgammon.nardy.errors import NardyError, NardyRecordError
from backgammon.nardy.notation import parse_move
from backgammon.nardy.record import NardyAction, NardyGame, NardyRecord, parse_nardy
from backgammon.nardy.scoring import NardyResult, allowed_points, game_result
from backgammon.nardy.settings import NardySettings
from backgammon.verification import GameVerdict, RecordError, Verdict, decided_match_text

# The codes the backgammon verifier also uses mean the same here; the last four are the nardy rules'.
SHARED_CODES = ("format", "illegal_move", "incomplete_play", "larger_die_required", "out_of_turn",
                "play_after_game_end", "game_unfinished", "wrong_points", "score_mismatch", "play_after_match_end",
                "match_unfinished")
CODES = (*SHARED_CODES, "lands_on_opponent", "head_rule", "six_block", "bear_off_not_home")


class _GameError(NardyError):
    """A game's replay stopped at `action` (None: at the game itself)."""

    def __init__(self, action: NardyAction | None, code: str, message: str):
        super().__init__(code, message)
        self.action = action


@dataclass(frozen=True)
class _Outcome:
    winner: int | None
    points: int | None
    kind: NardyResult | None


def unreadable(error: NardyRecordError) -> Verdict:
    """The verdict for a text that is no long nardy record: one `format` error at its line."""
    problem = RecordError(None, None, error.line, None, "", "format", error.message)
    return Verdict(False, None, [], [], None, errors=[problem])


def verify_nardy(record: NardyRecord, *, expect_finished: bool = True) -> Verdict:
    """Replay `record`. `expect_finished`: a match (length > 0) must end with a winner."""
    names = record.players
    settings = record.settings
    errors: list[RecordError] = []
    games: list[GameVerdict] = []
    expected: tuple[int, int] | None = (0, 0)
    scores = (0, 0)
    for game in record.games:
        if expected is not None and game.scores != expected:
            errors.append(
                _game_error(
                    game,
                    "score_mismatch",
                    f"Game {game.number} starts at {game.scores[0]}–{game.scores[1]}, but the games before it end "
                    f"at {expected[0]}–{expected[1]}.",
                )
            )
        scores = game.scores
        if record.length and max(scores) >= record.length:
            text = decided_match_text(game.number, scores, record.length)
            errors.append(_game_error(game, "play_after_match_end", text))
            expected = None
            continue
        try:
            outcome = _replay(names, game, settings)
        except _GameError as error:
            errors.append(_action_error(names, game, error))
            games.append(GameVerdict(game.number, None, None, None, 1, False))
            expected = None
            continue
        if outcome.winner is None:
            games.append(GameVerdict(game.number, None, None, None, 1, False))
            if game is not record.games[-1]:
                errors.append(
                    _game_error(game, "game_unfinished", f"Game {game.number} ends without a winner, yet another "
                                "game follows.")
                )
            expected = None
            continue
        points = outcome.points or 0
        games.append(GameVerdict(game.number, names[outcome.winner], points, str(outcome.kind), 1, False))
        new_scores = list(scores)
        new_scores[outcome.winner] += points
        scores = expected = (new_scores[0], new_scores[1])
    winner = None
    if record.length and max(scores) >= record.length:
        winner = names[0] if scores[0] >= record.length else names[1]
    last = record.games[-1] if record.games else NardyGame(0, (0, 0), ())
    # When the last game itself is wrong its result is unknown, so "unfinished" would be a guess.
    if record.length and winner is None and expect_finished and all(e.game != last.number for e in errors):
        errors.append(_unfinished(last, scores, record.length))
    return Verdict(not errors, record.length, list(names), list(scores), winner, games, errors)


def _unfinished(game: NardyGame, scores: tuple[int, int], length: int) -> RecordError:
    action = game.actions[-1] if game.actions else None
    where = (action.move_number, action.line) if action else (None, game.line)
    message = (
        f"The record ends at {scores[0]}–{scores[1]}: nobody has reached {length} points, so the match is not "
        "finished."
    )
    return RecordError(game.number, where[0], where[1], None, "", "match_unfinished", message)


def _game_error(game: NardyGame, code: str, message: str) -> RecordError:
    return RecordError(game.number, None, game.score_line or game.line, None, f"Game {game.number}", code, message)


def _action_error(names: tuple[str, str], game: NardyGame, error: _GameError) -> RecordError:
    action = error.action
    prefix = f"Game {game.number}" + (f", move {action.move_number}" if action else "")
    return RecordError(
        game=game.number,
        move=action.move_number if action else None,
        line=action.line if action else game.line,
        player=names[action.player] if action else None,
        text=action.text if action else "",
        code=error.code,
        message=f"{prefix}, {error.message}",
    )


def _replay(names: tuple[str, str], game: NardyGame, settings: NardySettings) -> _Outcome:
    board = NardyBoard.start()
    to_move: int | None = None  # None until the starter has rolled
    played = [False, False]
    finished_by: int | None = None
    for index, action in enumerate(game.actions):
        who = names[action.player]
        if action.dice is None:
            return _win(names, board, action, finished_by, game.actions[index + 1 :])
        if finished_by is not None:
            raise _GameError(action, "play_after_game_end", f"{who} rolled after {names[finished_by]} bore off all.")
        if to_move is not None and action.player != to_move:
            raise _GameError(action, "out_of_turn", f"{who} rolled, but it was {names[to_move]}'s turn.")
        dice = action.dice
        try:
            segments = parse_move(action.move)
        except NardyError as error:
            raise _GameError(action, error.code, f"{who} wrote {action.move}: {error.message}") from error
        check = check_play(board, action.player, dice, segments, first_turn=not played[action.player],
                           settings=settings)
        if not check.ok or check.result is None:
            written = action.move or "nothing"
            raise _GameError(
                action, check.code or "illegal_move", f"{who} rolled {dice[0]}{dice[1]} and wrote {written}: "
                f"{check.message}"
            )
        board = check.result
        played[action.player] = True
        to_move = 1 - action.player
        if board.off[action.player] == CHECKERS:
            finished_by = action.player
    if finished_by is not None:
        result = game_result(board, finished_by)
        return _Outcome(finished_by, allowed_points(board, finished_by)[0], result)
    return _Outcome(None, None, None)


def _win(
    names: tuple[str, str],
    board: NardyBoard,
    action: NardyAction,
    finished_by: int | None,
    rest: tuple[NardyAction, ...],
) -> _Outcome:
    """The `Wins n points` line: after the winner bore off all (oin or mars), or a resignation before."""
    who = names[action.player]
    if finished_by is not None and action.player != finished_by:
        raise _GameError(action, "wrong_points", f"{who} cannot win: {names[finished_by]} bore off all fifteen.")
    allowed = allowed_points(board, action.player)
    if action.points not in allowed:
        if finished_by is not None:
            result = game_result(board, finished_by)
            why = f"the game ends in {result} ({allowed[0]})"
        else:
            why = "a resignation gives up " + (" or ".join(str(points) for points in allowed))
        raise _GameError(action, "wrong_points", f"{who} is written to win {action.points}, but {why}.")
    if rest:
        raise _GameError(rest[0], "play_after_game_end", f"{names[rest[0].player]} wrote '{rest[0].text}' after "
                         "the game was over.")
    kind = NardyResult.MARS if action.points == 2 else NardyResult.OIN
    return _Outcome(action.player, action.points, kind)


def check_nardy_record(data: bytes | str, *, expect_finished: bool = True) -> tuple[str, Verdict]:
    """Read and verify a record's text: (status, verdict), status valid | invalid | unreadable."""
    try:
        record = parse_nardy(data)
    except NardyRecordError as error:
        return "unreadable", unreadable(error)
    verdict = verify_nardy(record, expect_finished=expect_finished)
    return ("valid" if verdict.valid else "invalid"), verdict
