"""Property tests of the long nardy move generator (hypothesis draws the positions, dice and settings).

Positions come two ways: reached by seeded random legal play from the start, and placed freely (anywhere, all
home for the bear-off, or packed into a band of points so that six-blocks are common)."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from backgammon.nardy.board import CHECKERS, HEAD, NardyBoard
from backgammon.nardy.moves import generate, legal_plays
from backgammon.nardy.random_play import random_positions
from backgammon.nardy.settings import ANY_HEAD_DOUBLES, BlockRule, NardySettings
from tests.backgammon.nardy.oracle import forbidden, oracle_results
from tests.backgammon.nardy.positions import nardy_board

dice_strategy = st.tuples(st.integers(1, 6), st.integers(1, 6))
settings_strategy = st.builds(
    NardySettings,
    head_doubles=st.sampled_from([NardySettings().head_doubles, ANY_HEAD_DOUBLES]),
    block_rule=st.sampled_from(list(BlockRule)),
)
OPPONENT_HOME = NardySettings(block_rule=BlockRule.OPPONENT_HOME)


def place(rng: random.Random) -> tuple[NardyBoard, int, bool]:
    """A freely placed position: checkers anywhere, all home (the bear-off), packed into a band of eight
    points, or holding six consecutive points of the opponent's route (a six-block, allowed or not)."""
    zone = rng.choice(["anywhere", "home", "band", "block"])
    mine: dict[int, int] = {}
    if zone == "block":  # six consecutive points of the opponent's route (mover's 12..1, 24..13) held
        route = [*range(12, 0, -1), *range(24, 12, -1)]
        start = rng.randrange(19)
        mine = dict.fromkeys(route[start : start + 6], 1)
    if zone == "home":
        points = list(range(0, 7))
    elif zone == "band":
        top = rng.randint(8, 24)
        points = list(range(top - 7, top + 1))
    else:
        points = list(range(0, 25))
    for _ in range(CHECKERS - sum(mine.values())):
        point = rng.choice(points)
        mine[point] = mine.get(point, 0) + 1
    free = [0] + [point for point in range(1, 25) if point not in mine]
    theirs: dict[int, int] = {}
    for _ in range(CHECKERS):
        point = rng.choice(free)
        theirs[point] = theirs.get(point, 0) + 1
    side = rng.randrange(2)
    board = nardy_board({p: c for p, c in mine.items() if p}, {p: c for p, c in theirs.items() if p}, side=side)
    return board, side, rng.random() < 0.5


@st.composite
def reached_positions(draw):
    seed = draw(st.integers(0, 10**6))
    turns = draw(st.integers(1, 160))
    *_, last = random_positions(seed=seed, count=turns)
    board, side, _, first_turn = last
    return board, side, first_turn


positions = st.one_of(st.builds(place, st.randoms(use_true_random=False)), reached_positions())


def _split(board: NardyBoard, side: int) -> tuple[dict[int, int], dict[int, int]]:
    view = board.view(side)
    mine = {index + 1: value for index, value in enumerate(view) if value > 0}
    mine[0] = board.off[side]
    theirs = {index + 1: -value for index, value in enumerate(view) if value < 0}
    return mine, theirs


def _as_position(board: NardyBoard, side: int) -> frozenset:
    mine, _ = _split(board, side)
    return frozenset((point, count) for point, count in mine.items() if count)


@settings(max_examples=200, deadline=None)
@given(position=positions, dice=dice_strategy, rules=settings_strategy)
def test_the_generator_gives_the_brute_force_results_and_dice_count(position, dice, rules):
    board, side, first_turn = position
    mine, theirs = _split(board, side)
    budget = rules.head_budget(dice, first_turn=first_turn)
    most, expected = oracle_results(mine, theirs, board.off[1 - side], dice, budget, rules)
    plays = legal_plays(board, side, dice, first_turn=first_turn, settings=rules)
    assert {_as_position(play.result, side) for play in plays} == expected
    # every play uses the maximum number of dice
    assert {len(play.steps) for play in plays} == {most}


@settings(max_examples=200, deadline=None)
@given(position=positions, dice=dice_strategy, rules=settings_strategy)
def test_every_play_keeps_the_rules(position, dice, rules):
    board, side, first_turn = position
    view = board.view(side)
    budget = rules.head_budget(dice, first_turn=first_turn)
    for play in legal_plays(board, side, dice, first_turn=first_turn, settings=rules):
        result = play.result
        for each in (0, 1):  # fifteen checkers a side, on the board or off
            on_board = sum(count for count in result.view(each) if count > 0)
            assert on_board + result.off[each] == CHECKERS
        assert result.off[1 - side] == board.off[1 - side]
        assert result.view(side) != view or not play.steps
        for _, end in play.steps:  # never onto an opposing checker (the opponent does not move)
            assert end == 0 or view[end - 1] >= 0
        assert sum(1 for start, _ in play.steps if start == HEAD) <= budget
        assert len(play.steps) <= 2 or dice[0] == dice[1]
        if play.steps:  # a play never ends in a block the settings forbid
            mine, theirs = _split(result, side)
            assert not forbidden({p: c for p, c in mine.items() if p}, theirs, result.off[1 - side], rules)


@settings(max_examples=200, deadline=None)
@given(position=positions, dice=dice_strategy, rules=settings_strategy)
def test_the_plays_are_the_same_whichever_die_is_tried_first(position, dice, rules):
    board, side, first_turn = position
    budget = rules.head_budget(dice, first_turn=first_turn)
    view, opponent_off = board.view(side), board.off[1 - side]
    used, plays = generate(view, dice, budget=budget, opponent_off=opponent_off, settings=rules)
    used_reversed, plays_reversed = generate(
        view, (dice[1], dice[0]), budget=budget, opponent_off=opponent_off, settings=rules
    )
    assert used == used_reversed
    assert set(plays) == set(plays_reversed)


def test_the_drawn_positions_hold_blocks_and_bear_offs():
    """The strategies reach the bear-off and six-blocks allowed and forbidden, so the properties see them."""
    placed = [place(random.Random(seed)) for seed in range(300)]
    reached = [(board, side) for board, side, _, _ in random_positions(seed=7, count=600)]
    boards = [(board, side) for board, side, _ in placed] + reached
    ahead = NardySettings()
    with_run = []
    for board, side in boards:
        mine, theirs = _split(board, side)
        mine.pop(0)
        if forbidden(mine, {}, 0, ahead):  # with nobody on the board, any run of six is a block
            with_run.append(forbidden(mine, theirs, board.off[1 - side], ahead))
    assert with_run.count(True) > 5 and with_run.count(False) > 5
    assert sum(board.all_home(side) for board, side in reached) > 5
    assert sum(board.all_home(side) for board, side, _ in placed) > 5
