"""The shared sample of reachable positions is reproducible and reaches the end of games."""

from backgammon.random_play import random_positions
from backgammon.variants import Variant, starting_board


def test_same_seed_same_positions():
    assert list(random_positions(seed=3, count=50)) == list(random_positions(seed=3, count=50))


def test_new_games_start_after_one_side_bears_off():
    sample = list(random_positions(seed=3, count=400, variant=Variant.HYPERGAMMON1))
    starts = [board for board, _, _ in sample if board == starting_board(Variant.HYPERGAMMON1)]
    assert len(starts) > 1
