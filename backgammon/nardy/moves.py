"""Legal play in long nardy: single-die steps, the head rule, the six-block rule, forced play, bear-off.

Everything is worked out on the mover's view (board.NardyBoard.view): 24 signed counts on the mover's own
numbering, the mover's checkers positive. A step is (from, to) with to = 0 for a checker borne off.

The rules, as docs/variants.md reads the texts:
- a checker never lands on a point holding any opposing checker (nothing is hit, there is no bar);
- one checker leaves the head (the 24-point) per turn; two on a side's own first turn with a double the
  settings name (66, 44, 33 by default);
- a block of six consecutive points, counted along the opponent's route, needs an opposing checker ahead of
  it (settings.BlockRule); only the position at the end of the play is checked, and a play ending in a
  forbidden block is no play, before forced play is applied;
- forced play: as many dice as possible; when only one die of two can be played, the larger;
- bear-off once all fifteen are home (points 1–6): a die bears off from its own point, or from the highest
  occupied point when no checker stands higher.

Public interface:
    legal_plays(board, side, dice, *, first_turn=False, settings=DEFAULT_SETTINGS) -> list[NardyPlay]
    forbidden_block(board, side, settings) -> tuple[int, ...]     the mover's points of a block not allowed
"""

from __future__ import annotations

from dataclasses import dataclass

from backgammon.nardy.board import CHECKERS, HEAD, POINTS, NardyBoard, rotate
from backgammon.nardy.errors import NardyError
from backgammon.nardy.settings import DEFAULT_SETTINGS, BlockRule, NardySettings

Step = tuple[int, int]  # (from, to) on the mover's numbering, to = 0: borne off
View = tuple[int, ...]
OFF = 0
BLOCK = 6
# The opponent's route in the mover's numbering: index k is the opponent's point 24 − k, i.e. the mover's point
# rotate(24 − k); ROUTE holds the mover's 0-based index of each. The opponent's 24|1 seam is the mover's 12|13.
ROUTE = tuple(rotate(point) - 1 for point in range(POINTS, 0, -1))
OPPONENT_HOME_START = POINTS - 6  # route positions 18..23: the opponent's points 6..1


@dataclass(frozen=True)
class NardyPlay:
    """A legal play: its single-die steps in the order played, and the board after it."""

    steps: tuple[Step, ...]
    result: NardyBoard


def check_dice(dice: tuple[int, int]) -> tuple[int, int]:
    if len(dice) != 2 or any(not isinstance(die, int) or not 1 <= die <= 6 for die in dice):
        raise NardyError("invalid_dice", f"a roll is two dice of 1–6, got {dice!r}")
    return dice[0], dice[1]


def view_block(view: View, opponent_off: int, settings: NardySettings = DEFAULT_SETTINGS) -> tuple[int, ...]:
    """The mover's points (in the opponent's route order) of a six-block the settings forbid, or () when the
    position is allowed.

    Bit k of `held` / `theirs` is route position k (the opponent's point 24 − k) held by the mover / the
    opponent; bit k of `runs` says positions k..k+5 are all the mover's. AHEAD: an opposing checker is ahead of
    a run when it stands further along the route than the run's last point; it cannot stand inside the run, so
    a run is forbidden exactly when it starts beyond the opponent's furthest checker. Borne-off checkers are not
    on the route and do not count.
    """
    held = theirs = 0
    for position, index in enumerate(ROUTE):
        value = view[index]
        if value > 0:
            held |= 1 << position
        elif value < 0:
            theirs |= 1 << position
    runs = held & (held >> 1) & (held >> 2) & (held >> 3) & (held >> 4) & (held >> 5)
    if not runs:
        return ()
    if settings.block_rule == BlockRule.OPPONENT_HOME:
        if opponent_off or theirs >> OPPONENT_HOME_START:
            return ()
    else:
        beyond = theirs.bit_length()  # the first route position past the opponent's furthest checker
        runs = runs >> beyond << beyond
        if not runs:
            return ()
    start = (runs & -runs).bit_length() - 1
    return tuple(ROUTE[position] + 1 for position in range(start, start + BLOCK))


def forbidden_block(board: NardyBoard, side: int, settings: NardySettings = DEFAULT_SETTINGS) -> tuple[int, ...]:
    """The points (on `side`'s numbering) of a six-block of `side` that the settings forbid, or ()."""
    return view_block(board.view(side), board.off[1 - side], settings)


def successors(view: View, die: int, budget: int) -> list[tuple[Step, View, int]]:
    """Every single step of `die` the mover can take: (step, view after it, head budget after it)."""
    found: list[tuple[Step, View, int]] = []
    all_home = not any(value > 0 for value in view[6:])
    highest = True  # scanning from the 24-point down: the first checker met is the highest
    for index in range(POINTS - 1, -1, -1):
        if view[index] <= 0:
            continue
        point = index + 1
        is_highest, highest = highest, False
        left = budget
        if point == HEAD:
            if not budget:
                continue
            left = budget - 1
        target = point - die
        moved = list(view)
        moved[index] -= 1
        if target >= 1:
            if view[target - 1] < 0:
                continue
            moved[target - 1] += 1
            found.append(((point, target), tuple(moved), left))
        elif all_home and (target == 0 or is_highest):
            found.append(((point, OFF), tuple(moved), left))
    return found


Level = dict[View, tuple[tuple[Step, ...], int]]  # view -> (steps that reached it first, head budget left)


def _extend(level: Level, die: int) -> Level:
    following: Level = {}
    for view, (steps, budget) in level.items():
        for step, after, left in successors(view, die, budget):
            if after not in following:
                following[after] = (steps + (step,), left)
    return following


def _allowed(level: Level, opponent_off: int, settings: NardySettings) -> Level:
    return {view: entry for view, entry in level.items() if not view_block(view, opponent_off, settings)}


def generate(
    view: View, dice: tuple[int, int], *, budget: int, opponent_off: int, settings: NardySettings = DEFAULT_SETTINGS
) -> tuple[int, dict[View, tuple[Step, ...]]]:
    """(dice used, {result view: steps}) of every legal play, dice tried in the order given first.

    The plays that end in a forbidden block are dropped before the number of dice is maximised, so a die
    whose only plays end in such a block counts as unplayable.
    """
    first, second = dice
    start: Level = {view: ((), budget)}
    if first == second:
        levels = [start]
        for _ in range(4):
            levels.append(_extend(levels[-1], first))
        for used in range(4, 0, -1):
            allowed = _allowed(levels[used], opponent_off, settings)
            if allowed:
                return used, {after: steps for after, (steps, _) in allowed.items()}
        return 0, {view: ()}
    singles: dict[int, Level] = {}
    both: Level = {}
    for die, other in ((first, second), (second, first)):
        singles[die] = _extend(start, die)
        for after, entry in _extend(singles[die], other).items():
            both.setdefault(after, entry)
    allowed = _allowed(both, opponent_off, settings)
    if allowed:
        return 2, {after: steps for after, (steps, _) in allowed.items()}
    for die in sorted(dice, reverse=True):  # one die only: the larger when it can be played
        allowed = _allowed(singles[die], opponent_off, settings)
        if allowed:
            return 1, {after: steps for after, (steps, _) in allowed.items()}
    return 0, {view: ()}


def _generate(
    board: NardyBoard, side: int, dice: tuple[int, int], first_turn: bool, settings: NardySettings
) -> tuple[int, dict[View, tuple[Step, ...]]]:
    dice = check_dice(dice)
    return generate(
        board.view(side),
        dice,
        budget=settings.head_budget(dice, first_turn=first_turn),
        opponent_off=board.off[1 - side],
        settings=settings,
    )


def result_board(board: NardyBoard, side: int, view: View) -> NardyBoard:
    """The board after the mover (`side`) reached `view` (made by the generator: not validated again)."""
    mover_off = CHECKERS - sum(value for value in view if value > 0)
    return NardyBoard.from_view(side, view, (mover_off, board.off[1 - side]), trusted=True)


def legal_plays(
    board: NardyBoard,
    side: int,
    dice: tuple[int, int],
    *,
    first_turn: bool = False,
    settings: NardySettings = DEFAULT_SETTINGS,
) -> list[NardyPlay]:
    """One play per distinct result (a roll with no legal step gives the one empty play). Every play uses the
    same number of dice, the most the position allows: len(plays[0].steps)."""
    _, plays = _generate(board, side, dice, first_turn, settings)
    return [NardyPlay(steps, result_board(board, side, view)) for view, steps in plays.items()]
