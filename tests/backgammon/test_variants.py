"""Starting positions of the variants."""

import pytest

from backgammon.moves import legal_results
from backgammon.variants import Variant, checkers_per_side, starting_board


@pytest.mark.parametrize(
    ("variant", "checkers", "pips"),
    [
        (Variant.STANDARD, 15, 167),
        (Variant.NACKGAMMON, 15, 2 * 24 + 2 * 23 + 4 * 13 + 3 * 8 + 4 * 6),
        (Variant.HYPERGAMMON1, 1, 24),
        (Variant.HYPERGAMMON2, 2, 47),
        (Variant.HYPERGAMMON3, 3, 69),
    ],
)
def test_starting_boards(variant, checkers, pips):
    board = starting_board(variant)
    assert checkers_per_side(variant) == checkers == board.total
    assert board.off(0) == board.off(1) == 0
    assert board.pip_count(0) == board.pip_count(1) == pips


def test_variant_names_are_accepted_as_text():
    assert starting_board("nackgammon") == starting_board(Variant.NACKGAMMON)
    with pytest.raises(ValueError):
        starting_board("long nardy")


def test_hypergammon_moves_its_three_checkers():
    assert len(legal_results(starting_board(Variant.HYPERGAMMON3), 0, (2, 1))) > 1
