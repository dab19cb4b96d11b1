"""The compiled move generator (compiled_moves.c) against the pure Python one, the reference: the same results and the
same number of dice played, on positions random play reaches in every variant it serves and on arbitrary
positions (bear-offs, several checkers on the bar, blocked entries) that hypothesis makes up."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from backgammon import moves
from backgammon.board import Board
from backgammon.moves import legal_results, max_dice_playable, python_max_dice, python_results
from backgammon.random_play import random_positions
from backgammon.variants import BackwardHitting, Variant


def _differences(compiled, cases):
    return [
        (board.render(), side, dice)
        for board, side, dice in cases
        if compiled.results(board, side, *dice) != python_results(board, side, dice)
        or compiled.dice_used(board, side, *dice) != python_max_dice(board, side, dice)
    ]


@pytest.mark.parametrize(
    ("variant", "count"),
    [
        (Variant.STANDARD, 4000),
        (Variant.NACKGAMMON, 1000),
        (Variant.HYPERGAMMON1, 300),
        (Variant.HYPERGAMMON2, 300),
        (Variant.HYPERGAMMON3, 500),
    ],
)
def test_compiled_equals_python_on_reached_positions(compiled, variant, count):
    assert _differences(compiled, random_positions(seed=4242, count=count, variant=variant)) == []


@st.composite
def boards(draw):
    """Any legal position: each side's checkers spread over points and the bar, never both sides on a point;
    mostly all in or near the home board, so bearing off comes up often."""
    total = draw(st.sampled_from([15, 15, 3, 1]))
    rows = [[0] * 25, [0] * 25]
    for side in (0, 1):
        home = draw(st.booleans())
        for _ in range(draw(st.integers(0, total))):
            index = draw(st.integers(0, 5) if home else st.integers(0, 24))
            opposite = 23 - index  # the same point in the other side's numbering (the bars never clash)
            if index == 24 or not rows[1 - side][opposite]:
                rows[side][index] += 1
    return Board(checkers=(tuple(rows[0]), tuple(rows[1])), total=total)


@settings(max_examples=1500, deadline=None)
@given(board=boards(), side=st.integers(0, 1), dice=st.tuples(st.integers(1, 6), st.integers(1, 6)))
def test_compiled_equals_python_on_any_position(compiled, board, side, dice):
    assert _differences(compiled, [(board, side, dice)]) == []


def test_public_calls_use_the_compiled_generator_only_without_backward_hits(compiled, monkeypatch):
    board, side, dice = next(random_positions(seed=1, count=1))
    monkeypatch.setattr(moves, "compiled", compiled)
    assert legal_results(board, side, dice) == compiled.results(board, side, *dice)
    monkeypatch.setattr(moves, "python_results", lambda *args, **kwargs: {"python"})
    assert legal_results(board, side, dice, backward=BackwardHitting.ANY_DIE) == {"python"}
    assert max_dice_playable(board, side, dice) == compiled.dice_used(board, side, *dice) == 2


def test_compiled_refuses_what_is_no_board_or_no_dice(compiled):
    board = Board(checkers=((0,) * 25, (0,) * 25), total=15)
    with pytest.raises(ValueError, match="dice are 1..6"):
        compiled.results(board, 0, 0, 7)
    with pytest.raises(TypeError, match="a Board"):
        compiled.results((1, 2, 3), 0, 1, 2)
