"""Strict verification of a match record: replay every game and give a verdict a director can act on.

Pure: no Django import. The rules engine (backgammon) judges each play; this module follows the turn order,
the cube and the score, and turns every problem into an error with the game, the move number as written, the
file line, the player, the offending text, a stable code and a message. After an error in a game the replay
goes on with the next game from the score written in its header.

Real archives also hold records that are legal but untidy: a player's name written differently in a later
game, or a record that starts in the middle of a match. Those become warnings (same fields as errors, their own
codes): the verdict stays valid, and the director still sees what departs from a clean record.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from functools import partial

from backgammon.board import Board
from backgammon.cube import Cube, CubeRules
from backgammon.matchfiles.mat import RESIGN_MARKS, Action, ActionKind, MatchRecord, RecordedGame, parse_mat
from backgammon.matchfiles.notation import RecordFormatError, decode_move
from backgammon.matchfiles.sgf import parse_sgf
from backgammon.matchfiles.written import play_written
from backgammon.outcome import game_kind
from backgammon.scoring import GameKind, MatchState, ScoringError, game_points
from backgammon.variants import Variant, starting_board

CODES = (
    "format",
    "illegal_move",
    "incomplete_play",
    "larger_die_required",
    "backward_not_hit",
    "backward_smaller_die",
    "backward_on_bar",
    "opening_double",
    "double_in_crawford",
    "double_without_access",
    "double_after_roll",
    "beaver_not_allowed",
    "wrong_cube_value",
    "cube_limit",
    "out_of_turn",
    "no_answer_to_double",
    "play_after_game_end",
    "game_unfinished",
    "wrong_points",
    "score_mismatch",
    "play_after_match_end",
    "match_unfinished",
    "player_mismatch",
)
# Departures that leave the match legal: reported, never a reason to reject the record.
WARNING_CODES = ("player_renamed", "starts_mid_match")


@dataclass(frozen=True)
class RecordError:
    game: int | None
    move: int | None
    line: int
    player: str | None
    text: str
    code: str
    message: str


@dataclass(frozen=True)
class GameVerdict:
    number: int
    winner: str | None
    points: int | None
    kind: str | None
    cube: int
    crawford: bool


@dataclass
class Verdict:
    valid: bool
    match_length: int | None
    players: list[str]
    final_score: list[int]
    winner: str | None
    games: list[GameVerdict] = field(default_factory=list)
    errors: list[RecordError] = field(default_factory=list)
    warnings: list[RecordError] = field(default_factory=list)

    def as_dict(self, *, file: str = "") -> dict:
        """The shape of `verify_match --json` and of GameRecord.verdict."""
        return {
            "file": file,
            "valid": self.valid,
            "match_length": self.match_length,
            "players": list(self.players),
            "final_score": list(self.final_score),
            "winner": self.winner,
            "games": [asdict(game) for game in self.games],
            "errors": [asdict(error) for error in self.errors],
            "warnings": [asdict(warning) for warning in self.warnings],
        }


def unreadable(error: RecordFormatError) -> Verdict:
    """The verdict for a file that is not a record: one `format` error at its line."""
    return Verdict(
        valid=False,
        match_length=None,
        players=[],
        final_score=[],
        winner=None,
        errors=[RecordError(None, None, error.line, None, "", "format", error.message)],
    )


# Enum members looked up once: ActionKind.X costs an enum lookup on every action otherwise.
_WIN, _CONCEDE, _DOUBLE = ActionKind.WIN, ActionKind.CONCEDE, ActionKind.DOUBLE
_TAKE, _DROP, _BEAVER, _RACCOON = ActionKind.TAKE, ActionKind.DROP, ActionKind.BEAVER, ActionKind.RACCOON
_ANSWERS = (_TAKE, _DROP, _BEAVER)


class _GameError(Exception):
    def __init__(self, action: Action | None, code: str, message: str):
        super().__init__(message)
        self.action = action
        self.code = code
        self.message = message


@dataclass
class _GameOutcome:
    winner: int | None
    points: int | None
    kind: GameKind | None
    cube: int
    written_win: Action | None


def verify(record: MatchRecord, *, expect_finished: bool = True) -> Verdict:
    """Replay `record`. `expect_finished`: a match (not a money session) must end with a winner."""
    names = record.players
    match_play = record.length > 0
    crawford_rule = record.flag("Crawford", True)
    errors: list[RecordError] = []
    warnings: list[RecordError] = []
    games: list[GameVerdict] = []
    expected: tuple[int, int] | None = (0, 0)
    tracked: MatchState | None = None
    scores = (0, 0)
    crawford_done = False
    written_names = names
    for game in record.games:
        if game.names is not None or written_names != names:
            written_names = _check_names(game, game.names or names, written_names, errors, warnings)
        if game is record.games[0] and game.scores != (0, 0):
            _mid_match_start(record, game, warnings)
            expected = game.scores
            # Whether the Crawford game was played before the transcript starts cannot be read from the score;
            # a double in this game shows it was (the Crawford game has no cube).
            crawford_done = any(action.kind == _DOUBLE for action in game.actions)
        if expected is not None and tuple(game.scores) != expected:
            errors.append(
                RecordError(
                    game.number,
                    None,
                    game.score_line or game.line,
                    None,
                    f"{names[0]} : {game.scores[0]}   {names[1]} : {game.scores[1]}",
                    "score_mismatch",
                    f"Game {game.number} starts at {game.scores[0]}–{game.scores[1]}, but the games before it end at "
                    f"{expected[0]}–{expected[1]}.",
                )
            )
        scores = (game.scores[0], game.scores[1])
        state: MatchState | None = None
        if match_play:
            if tracked is not None and tracked.is_over:
                errors.append(
                    _game_error(
                        game,
                        "play_after_match_end",
                        f"Game {game.number} is played after the match was decided at "
                        f"{tracked.scores[0]}–{tracked.scores[1]} in a {record.length}-point match.",
                    )
                )
                expected = None
                tracked = None
                continue
            try:
                state = MatchState.at_score(
                    length=record.length,
                    scores=scores,
                    crawford_rule=crawford_rule,
                    crawford_played=crawford_done,
                )
            except ScoringError as error:
                errors.append(RecordError(game.number, None, game.line, None, "", "score_mismatch", error.message))
                expected = None
                continue
            if state.is_over:
                text = decided_match_text(game.number, scores, record.length)
                errors.append(_game_error(game, "play_after_match_end", text))
                expected = None
                continue
        crawford_game = bool(state and state.crawford_game)
        try:
            outcome = _replay(record, game, crawford_game=crawford_game, match_play=match_play)
        except _GameError as error:
            errors.append(_error(record, game, error))
            games.append(GameVerdict(game.number, None, None, None, 1, crawford_game))
            expected = None
            tracked = None
            crawford_done = crawford_done or crawford_game
            continue
        crawford_done = crawford_done or crawford_game
        if outcome.winner is None:
            is_last = game is record.games[-1]
            games.append(GameVerdict(game.number, None, None, None, outcome.cube, crawford_game))
            if not is_last:
                errors.append(
                    _game_error(
                        game,
                        "game_unfinished",
                        f"Game {game.number} ends without a winner, yet another game follows.",
                    )
                )
            expected = None
            continue
        games.append(
            GameVerdict(
                game.number, names[outcome.winner], outcome.points, str(outcome.kind), outcome.cube, crawford_game
            )
        )
        new_scores = list(scores)
        new_scores[outcome.winner] += outcome.points or 0
        scores = (new_scores[0], new_scores[1])
        expected = scores
        if state is not None:
            tracked = state.after_game(winner=outcome.winner, points=outcome.points or 0)
    winner = None
    if match_play and max(scores) >= record.length:
        winner = names[0] if scores[0] >= record.length else names[1]
    elif match_play and expect_finished and not any(e.game == record.games[-1].number for e in errors):
        # When the last game itself is wrong its result is unknown, so "unfinished" would be a guess.
        last = record.games[-1]
        errors.append(
            RecordError(
                last.number,
                last.actions[-1].move_number if last.actions else None,
                last.actions[-1].line if last.actions else last.line,
                None,
                "",
                "match_unfinished",
                f"The record ends at {scores[0]}–{scores[1]}: nobody has reached {record.length} points, so the "
                "match is not finished.",
            )
        )
    return Verdict(
        valid=not errors,
        match_length=record.length,
        players=list(names),
        final_score=list(scores),
        winner=winner,
        games=games,
        errors=errors,
        warnings=warnings,
    )


def _check_names(
    game: RecordedGame,
    written: tuple[str, str],
    before: tuple[str, str],
    errors: list[RecordError],
    warnings: list[RecordError],
) -> tuple[str, str]:
    """Compare a game's names with the previous game's: one column written differently is the same player
    renamed (a warning, once per change); a name from the other column, or two new names, is another match's
    header (an error). Returns the names the next game is compared with."""
    if written == before:
        return before
    changed = [column for column in (0, 1) if written[column] != before[column]]
    line = game.score_line or game.line
    text = f"{written[0]} : {game.scores[0]}   {written[1]} : {game.scores[1]}"
    swapped = any(written[column] == before[1 - column] for column in changed)
    if len(changed) == 2 or swapped:
        errors.append(
            RecordError(
                game.number,
                None,
                line,
                None,
                text,
                "player_mismatch",
                f"Game {game.number} names {written[0]} and {written[1]}, but the games before it are between "
                f"{before[0]} and {before[1]}: a name may change in one column only, never move to the other.",
            )
        )
        return before
    column = changed[0]
    warnings.append(
        RecordError(
            game.number,
            None,
            line,
            before[column],
            written[column],
            "player_renamed",
            f"Game {game.number} writes {written[column]} where the games before it have {before[column]}; "
            "the same column, so the same player.",
        )
    )
    return written


def _mid_match_start(record: MatchRecord, game: RecordedGame, warnings: list[RecordError]) -> None:
    """A first game that starts at a score below the match length: the earlier games were not transcribed.
    A score at or past the length is left to the `play_after_match_end` check."""
    if record.length and max(game.scores) >= record.length:
        return
    warnings.append(
        RecordError(
            game.number,
            None,
            game.score_line or game.line,
            None,
            f"{record.players[0]} : {game.scores[0]}   {record.players[1]} : {game.scores[1]}",
            "starts_mid_match",
            f"The record starts at {game.scores[0]}–{game.scores[1]}: the earlier games of the match are not in it, "
            "so only the games written are checked.",
        )
    )


def decided_match_text(number: int, scores: tuple[int, int], length: int) -> str:
    """Why a game written after the match was decided does not count (every variant's verifier says it alike)."""
    return f"Game {number} starts at {scores[0]}–{scores[1]}: the {length}-point match was already decided."


def _game_error(game: RecordedGame, code: str, message: str) -> RecordError:
    """An error about a whole game rather than one of its moves, reported at its `Game N` line."""
    return RecordError(game.number, None, game.line, None, f"Game {game.number}", code, message)


def _error(record: MatchRecord, game: RecordedGame, error: _GameError) -> RecordError:
    action = error.action
    player = record.players[action.player] if action else None
    prefix = f"Game {game.number}"
    if action and action.move_number is not None:
        prefix += f", move {action.move_number}"
    return RecordError(
        game=game.number,
        move=action.move_number if action else None,
        line=action.line if action else game.line,
        player=player,
        text=(action.written or action.text) if action else "",
        code=error.code,
        message=f"{prefix}, {error.message}",
    )


def _cube_rules(record: MatchRecord, *, match_play: bool) -> CubeRules:
    """The cube options the record's headers set: Jacoby and beavers (raccoons with them) in money play only,
    and its CubeLimit. Cubes are powers of two, so a limit such as 100 allows up to 64."""
    money = not match_play
    beaver = money and record.flag("Beaver", False)
    limit = record.cube_limit
    return CubeRules(
        match_play=match_play,
        jacoby=money and record.flag("Jacoby", False),
        beaver=beaver,
        raccoon=beaver,
        limit=None if limit is None else 1 << (limit.bit_length() - 1),
    )


def _replay(record: MatchRecord, game: RecordedGame, *, crawford_game: bool, match_play: bool) -> _GameOutcome:
    names = record.players
    board: Board = starting_board(Variant(record.variant))
    backward = record.backward  # read from the headers once, not per roll
    rules = _cube_rules(record, match_play=match_play)
    cube = Cube()
    turned = False  # a double was offered and taken: what the Jacoby rule asks (not the cube's value)
    to_move: int | None = None  # None before the opening roll
    pending_double: Action | None = None
    beaver: Action | None = None
    ended: tuple[int, GameKind, int] | None = None  # winner, kind, points (None points = resignation)
    resigned_by: int | None = None
    actions = game.actions
    for index, action in enumerate(actions):
        who = names[action.player]
        if action.kind == _WIN:
            winner = action.player
            if ended is None and resigned_by is None:
                resigned_by = 1 - winner  # FIBS-era logs and gnubg: a resignation is written as the other's win
            if ended is None:
                if resigned_by != 1 - winner:
                    raise _GameError(action, "wrong_points", f"{who} cannot win: {names[winner]} resigned.")
                allowed = _resignation_values(cube.value, jacoby=rules.jacoby, turned=turned)
                if action.value not in allowed:
                    raise _GameError(
                        action,
                        "wrong_points",
                        f"{who} is written to win {action.value} points, but a resignation with the cube at "
                        f"{cube.value} wins {_either(allowed)}.",
                    )
                ended = (winner, GameKind.RESIGN, action.value or 0)
            else:
                real_winner, kind, points = ended
                if winner != real_winner:
                    raise _GameError(
                        action, "wrong_points", f"{who} is written as the winner, but {names[real_winner]} won."
                    )
                if action.value != points:
                    raise _GameError(
                        action,
                        "wrong_points",
                        f"{who} is written to win {action.value} points, but a {kind} with the cube at {cube.value} "
                        f"wins {points}.",
                    )
            _nothing_after(actions[index + 1 :], names)
            return _GameOutcome(ended[0], ended[2], ended[1], cube.value, action)
        if ended is not None:
            raise _GameError(action, "play_after_game_end", f"{who} wrote '{action.text}' after the game was over.")
        if resigned_by is not None:
            raise _GameError(
                action, "play_after_game_end", f"{who} wrote '{action.text}' after {names[resigned_by]} resigned."
            )
        if pending_double is not None and action.kind not in _ANSWERS:
            raise _GameError(
                action,
                "no_answer_to_double",
                f"{names[pending_double.player]} doubled to {pending_double.value}, but the double is neither taken "
                "nor dropped.",
            )
        if action.kind == _CONCEDE:
            resigned_by = action.player
            continue
        if action.kind == _DOUBLE:
            _check_double(action, cube, rules, crawford_game=crawford_game, to_move=to_move, record=record)
            pending_double = action
            beaver = None
            continue
        if action.kind in _ANSWERS:
            if pending_double is None:
                raise _GameError(action, "no_answer_to_double", f"{who} answered a double that was never offered.")
            if action.player == pending_double.player:
                raise _GameError(action, "out_of_turn", f"{who} answered their own double.")
            if action.kind == _DROP:
                ended = (pending_double.player, GameKind.DROP, game_points(kind=GameKind.DROP, cube=cube.value))
                pending_double = None
                continue
            if action.kind == _BEAVER:
                cube = _cube_action(action, who, record.cube_limit, partial(cube.beaver, rules, taker=action.player))
                beaver = action
            else:
                cube = Cube(value=pending_double.value or 0, owner=action.player)
            turned = True
            pending_double = None
            continue
        if action.kind == _RACCOON:
            if beaver is None or action.player == beaver.player:
                raise _GameError(
                    action, "beaver_not_allowed", f"{who} raccooned, which follows only an allowed beaver."
                )
            doubled = Cube(value=cube.value // 4)  # the cube before the double that was beavered
            cube = _cube_action(action, who, record.cube_limit, partial(doubled.raccoon, rules, taker=beaver.player))
            beaver = None
            continue
        # a roll
        if to_move is not None and action.player != to_move:
            raise _GameError(action, "out_of_turn", f"{who} rolled, but it was {names[to_move]}'s turn.")
        beaver = None
        dice = action.dice or (0, 0)
        if action.move in RESIGN_MARKS:
            resigned_by = action.player
            continue
        if to_move is None and dice[0] == dice[1]:
            raise _GameError(
                action,
                "opening_double",
                f"{who} opened with {dice[0]}{dice[1]}: the opening roll is one die each, so it is never a double.",
            )
        decoded = decode_move("" if action.move == "Cannot Move" else action.move, line=action.line)
        steps = decoded.steps
        check = play_written(board, action.player, dice, decoded, backward=backward)
        if not check.ok:
            if not steps and _next_is_opponent_win(actions, index):
                resigned_by = action.player  # rolled, wrote nothing, and the opponent wins: a resignation
                continue
            written = action.move or "nothing"
            raise _GameError(
                action,
                check.code or "illegal_move",
                f"{who} rolled {dice[0]}{dice[1]} and wrote {written}: {check.message}",
            )
        assert check.result is not None
        board = check.result
        to_move = 1 - action.player
        if board.off(action.player) >= board.total:
            kind = game_kind(board, action.player)
            points = game_points(kind=kind, cube=cube.value, jacoby=rules.jacoby, turned=turned)
            ended = (action.player, kind, points)
    if pending_double is not None:
        raise _GameError(
            pending_double, "no_answer_to_double", f"{names[pending_double.player]}'s double is never answered."
        )
    if ended is not None:
        return _GameOutcome(ended[0], ended[2], ended[1], cube.value, None)
    return _GameOutcome(None, None, None, cube.value, None)


def _resignation_values(cube: int, *, jacoby: bool, turned: bool) -> tuple[int, ...]:
    """What a resignation can win: a single, gammon or backgammon at this cube, as game_points values them."""
    values = {
        game_points(kind=GameKind.RESIGN, cube=cube, resign_level=level, jacoby=jacoby, turned=turned)
        for level in (1, 2, 3)
    }
    return tuple(sorted(values))


# The verifier's words for the cube core's refusals of a double (the codes are the core's).
_DOUBLE_REFUSALS = {
    "double_in_crawford": "{who} doubled in the Crawford game, where the cube is out of play.",
    "double_after_roll": "{who} doubled after rolling: a double is offered before the roll.",
    "double_without_access": "{who} redoubled, but {owner} owns the cube at {cube}: only the owner may redouble.",
    "cube_limit": "{who} turned the cube to {value}, above the limit of {limit}.",
}


def _check_double(
    action: Action, cube: Cube, rules: CubeRules, *, crawford_game: bool, to_move: int | None, record: MatchRecord
) -> None:
    """Ask the cube core whether this double is legal (Crawford, timing, access, limit), then check the value
    written. Before the opening roll it is nobody's turn: the first move of a game is never a double."""
    names = record.players
    who = names[action.player]
    try:
        cube.check_double(rules, side=action.player, has_rolled=to_move != action.player, crawford_game=crawford_game)
    except ScoringError as error:
        if error.code == "double_after_roll" and to_move is None:
            raise _GameError(action, error.code, f"{who} doubled before the opening roll.") from None
        owner = "" if cube.owner is None else names[cube.owner]
        message = _DOUBLE_REFUSALS[error.code].format(
            who=who, owner=owner, cube=cube.value, value=cube.value * 2, limit=record.cube_limit
        )
        raise _GameError(action, error.code, message) from None
    _check_written_value(action, cube.value * 2, who)


def _cube_action(action: Action, who: str, limit: int | None, turn: Callable[[], Cube]) -> Cube:
    """A beaver or raccoon as the cube core allows it (its refusal codes kept), then the value written."""
    try:
        result = turn()
    except ScoringError as error:
        if error.code == "cube_limit":
            message = f"{who} turned the cube to {action.value}, above the limit of {limit}."
        elif action.kind == _RACCOON:
            message = f"{who} raccooned, which follows only an allowed beaver."
        else:
            message = f"{who} beavered; beavers are allowed only in money play when the session enables them."
        raise _GameError(action, error.code, message) from None
    _check_written_value(action, result.value, who)
    return result


def _either(amounts: tuple[int, ...]) -> str:
    words = [str(amount) for amount in amounts]
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"


def _next_is_opponent_win(actions: tuple[Action, ...], index: int) -> bool:
    following = actions[index + 1 : index + 2]
    return bool(following) and following[0].kind == _WIN and following[0].player != actions[index].player


def _nothing_after(rest: tuple[Action, ...], names: tuple[str, str]) -> None:
    if rest:
        action = rest[0]
        raise _GameError(
            action,
            "play_after_game_end",
            f"{names[action.player]} wrote '{action.text}' after the game was over.",
        )


def _check_written_value(action: Action, expected: int, who: str) -> None:
    if action.value != expected:
        raise _GameError(
            action, "wrong_cube_value", f"{who} turned the cube to {action.value}; it can only go to {expected}."
        )


def record_format(data: bytes, *, name: str = "") -> str:
    """`sgf` for a gnubg SGF file (by name or by its `(;` start), else `mat`."""
    if name.lower().endswith(".sgf") or data.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"(;"):
        return "sgf"
    return "mat"


def check_record(data: bytes, *, name: str = "", expect_finished: bool = True) -> tuple[str, Verdict]:
    """Read and verify a record's bytes: (status, verdict), status valid | invalid | unreadable."""
    try:
        record = parse_sgf(data) if record_format(data, name=name) == "sgf" else parse_mat(data)
    except RecordFormatError as error:
        return "unreadable", unreadable(error)
    verdict = verify(record, expect_finished=expect_finished)
    return ("valid" if verdict.valid else "invalid"), verdict
