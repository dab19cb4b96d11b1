"""Judging a written long nardy move: legal, or which rule it breaks.

Why a search and not one lookup: a written segment such as `24/14` may stand for several dice in either order,
and only the realisation the player could have meant tells which rule was broken (a checker passing over an
opposing point, a second checker off the head, a bear-off with a checker outside the home). Every way of giving
the dice to the written segments is played step by step; the first realisation whose result is a legal play
makes the move legal, otherwise the rule broken furthest into the move, played in the order written, is
reported (a legal play written in another order than it was played is still accepted).

Codes: illegal_move (no checker there, dice that do not fit, the higher-die rule), lands_on_opponent, head_rule,
bear_off_not_home, six_block (the end position holds a forbidden block), incomplete_play (fewer dice than the
position allows), larger_die_required (one die playable, and the smaller was played).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import permutations, product

from backgammon.nardy.board import HEAD, NardyBoard
from backgammon.nardy.moves import OFF, Step, View, check_dice, generate, result_board, view_block
from backgammon.nardy.notation import Segment, format_steps
from backgammon.nardy.settings import DEFAULT_SETTINGS, NardySettings

ILLEGAL_MOVE = "illegal_move"
LANDS_ON_OPPONENT = "lands_on_opponent"
HEAD_RULE = "head_rule"
BEAR_OFF_NOT_HOME = "bear_off_not_home"
SIX_BLOCK = "six_block"
INCOMPLETE_PLAY = "incomplete_play"
LARGER_DIE_REQUIRED = "larger_die_required"


@dataclass(frozen=True)
class NardyCheck:
    """ok, or the `code` and a `message` for a director; `result` and the single-die `steps` when ok."""

    ok: bool
    code: str | None
    message: str
    result: NardyBoard | None = None
    steps: tuple[Step, ...] = ()


@dataclass(frozen=True)
class _Failure:
    depth: int
    code: str
    message: str


def _realise(segments: list[Segment], dice: tuple[int, ...]) -> list[tuple[Step, int]] | None:
    """The single-die steps (with their dice) that play `segments` with the dice in this order, or None when
    the segments do not fit. A segment to off ends with the first die that reaches or passes off."""
    steps: list[tuple[Step, int]] = []
    index = 0
    for start, end in segments:
        point = start
        while point > end:
            if index == len(dice):
                return None
            die = dice[index]
            index += 1
            target = point - die
            if end != OFF and target < end:
                return None
            target = max(target, OFF)
            steps.append(((point, target), die))
            point = target
    return steps


def _play(view: View, budget: int, steps: list[tuple[Step, int]]) -> tuple[View, _Failure | None]:
    """Play the steps one by one, stopping at the first that breaks a rule."""
    cells = list(view)
    for depth, ((start, target), die) in enumerate(steps):
        where = f"{start}/{'off' if target == OFF else target}"
        if cells[start - 1] <= 0:
            return tuple(cells), _Failure(depth, ILLEGAL_MOVE, f"{where}: there is no checker of the mover on {start}")
        if start == HEAD:
            if not budget:
                return tuple(cells), _Failure(
                    depth, HEAD_RULE, f"{where}: only one checker may leave the head per turn (two only on a "
                    "first turn with the doubles the rules name)"
                )
            budget -= 1
        if target != OFF:
            if cells[target - 1] < 0:
                return tuple(cells), _Failure(
                    depth, LANDS_ON_OPPONENT, f"{where}: point {target} holds an opposing checker"
                )
        else:
            if any(value > 0 for value in cells[6:]):
                return tuple(cells), _Failure(
                    depth, BEAR_OFF_NOT_HOME, f"{where}: a checker bears off only once all fifteen are home (1–6)"
                )
            if start < die and any(value > 0 for value in cells[start:6]):
                return tuple(cells), _Failure(
                    depth, ILLEGAL_MOVE, f"{where}: a {die} bears off from {start} only when no checker stands higher"
                )
        cells[start - 1] -= 1
        if target != OFF:
            cells[target - 1] += 1
    return tuple(cells), None


def check_play(
    board: NardyBoard,
    side: int,
    dice: tuple[int, int],
    segments: list[Segment],
    *,
    first_turn: bool = False,
    settings: NardySettings = DEFAULT_SETTINGS,
) -> NardyCheck:
    """The verdict on `segments` (notation.parse_move) played by `side` with `dice`."""
    dice = check_dice(dice)
    view = board.view(side)
    budget = settings.head_budget(dice, first_turn=first_turn)
    opponent_off = board.off[1 - side]
    most, plays = generate(view, dice, budget=budget, opponent_off=opponent_off, settings=settings)
    pool = (dice[0],) * 4 if dice[0] == dice[1] else dice
    worst: _Failure | None = None
    played: list[tuple[View, list[tuple[Step, int]]]] = []
    # The written order first; a record may also list the segments in another order than they were played.
    for written, order in product(dict.fromkeys(permutations(segments)), dict.fromkeys(permutations(pool))):
        steps = _realise(list(written), order)
        if steps is None:
            continue
        after, failure = _play(view, budget, steps)
        if failure is None:
            if after in plays:
                return NardyCheck(True, None, "", result_board(board, side, after), tuple(s for s, _ in steps))
            played.append((after, steps))
        elif worst is None or (failure.depth > worst.depth and list(written) == segments):
            worst = failure  # the order written is what the player meant: its furthest failure is reported
    if played:
        return _judge_complete(played[0], most, plays, dice, opponent_off, settings)
    if worst is not None:
        return NardyCheck(False, worst.code, worst.message)
    return NardyCheck(False, ILLEGAL_MOVE, f"the steps written do not fit the dice {dice[0]}{dice[1]}")


def _judge_complete(
    played: tuple[View, list[tuple[Step, int]]],
    most: int,
    plays: dict[View, tuple[Step, ...]],
    dice: tuple[int, int],
    opponent_off: int,
    settings: NardySettings,
) -> NardyCheck:
    """A move whose every step is legal but whose result is no legal play: say which rule the whole breaks."""
    after, steps = played
    example = format_steps(next(iter(plays.values()))) if plays else ""
    block = view_block(after, opponent_off, settings)
    if block:
        points = ", ".join(str(point) for point in block)
        return NardyCheck(
            False,
            SIX_BLOCK,
            f"the play ends with a block of six on {points} and no opposing checker ahead of it",
        )
    if len(steps) < most:
        return NardyCheck(
            False,
            INCOMPLETE_PLAY,
            f"{len(steps)} of the dice played, but {most} can be (for example {example})",
        )
    if most == 1 and dice[0] != dice[1] and steps[0][1] < max(dice):
        return NardyCheck(
            False,
            LARGER_DIE_REQUIRED,
            f"only one die can be played, so the larger ({max(dice)}) must be (for example {example})",
        )
    return NardyCheck(False, ILLEGAL_MOVE, f"not a legal play of {dice[0]}{dice[1]} (for example {example})")
