"""Legal checker play (docs/games.md, Moves): single-die steps, forced play, and checking a written move.

Numbering is always the mover's own (see board.py): 25 is the bar, 0 is off, 1..24 are points; the mover goes
from high to low. The rules implemented: bar entry first (entry point 25 − die), hits send a blot to the bar,
2+ opposing checkers block a point, bear-off only with every checker home and none on the bar, the higher-die
rule (overshoot only from the highest occupied point), a hit checker must come home before bear-off resumes;
forced play — as many dice as possible, the larger die when only one can be played, the compulsory order,
doubles play up to four times.

Public interface (other apps code against it); `backward` (a BackwardHitting, or None for the standard rules)
switches on backward hitting:
    legal_plays(board, side, dice, *, backward=None) -> list[Play]        one Play per distinct result
    legal_results(board, side, dice, *, backward=None) -> set[Board]
    max_dice_playable(board, side, dice, *, backward=None) -> int
    check_play(board, side, dice, written, *, hits=None, backward=None) -> PlayCheck

Backward hitting: a checker may also move backwards (from a lower point to a higher one) by a die's number
when it lands on a lone opposing checker and hits it; never from the bar or while the mover has a checker on
the bar. Such a step counts as a play for the forced-play rules. With BackwardHitting.SMALLER_DIE only the
smaller die of a non-double may hit backwards. The variant always takes the general search (_extend with its
backward flag, and _generate_backward_doubles), never generator.py's fast road.

Where `make install` could compile it, compiled_moves.c (the same search in C, standard rules with any checker
count) answers legal_results and max_dice_playable without backward hitting. The pure Python generator stays
the reference it is tested against (python_results, python_max_dice), and answers wherever it is not built.
In Python, two roads to the legal results: generator.py's integer arithmetic wherever no checker can bear off
during the play; the general search below (byte positions, one step at a time) everywhere else and always for
legal_plays, whose order random_play depends on. check_play replays a written move that plays one die per step
and every die directly (such a play is legal as it stands); otherwise it realises the written move step by
step, and enumerates the legal plays only when the move leaves a die unused.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from functools import lru_cache

from backgammon.board import Board, swap_key
from backgammon.generator import doubles, to_boards, two_dice
from backgammon.variants import BackwardHitting

try:  # the compiled twin of the generator below (compiled_moves.c), built by `make install` where a C compiler is
    from backgammon import compiled_moves as compiled
except ImportError:  # not built: the pure Python generator answers alone, with the same results
    compiled = None  # type: ignore[assignment]

_new_board = tuple.__new__  # Board(key, total) without validation, for positions the engine made itself
Step = tuple[int, int]  # (from, to) in the mover's numbering: 25 = bar, 0 = off, 1..24 points
# Inside the generator a position is one 50-byte string: the mover's 25 counts, then the opponent's 25, each in
# its own numbering. bytes hash once and cache it, which makes deduplicating positions cheap.
State = bytes
MOVER_BAR = 24
OPPONENT_BAR = 49

BAR = 25
OFF = 0

ILLEGAL_MOVE = "illegal_move"
INCOMPLETE_PLAY = "incomplete_play"
LARGER_DIE_REQUIRED = "larger_die_required"
BACKWARD_NOT_HIT = "backward_not_hit"
BACKWARD_SMALLER_DIE = "backward_smaller_die"
BACKWARD_ON_BAR = "backward_on_bar"
_LOST = "no legal move: the roll is lost"


@dataclass(frozen=True)
class Play:
    """A legal play: one single-die step each, in the order played, and the board after it."""

    steps: tuple[Step, ...]
    result: Board


@dataclass(frozen=True)
class PlayCheck:
    """The verdict on a written move. `code` is None when ok, else illegal_move / incomplete_play /
    larger_die_required; `message` explains it to a tournament director; `result` is the board after an ok play."""

    ok: bool
    code: str | None
    message: str
    result: Board | None
    steps: tuple[Step, ...] = ()  # the single-die steps the written move was realised as (when ok)


def _moved(state: State, index: int, target: int, blockers: int) -> State:
    """`state` after a checker leaves `index` (24 = the bar) for the point `target` (0 = off), hitting the blot
    there when `blockers` is 1."""
    moved = bytearray(state)
    moved[index] -= 1
    if target:
        moved[target - 1] += 1
        if blockers:
            moved[49 - target] = 0  # the opponent's index 24 - target, offset by 25
            moved[OPPONENT_BAR] += 1
    return bytes(moved)


def _single_moves(state: State, die: int, highest_source: int = BAR) -> list:
    """Every single-die step the mover can make from a point up to `highest_source`, as a flat list
    [source, position after, source, position after, …] (the step's target is source − die, or off). Flat and
    made of ints and bytes, which the garbage collector does not track: the generator's hot path allocates
    little. Not memoised: positions are deduplicated before they are extended, so a memo only costs (measured:
    142 hits in 36,000 calls)."""
    if state[MOVER_BAR]:
        if highest_source < BAR:
            return []
        opponent_index = 24 + die  # the entry point 25 - die in the opponent's numbering, offset by 25
        blockers = state[opponent_index]
        if blockers >= 2:
            return []
        return [BAR, _moved(state, MOVER_BAR, 25 - die, blockers)]
    all_home = not any(state[6:24])
    found: list = []
    highest = not any(state[highest_source:24])  # the first occupied point scanned is the highest on the board
    for index in range(min(highest_source, 24) - 1, -1, -1):
        if not state[index]:
            continue
        target = index + 1 - die
        if target >= 1:
            opponent_index = 49 - target  # the opponent's index 24 - target, offset by 25
            blockers = state[opponent_index]
            if blockers < 2:
                found += (index + 1, _moved(state, index, target, blockers))
        elif all_home and (target == 0 or highest):
            found += (index + 1, _moved(state, index, OFF, 0))
        highest = False
    return found


def _step(source: int, die: int) -> Step:
    return (source, source - die if source > die else OFF)


Level = dict[State, tuple[Step, ...] | None]  # position -> the steps that reached it (None: not wanted)


def _extend(level: Level, die: int, backward: bool = False) -> Level:
    """All positions one step of `die` further, deduplicated (the first path to a position is kept); with
    `backward` (this die may hit backwards) the backward hits too."""
    following: Level = {}
    for state, steps in level.items():
        moves = _single_moves(state, die)
        for position in range(0, len(moves), 2):
            moved = moves[position + 1]
            if moved not in following:
                following[moved] = None if steps is None else (*steps, _step(moves[position], die))
        if backward:
            _extend_backward(following, state, steps, die)
    return following


def _start_state(board: Board, side: int) -> State:
    key = board.key
    return (key if side == 0 else swap_key(key)).to_bytes(50, "little")


def _check_dice(dice: Sequence[int]) -> tuple[int, int]:
    if len(dice) == 2:
        first, second = dice[0], dice[1]
        if isinstance(first, int) and isinstance(second, int) and 1 <= first <= 6 and 1 <= second <= 6:
            return first, second
    raise ValueError(f"dice are two numbers from 1 to 6, not {tuple(dice)}")


def _generate(
    board: Board, side: int, dice: Sequence[int], *, with_steps: bool = True, backward: BackwardHitting | None = None
) -> tuple[int, Level]:
    """(dice used, {final position: steps}) following the forced-play rules; without steps the values are None
    (legal_results does not need them, and not building them saves a third of the time)."""
    first, second = _check_dice(dice)
    allowed = _backward_dice(backward, (first, second)) if backward is not None else ()  # may hit backwards
    start: Level = {_start_state(board, side): () if with_steps else None}
    if first == second:
        if first in allowed:
            return _generate_backward_doubles(start, first)
        return _generate_doubles(next(iter(start)), first, with_steps=with_steps)
    high, low = max(first, second), min(first, second)
    after_high = _extend(start, high, high in allowed)
    after_low = _extend(start, low, low in allowed)
    both = _extend(after_high, low, low in allowed)
    for state, steps in _extend(after_low, high, high in allowed).items():
        both.setdefault(state, steps)
    if both:
        return 2, both
    if after_high:
        return 1, after_high
    if after_low:
        return 1, after_low
    return 0, start


def _generate_doubles(start: State, die: int, *, with_steps: bool) -> tuple[int, Level]:
    """Doubles: only sequences whose sources never rise. Any legal sequence can be reordered that way (moving a
    higher checker first never blocks a lower one: it only adds own checkers, removes blots and brings checkers
    home), so the results are the same while the search tree shrinks by the orderings it skips."""
    best: Level = {start: () if with_steps else None}
    most = 0
    seen: set[bytes] = set()  # (position, source of the last step), as bytes

    def walk(state: State, steps: tuple[Step, ...] | None, depth: int, limit: int) -> None:
        nonlocal best, most
        extended = False
        if depth < 4:
            moves = _single_moves(state, die, limit)
            for position in range(0, len(moves), 2):
                source, moved = moves[position], moves[position + 1]
                key = moved + bytes((source,))
                if key in seen:
                    continue
                seen.add(key)
                extended = True
                walk(moved, None if steps is None else (*steps, _step(source, die)), depth + 1, source)
        if not extended and depth >= most:
            if depth > most:
                best, most = {}, depth
            best.setdefault(state, steps)

    walk(start, best[start], 0, BAR)
    return most, best


# --- backward hitting ----------------------------------------------------------------------------------------


def _backward_dice(rule: BackwardHitting, dice: tuple[int, int]) -> frozenset[int]:
    """The dice that may hit backwards under `rule`: either die, or only the smaller of a non-double."""
    if rule == BackwardHitting.ANY_DIE:
        return frozenset(dice)
    return frozenset() if dice[0] == dice[1] else frozenset((min(dice),))


def _backward_moves(state: State, die: int) -> list:
    """[step, position after, …] for every backward hit with `die`: a checker on a point (never the bar, and
    none while a checker of the mover is on the bar) moves up `die` points onto a lone opposing checker."""
    if state[MOVER_BAR]:
        return []
    found: list = []
    for index in range(24 - die):
        target = index + 1 + die
        if state[index] and state[49 - target] == 1:
            found += ((index + 1, target), _moved(state, index, target, 1))
    return found


def _extend_backward(following: Level, state: State, steps: tuple[Step, ...] | None, die: int) -> None:
    """Add to `following` the positions after each backward hit with `die` from `state` (reached by `steps`)."""
    moves = _backward_moves(state, die)
    for position in range(0, len(moves), 2):
        moved = moves[position + 1]
        if moved not in following:
            following[moved] = None if steps is None else (*steps, moves[position])


def _generate_backward_doubles(start: Level, die: int) -> tuple[int, Level]:
    """Doubles when they may hit backwards. A backward step can move a checker up again, so the shortcut of
    _generate_doubles (sources never rise) does not hold: the double is searched die by die, keeping the
    deepest level reached."""
    level, used = start, 0
    while used < 4:
        following = _extend(level, die, True)
        if not following:
            break
        level, used = following, used + 1
    return used, level


def _to_board(state: State, side: int, total: int) -> Board:
    """The Board of a generator position."""
    key = int.from_bytes(state, "little")
    return Board.from_key(key if side == 0 else swap_key(key), total)


def legal_plays(
    board: Board, side: int, dice: tuple[int, int], *, backward: BackwardHitting | None = None
) -> list[Play]:
    """One Play per distinct legal result (forced play applied). No legal move → one Play with no steps."""
    _, level = _generate(board, side, dice, backward=backward)
    return [Play(steps=steps or (), result=_to_board(state, side, board.total)) for state, steps in level.items()]


def _fast_results(board: Board, side: int, dice: tuple[int, int]) -> tuple[int, Collection[int]] | None:
    """(dice used, results as generator.py's integer positions) where its fast road applies, else None."""
    first, second = _check_dice(dice)
    if first == second:
        return doubles(_start_state(board, side), first)
    return two_dice(_start_state(board, side), max(first, second), min(first, second))


def legal_results(
    board: Board, side: int, dice: tuple[int, int], *, backward: BackwardHitting | None = None
) -> set[Board]:
    """Every board `side` may leave after playing `dice` (the unchanged board when nothing can move)."""
    if backward is None and compiled is not None:
        first, second = _check_dice(dice)
        return compiled.results(board, side, first, second)
    return python_results(board, side, dice, backward=backward)


def python_results(
    board: Board, side: int, dice: tuple[int, int], *, backward: BackwardHitting | None = None
) -> set[Board]:
    """legal_results by the pure Python generator: the reference the compiled one is held to."""
    fast = None if backward is not None else _fast_results(board, side, dice)
    if fast is not None:
        return to_boards(fast[1], side, board.total)
    _, level = _generate(board, side, dice, with_steps=False, backward=backward)
    return {_to_board(state, side, board.total) for state in level}


def max_dice_playable(
    board: Board, side: int, dice: tuple[int, int], *, backward: BackwardHitting | None = None
) -> int:
    """How many dice the forced-play rule makes `side` play: 0..2, or 0..4 for doubles."""
    if backward is None and compiled is not None:
        first, second = _check_dice(dice)
        return compiled.dice_used(board, side, first, second)
    return python_max_dice(board, side, dice, backward=backward)


def python_max_dice(board: Board, side: int, dice: tuple[int, int], *, backward: BackwardHitting | None = None) -> int:
    """max_dice_playable by the pure Python generator (the reference)."""
    fast = None if backward is not None else _fast_results(board, side, dice)
    if fast is not None:
        return fast[0]
    used, _ = _generate(board, side, dice, with_steps=False, backward=backward)
    return used


def format_steps(steps: Sequence[Step]) -> str:
    """Steps as a record writes them, one die per token: `bar/22 13/11 6/off`."""

    def name(point: int) -> str:
        return "bar" if point == BAR else "off" if point == OFF else str(point)

    return " ".join(f"{name(a)}/{name(b)}" for a, b in steps)


# --- checking a written move -------------------------------------------------------------------------------


def _point_name(point: int) -> str:
    return "the bar" if point == BAR else f"the {point}-point"


def _dice_text(dice: tuple[int, int]) -> str:
    if dice[0] == dice[1]:
        return f"the dice are {dice[0]} and {dice[1]} (up to four {dice[0]}s)"
    return f"the dice are {dice[0]} and {dice[1]}"


@lru_cache(maxsize=4096)  # a pure function of a few small numbers, asked again for every written move
def _die_sequences(pool: tuple[int, ...], start: int, end: int) -> tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]:
    """Ordered dice from `pool` that carry a checker from `start` to `end` (bearing off may overshoot on the
    last die), each with the dice left over."""
    found: list[tuple[tuple[int, ...], tuple[int, ...]]] = []
    distance = start - end

    def extend(sequence: tuple[int, ...], remaining: tuple[int, ...], moved: int) -> None:
        if sequence and (moved == distance or (end == OFF and moved >= distance)):
            found.append((sequence, remaining))
            return
        if moved >= distance:
            return
        for value in sorted(set(remaining), reverse=True):
            left = list(remaining)
            left.remove(value)
            extend((*sequence, value), tuple(left), moved + value)

    extend((), pool, 0)
    return tuple(found)


def _apply(state: State, source: int, die: int) -> State | None:
    """The position after the single-die step from `source` (25 = bar) with `die`, or None when it is not
    legal — the same rules as _single_moves, for one step."""
    if source == BAR:
        if not state[MOVER_BAR]:
            return None
        moves = _single_moves(state, die)
        return moves[1] if moves else None
    index = source - 1
    if state[MOVER_BAR] or not state[index]:
        return None
    target = source - die
    if target >= 1:
        opponent_index = 49 - target
        blockers = state[opponent_index]
        if blockers >= 2:
            return None
        return _moved(state, index, target, blockers)
    if any(state[6:24]) or (target < 0 and any(state[source:24])):
        return None
    return _moved(state, index, OFF, 0)


def _apply_backward(state: State, source: int, die: int) -> State | None:
    """The position after the backward hit from `source` with `die`, or None when it is no backward hit."""
    target = source + die
    if source == BAR or target > 24 or state[MOVER_BAR] or not state[source - 1] or state[49 - target] != 1:
        return None
    return _moved(state, source - 1, target, 1)


def _explain_backward(state: State, step: Step, allowed: frozenset[int]) -> tuple[str, str]:
    """(code, message): why a backward step is not legal here (it is known not to be)."""
    origin, target = step
    text = format_steps([step])
    if state[MOVER_BAR]:
        return BACKWARD_ON_BAR, f"{text}: no checker moves backwards while one of yours is on the bar"
    if not state[origin - 1]:
        return ILLEGAL_MOVE, f"{text}: there is no checker of yours left on {_point_name(origin)}"
    if target > 24 or state[49 - target] != 1:
        return BACKWARD_NOT_HIT, f"{text}: a checker moves backwards only to hit a lone opposing checker"
    die = target - origin
    if allowed:
        return BACKWARD_SMALLER_DIE, f"{text}: only the smaller die ({min(allowed)}) may hit backwards, not the {die}"
    return BACKWARD_SMALLER_DIE, f"{text}: only the smaller die of a non-double may hit backwards"


def _explain(state: State, step: Step, die: int) -> str:
    """Why a single-die step is not legal here (it is known not to be)."""
    mover, opponent = state[:25], state[25:]
    origin, target = step
    text = format_steps([step])
    if origin != BAR and mover[24]:
        return f"{text}: a checker on the bar must enter before any other checker moves"
    if mover[origin - 1] == 0:
        if origin == BAR:
            return f"{text}: there is no checker of yours on the bar"
        return f"{text}: there is no checker of yours left on {_point_name(origin)}"
    if target >= 1:
        blockers = opponent[24 - target]
        return f"{text}: {_point_name(target)} is blocked ({blockers} opposing checkers)"
    outside = [index + 1 for index in range(6, 25) if mover[index]]
    if outside:
        where = _point_name(outside[-1])
        return f"{text}: bearing off needs all your checkers in the home board, but one is on {where}"
    higher = [index + 1 for index in range(origin, 6) if mover[index]]
    return (
        f"{text}: the {die} cannot bear off from {_point_name(origin)} while a checker stands on "
        f"{_point_name(higher[-1])}"
    )


@dataclass
class _Search:
    """Every realisation of a written move as single-die steps, unless `enough` says to stop at the first one
    that uses all `full` dice with hits as `marked` (None: any) — the one check_play would pick anyway."""

    successes: list[tuple[tuple[Step, ...], State, tuple[int, ...]]]  # single-die steps, result, hit points
    full: int = 0
    marked: list[int] | None = None
    done: bool = False
    failure: tuple[int, State, Step, int] | None = None  # the failed step found deepest into the move
    backward: frozenset[int] | None = None  # backward hitting: the dice that may hit backwards (None: standard)

    def fail(self, depth: int, state: State, step: Step, die: int) -> None:
        if self.failure is None or depth > self.failure[0]:
            self.failure = (depth, state, step, die)

    def reason(self) -> tuple[str, str] | None:
        """(code, message): why the deepest failed step is not legal (explained only when it is reported)."""
        if self.failure is None:
            return None
        _, state, step, die = self.failure
        if step[1] > step[0] and self.backward is not None:
            return _explain_backward(state, step, self.backward)
        return ILLEGAL_MOVE, _explain(state, step, die)

    def run(
        self,
        state: State,
        elements: tuple[Step, ...],
        pool: tuple[int, ...],
        steps: tuple[Step, ...],
        hits: tuple[int, ...],
    ) -> None:
        if not elements:
            self.successes.append((steps, state, hits))
            if len(steps) == self.full and (self.marked is None or sorted(hits) == self.marked):
                self.done = True
            return
        for position, element in enumerate(elements):
            if element in elements[:position]:
                continue  # the same written step again: already tried first
            rest = elements[:position] + elements[position + 1 :]
            origin, target = element
            if target > origin:  # check_play lets a backward step through only with backward hitting on
                self._run_backward(state, element, rest, pool, steps, hits)
                if self.done:
                    return
                continue
            for sequence, remaining in _die_sequences(pool, origin, target):
                current, walked, hit_points, point = state, steps, hits, origin
                for die in sequence:
                    step = (point, point - die if point > die else OFF)
                    moved = _apply(current, point, die)
                    if moved is None:
                        self.fail(len(walked), current, step, die)
                        break
                    if moved[OPPONENT_BAR] != current[OPPONENT_BAR]:
                        hit_points = (*hit_points, step[1])
                    current, walked, point = moved, (*walked, step), step[1]
                else:
                    self.run(current, rest, remaining, walked, hit_points)
                    if self.done:
                        return

    def _run_backward(
        self,
        state: State,
        element: Step,
        rest: tuple[Step, ...],
        pool: tuple[int, ...],
        steps: tuple[Step, ...],
        hits: tuple[int, ...],
    ) -> None:
        """run() for one written backward step (`element` goes up the board): each of its dice must be a
        backward hit with a die that may hit backwards. Kept apart so the standard search pays nothing for it."""
        origin, target = element
        allowed = self.backward or frozenset()
        for sequence, remaining in _die_sequences(pool, target, origin):
            current, walked, point = state, steps, origin
            for die in sequence:
                moved = _apply_backward(current, point, die) if die in allowed else None
                if moved is None:
                    self.fail(len(walked), current, (point, point + die), die)
                    break
                current, walked, point = moved, (*walked, (point, point + die)), point + die
            else:
                self.run(current, rest, remaining, walked, (*hits, *(step[1] for step in walked[len(steps) :])))
                if self.done:
                    return


def check_play(
    board: Board,
    side: int,
    dice: tuple[int, int],
    written: Sequence[Step],
    *,
    hits: Sequence[int] | None = None,
    backward: BackwardHitting | None = None,
) -> PlayCheck:
    """Check a move as a record writes it, after the notation is decoded.

    Each written (from, to) may span several dice (`24/16` with 62 or 44); hits need not be marked. The move is
    ok — with the resulting Board — when its checker moves can be realised as single-die steps with these dice
    (any intermediate points, any order) and the result is a legal one. Otherwise `code` is `illegal_move`,
    `incomplete_play` (a play using more dice existed) or `larger_die_required`. An empty `written` is ok only
    when no legal move exists. `hits` (optional: points the record marks with `*`) picks between realisations
    that differ only in which blot was hit on the way. With `backward` a written step may go up the board
    (`8/13*`): each of its dice must then be a backward hit, else `backward_not_hit`, `backward_smaller_die`
    or `backward_on_bar`.
    """
    try:
        dice = _check_dice(dice)
    except ValueError as error:
        return PlayCheck(ok=False, code=ILLEGAL_MOVE, message=str(error), result=None)
    if backward is None:
        direct = _play_direct(board, side, written, dice, hits)
        if direct is not None:
            return direct
    start = _start_state(board, side)
    if not written:
        if backward is None and not _single_moves(start, dice[0]) and not _single_moves(start, dice[1]):
            return PlayCheck(ok=True, code=None, message=_LOST, result=board)
        max_used, level = _generate(board, side, dice, backward=backward)
        if not max_used:
            return PlayCheck(ok=True, code=None, message=_LOST, result=board)
        return _incomplete(board, side, dice, max_used, level)
    for origin, target in written:
        if not (0 <= target < origin <= BAR) or target == BAR:
            if backward is not None and 1 <= origin < target <= 24:
                continue  # a backward hit, judged below
            return PlayCheck(
                ok=False,
                code=ILLEGAL_MOVE,
                message=f"{format_steps([(origin, target)])} is not a move: checkers go from a higher point (25 = "
                "bar) to a lower one (0 = off)",
                result=None,
            )
    pool = (dice[0],) * 4 if dice[0] == dice[1] else dice
    if len(written) > len(pool):
        return PlayCheck(
            ok=False,
            code=ILLEGAL_MOVE,
            message=f"{format_steps(written)} moves {len(written)} times but {_dice_text(dice)}",
            result=None,
        )
    for element in written:
        if not _die_sequences(pool, *element) and not _die_sequences(pool, element[1], element[0]):
            pips = abs(element[0] - element[1])
            verb = f"needs at least {pips} pips" if element[1] == OFF else f"moves {pips} pips"
            return PlayCheck(
                ok=False,
                code=ILLEGAL_MOVE,
                message=f"{format_steps([element])} {verb} but {_dice_text(dice)}",
                result=None,
            )
    search = _Search(successes=[], full=len(pool), marked=None if hits is None else sorted(hits))
    if backward is not None:
        search.backward = _backward_dice(backward, dice)
    search.run(start, tuple(written), pool, (), ())
    if not search.successes:
        code, reason = search.reason() or (ILLEGAL_MOVE, f"the move uses more dice than the roll: {_dice_text(dice)}")
        return PlayCheck(ok=False, code=code, message=reason, result=None)
    # A realisation that uses every die is a legal play as it stands (no play can use more), so the usual case
    # needs no enumeration of the other legal plays; only a play that leaves dice unused is compared with them.
    if search.done:  # it stopped at the realisation the rules below would pick
        steps, state, _ = search.successes[-1]
        return _ok(_to_board(state, side, board.total), steps)
    legal = [success for success in search.successes if len(success[0]) == len(pool)]
    if not legal:
        max_used, level = _generate(board, side, dice, backward=backward)
        legal = [success for success in search.successes if success[1] in level and len(success[0]) == max_used]
    if legal:
        if hits is not None:
            marked = sorted(hits)
            legal.sort(key=lambda success: sorted(success[2]) != marked)
        steps, state, _ = legal[0]
        return _ok(_to_board(state, side, board.total), steps)
    most_used = max(len(success[0]) for success in search.successes)
    if most_used < max_used:
        return _incomplete(board, side, dice, max_used, level)
    if max_used == 1 and dice[0] != dice[1]:
        example = _example(level)
        larger = max(dice)
        return PlayCheck(
            ok=False,
            code=LARGER_DIE_REQUIRED,
            message=f"only one die can be played, so it must be the larger one ({larger}), e.g. {example}",
            result=None,
        )
    return PlayCheck(ok=False, code=ILLEGAL_MOVE, message="the move does not lead to a legal position", result=None)


def _play_direct(
    board: Board, side: int, written: Sequence[Step], dice: tuple[int, int], hits: Sequence[int] | None
) -> PlayCheck | None:
    """_play_direct by the compiled generator's `play` where it is built (the same road, tested against the same
    search), else by the pure Python one."""
    if compiled is None:
        return python_direct(board, side, written, dice, hits)
    played = compiled.play(board, side, dice[0], dice[1], tuple(written), None if hits is None else tuple(hits))
    if played is None:
        return None
    if not written:
        return PlayCheck(ok=True, code=None, message=_LOST, result=board)
    return _ok(*played)


def python_direct(
    board: Board, side: int, written: Sequence[Step], dice: tuple[int, int], hits: Sequence[int] | None
) -> PlayCheck | None:
    """The verdict on `written` when it plays one die per step (a bear-off may overshoot), legal as check_play's
    search would first realise it — the written order before the other, the larger die first — and hitting where
    the record marks hits (when it marks them): ok, with the result and the steps in the order played. None
    sends the move to the general search, which then judges and explains it.

    Why: nearly every written move is such a play, and a play that uses every die is legal as it stands (no play
    uses more, and the larger-die rule only speaks when one die alone can be played). Replaying it on one
    bytearray in the Board key's own layout (no swapping of sides in or out) answers with the result the search
    would pick, for a fraction of the search's cost. A play of fewer dice is legal when no more dice could be
    played and, with one die of a non-double, when its result is among the legal ones (the larger die's).
    """
    first, second = dice
    count = len(written)
    plans: tuple[tuple[tuple[Step, ...], tuple[int, ...]], ...]
    if first == second:
        if count > 4:
            return None
        plans = ((tuple(written), (first,) * count),)
    elif count == 2:
        ahead, behind = written
        if ahead[1] and behind[1]:  # no bear-off: the distances name the dice (the loop checks them)
            distance = ahead[0] - ahead[1]
            if distance == second:
                plans = (((ahead, behind), (second, first)), ((behind, ahead), (first, second)))
            elif distance == first:
                plans = (((ahead, behind), (first, second)), ((behind, ahead), (second, first)))
            else:
                return None
        else:
            high, low = (first, second) if first > second else (second, first)
            plans = (
                ((ahead, behind), (high, low)),
                ((ahead, behind), (low, high)),
                ((behind, ahead), (high, low)),
                ((behind, ahead), (low, high)),
            )
    elif count < 2:
        plans = ((tuple(written), (max(dice),) * count), (tuple(written), (min(dice),) * count))
    else:
        return None
    mover = 25 * side  # the mover's counts in the key's bytes; the opponent's at 25 - mover
    bar = mover + MOVER_BAR
    home = mover + 6
    facing = 49 - mover  # facing - t: the opponent's count on the mover's point t; facing itself: its bar
    key_bytes = board[0].to_bytes(50, "little")
    for order, dice_played in plans:
        state = bytearray(key_bytes)
        landed: list[int] = []
        for (origin, target), die in zip(order, dice_played, strict=False):  # always of one length
            if not (0 <= target < origin <= BAR) or (origin - target != die if target else origin > die):
                break  # this die does not carry a checker from `origin` to `target` (off may overshoot)
            index = mover + origin - 1
            if not state[index] or (origin != BAR and state[bar]):
                break
            if target:
                blockers = state[facing - target]
                if blockers >= 2:
                    break
                if blockers:
                    state[facing - target] = 0
                    state[facing] += 1
                    landed.append(target)
                state[mover + target - 1] += 1
            elif state[bar] or any(state[home:bar]) or (origin < die and any(state[index + 1 : home])):
                break  # off: only with every checker home, and overshooting only from the highest point
            state[index] -= 1
        else:
            if hits is not None and (hits or landed) and sorted(hits) != sorted(landed):
                return None  # the marks may pick another realisation: the search decides
            result = _new_board(Board, (int.from_bytes(state, "little"), board[1]))
            if count < (4 if first == second else 2):
                if python_max_dice(board, side, dice) != count:
                    return None  # more dice could be played: the search explains which
                if count == 0:
                    return PlayCheck(ok=True, code=None, message=_LOST, result=board)
                if first != second and result not in python_results(board, side, dice):
                    return None  # the smaller die where the larger one could be played
            return _ok(result, order)
    return None


def _ok(result: Board, steps: tuple[Step, ...]) -> PlayCheck:
    """PlayCheck(ok=True, code=None, message="", result=result, steps=steps), built without the frozen
    dataclass's one object.__setattr__ per field (the verifier makes one per move)."""
    check = object.__new__(PlayCheck)
    check.__dict__.update({"ok": True, "code": None, "message": "", "result": result, "steps": steps})
    return check


def _example(level: Level) -> str:
    """One legal play of a generated level, as text."""
    steps: tuple[Step, ...] | None = next(iter(level.values()))
    return format_steps(steps or ())


def _incomplete(board: Board, side: int, dice: tuple[int, int], max_used: int, level: Level) -> PlayCheck:
    example = _example(level)
    if dice[0] != dice[1]:
        needed = "both dice" if max_used == 2 else "a die"
    else:
        needed = f"{max_used} of the four {dice[0]}s" if max_used < 4 else f"all four {dice[0]}s"
    return PlayCheck(
        ok=False, code=INCOMPLETE_PLAY, message=f"a play using {needed} existed, e.g. {example}", result=None
    )
