"""The fast road to legal results (moves.py's legal_results and max_dice_playable), for the positions where
no checker can bear off during the play — most of a game. Elsewhere moves.py's general search answers.

A position is one integer: byte i (bits 8i..8i+7) holds slot i of moves.py's 50-byte state — the mover's 25
counts (own numbering, index 24 = bar), then the opponent's 25 (index 49 = the opponent's bar). A single-die
step is then one precomputed addition, and a play is the sum of its steps: no intermediate position is built
and deduplicating results is hashing integers.

Two facts make this exact:
- A point the opponent blocks (2+ checkers) stays blocked for the whole play (the mover can only hit blots),
  so whether a step's landing point is open is known from the start position.
- Without bear-off, different sets of steps give different results, and the order of steps only matters for
  which checker is available where; both are checked below.
"""

from __future__ import annotations

from collections.abc import Iterable

from backgammon.board import Board

_UNIT = [1 << (8 * slot) for slot in range(50)]
_OPPONENT_BAR_UNIT = _UNIT[49]
# _STEP[die][point]: the step of one checker from `point` (25 = bar) to point − die, for point − die ≥ 1.
_STEP = [
    [_UNIT[point - 1 - die] - _UNIT[point - 1] if point - die >= 1 else 0 for point in range(26)] for die in range(7)
]
# _HIT[target]: the opponent's blot on the mover's `target` goes to the opponent's bar (its own 25 − target).
_HIT = [_OPPONENT_BAR_UNIT - _UNIT[49 - target] if 1 <= target <= 24 else 0 for target in range(25)]
_MOVER_MASK = (1 << 200) - 1
_new_board = tuple.__new__


def _sources(state: bytes, die: int, occupied: list[int]) -> list[tuple[int, int]]:
    """(point, step) for every point of `occupied` (the mover's, highest first) whose checker can move `die`
    pips to an open point (a blot there is hit: the step includes it). Bear-off steps are not listed."""
    found = []
    steps = _STEP[die]
    for point in occupied:
        if point <= die:
            break
        blockers = state[49 - point + die]  # on the target point − die, in the opponent's numbering
        if blockers < 2:
            found.append((point, steps[point] + _HIT[point - die] if blockers else steps[point]))
    return found


def _onwards(state: bytes, key: int, via: int, die: int) -> int | None:
    """`key` after the checker that stands on `via` moves on `die` pips (None: it cannot)."""
    target = via - die
    if target < 1:
        return None
    blockers = state[49 - target]
    if blockers >= 2:
        return None
    return key + _STEP[die][via] + _HIT[target] if blockers else key + _STEP[die][via]


def two_dice(state: bytes, high: int, low: int) -> tuple[int, set[int]] | None:
    """(dice used, the results as integer positions) for a roll of high ≠ low, or None when the general search
    must answer (a checker might bear off, or only one die can be played with one checker on the bar)."""
    bar = state[24]
    if not bar and sum(state[6:24]) < 2:
        return None  # with one checker or none outside the home board, bearing off may come into play
    # (A checker entering from the bar stays outside the home board for the rest of this play.)
    key = int.from_bytes(state, "little")
    occupied = [point for point in range(25 if bar else 24, 0, -1) if state[point - 1]]
    highs = _sources(state, high, occupied)
    lows = _sources(state, low, occupied)
    results: set[int] = set()
    if bar:
        high_enters = bool(highs) and highs[0][0] == 25
        low_enters = bool(lows) and lows[0][0] == 25
        if bar >= 2:  # both dice enter, or the one that can (the other then finds the bar still occupied)
            if high_enters and low_enters:
                return 2, {key + highs[0][1] + lows[0][1]}
            if high_enters or low_enters:
                return 1, {key + (highs[0][1] if high_enters else lows[0][1])}
            return 0, {key}
        orders = []
        if high_enters:
            orders.append((key + highs[0][1], 25 - high, lows[low_enters:], low))
        if low_enters:
            orders.append((key + lows[0][1], 25 - low, highs[high_enters:], high))
        for entered, landed, others, die in orders:
            # then a checker already on a point moves, or the one that entered moves on
            blot = state[49 - landed] == 1
            for point, step in others:
                if blot and point - die == landed:
                    step -= _HIT[landed]  # the entering checker hit that blot already
                results.add(entered + step)
            onwards = _onwards(state, entered, landed, die)
            if onwards is not None:
                results.add(onwards)
        return (2, results) if results else None
    if highs and lows:
        low_steps = [step for _, step in lows]
        results = {key + high_step + low_step for _, high_step in highs for low_step in low_steps}
        # Pairs that are no position: the lone checker of a point moved twice, or one blot hit twice.
        low_by_point = dict(lows)
        for point, high_step in highs:
            low_step = low_by_point.get(point)
            if low_step is not None and state[point - 1] == 1:
                results.discard(key + high_step + low_step)
            target = point - high
            if state[49 - target] == 1:
                low_step = low_by_point.get(target + low)
                if low_step is not None:
                    twice = key + high_step + low_step
                    results.discard(twice)
                    results.add(twice - _HIT[target])
    # One checker moving on with the other die from where the first die put it.
    for point, step in highs:
        onwards = _onwards(state, key + step, point - high, low)
        if onwards is not None:
            results.add(onwards)
    for point, step in lows:
        onwards = _onwards(state, key + step, point - low, high)
        if onwards is not None:
            results.add(onwards)
    return (2, results) if results else None


def doubles(state: bytes, die: int) -> tuple[int, list[int]] | None:
    """(dice used, the results as integer positions) for a double, or None when a checker might bear off.

    A play of a double is fixed by how many checkers step off each point; points die pips apart form a chain
    (a checker only ever moves along its own), so each chain's choices are listed on their own and the chains
    then combined, keeping the combinations that play the most dice (up to four). Different choices give
    different results, so there is nothing to deduplicate.
    """
    bar = state[24]
    if sum(state[6:25]) < 4:
        return None  # four or more checkers outside the home board: none of them can be borne off in four steps
    key = int.from_bytes(state, "little")
    entering = min(bar, 4)
    if bar and state[24 + die] >= 2:  # the entry point 25 − die, in the opponent's numbering
        return 0, [key]
    chains: list[list[list[int]]] = []
    for top in range(25, 25 - die, -1):
        chain = _chain(state, die, range(top, die, -die), entering if top == 25 else 0)
        if chain is not None:
            chains.append(chain)
    most = min(4, sum(len(options) - 1 for options in chains))
    if most == 0:
        return 0, [key]
    left = [0] * (len(chains) + 1)  # left[c]: the most steps the chains from c on can add
    for index in range(len(chains) - 1, -1, -1):
        left[index] = left[index + 1] + len(chains[index]) - 1
    partial: dict[int, list[int]] = {0: [key]}
    for index, options in enumerate(chains):
        combined: dict[int, list[int]] = {}
        for used, keys in partial.items():
            for more, deltas in enumerate(options):
                total = used + more
                if total > most:
                    break
                if total + left[index + 1] < most or not deltas:
                    continue
                found = [position + delta for position in keys for delta in deltas]
                if total in combined:
                    combined[total] += found
                else:
                    combined[total] = found
        partial = combined
    return most, partial[most]


def _chain(state: bytes, die: int, points: range, entering: int) -> list[list[int]] | None:
    """options[k]: the sums of steps that move k checkers die pips each along `points` (one residue class,
    highest first; a step from the last one would bear off), moves from higher points before lower ones so
    each choice comes once. `entering` checkers enter from the bar (points[0] = 25) before anything else.
    None when nothing can move here."""
    sources = list(points)
    length = len(sources)
    counts = [state[point - 1] for point in sources]
    steps: list[int | None] = []  # None: the point die pips lower is blocked
    blots = []
    for point in sources:
        blockers = state[49 - (point - die)]
        steps.append(_STEP[die][point] if blockers < 2 else None)
        blots.append(_HIT[point - die] if blockers == 1 else 0)
    options: list[list[int]] = [[] for _ in range(5)]
    start, delta, first = 0, 0, 0
    if entering:
        counts[0] -= entering
        counts[1] += entering
        delta = entering * _STEP[die][25] + blots[0]  # the entry point is open (doubles() checked it)
        start, first = entering, 1
    elif not any(counts[index] and steps[index] is not None for index in range(length)):
        return None

    def walk(lowest: int, used: int, delta: int) -> None:
        options[used].append(delta)
        if used == 4:
            return
        for index in range(lowest, length):
            step = steps[index]
            if step is None or not counts[index]:
                continue
            counts[index] -= 1
            if index + 1 < length:
                counts[index + 1] += 1
            walk(index, used + 1, delta + step if index == lowest and used > start else delta + step + blots[index])
            counts[index] += 1
            if index + 1 < length:
                counts[index + 1] -= 1

    walk(first, start, delta)
    while not options[-1]:
        options.pop()
    if entering:
        for used in range(entering):
            options[used] = []
    return options


def to_boards(keys: Iterable[int], side: int, total: int) -> set[Board]:
    """The Boards of integer positions, `side` being the mover."""
    if side == 0:
        return {_new_board(Board, (key, total)) for key in keys}
    return {_new_board(Board, ((key >> 200) | ((key & _MOVER_MASK) << 200), total)) for key in keys}
