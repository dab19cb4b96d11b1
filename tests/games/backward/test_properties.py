"""Properties of backward-hitting play on positions reached by seeded random play of the variant: every
generated play passes the written-move check, the dice order does not matter, and backward hits only add
plays to the standard rules (never fewer dice)."""

from hypothesis import given, settings
from hypothesis import strategies as st

from backgammon.moves import check_play, legal_plays, legal_results, max_dice_playable
from backgammon.random_play import random_positions
from backgammon.variants import BackwardHitting, Variant
from tests.backgammon.positions import make_board

RULES = st.sampled_from(list(BackwardHitting))


def _positions(seed, rule, count=25):
    return random_positions(seed=seed, count=count, variant=Variant.BACKWARD, backward=rule)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**6), rule=RULES)
def test_every_generated_play_is_legal_and_gives_its_result(seed, rule):
    for board, side, dice in _positions(seed, rule):
        for play in legal_plays(board, side, dice, backward=rule):
            check = check_play(board, side, dice, play.steps, backward=rule)
            assert check.ok, (board, side, dice, play.steps, check.message)
            assert check.result == play.result


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**6), rule=RULES)
def test_the_same_results_whichever_die_order(seed, rule):
    for board, side, (first, second) in _positions(seed, rule):
        results = legal_results(board, side, (first, second), backward=rule)
        assert results == legal_results(board, side, (second, first), backward=rule)
        assert results == {play.result for play in legal_plays(board, side, (second, first), backward=rule)}


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**6), rule=RULES)
def test_backward_hits_never_make_fewer_dice_playable(seed, rule):
    for board, side, dice in _positions(seed, rule):
        used = max_dice_playable(board, side, dice)
        assert max_dice_playable(board, side, dice, backward=rule) >= used
        # (With one die of two playable, a backward hit with the larger die can displace the smaller's plays.)
        if max_dice_playable(board, side, dice, backward=rule) == used and (used != 1 or dice[0] == dice[1]):
            standard = legal_results(board, side, dice)
            assert standard <= legal_results(board, side, dice, backward=rule)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_the_smaller_die_setting_allows_a_subset_of_the_any_die_plays(seed):
    for board, side, dice in _positions(seed, BackwardHitting.ANY_DIE):
        any_die = BackwardHitting.ANY_DIE
        used = max_dice_playable(board, side, dice, backward=any_die)
        same = max_dice_playable(board, side, dice, backward=BackwardHitting.SMALLER_DIE) == used
        if same and (used != 1 or dice[0] == dice[1]):
            smaller = legal_results(board, side, dice, backward=BackwardHitting.SMALLER_DIE)
            assert smaller <= legal_results(board, side, dice, backward=any_die)


def test_one_playable_die_the_larger_by_a_backward_hit_displaces_the_smaller():
    """Why the subset properties above leave out one playable die of two: the larger die rule then picks
    another play (hand-checked: only 13/19 hits with the 6 where the standard rules play nothing and the
    smaller-die setting plays 13/18)."""
    board = make_board({13: 1}, {7: 2, 8: 2, 12: 2, 14: 2, 18: 1, 19: 1})
    any_die = legal_results(board, 0, (6, 5), backward=BackwardHitting.ANY_DIE)
    smaller = legal_results(board, 0, (6, 5), backward=BackwardHitting.SMALLER_DIE)
    assert len(any_die) == len(smaller) == 1 and not smaller <= any_die
