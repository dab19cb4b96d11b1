"""check_play's direct road (a written move of one single-die step per die, replayed as written) against its
general search, which stays the reference: the same verdict, result and steps on every move tried."""

import random

import pytest

from backgammon import moves
from backgammon.moves import check_play, legal_plays
from backgammon.random_play import random_positions
from backgammon.variants import Variant
from tests.backgammon.positions import make_board


def _verdict(check):
    return (check.ok, check.code, check.result, check.steps)


def _written_moves(rng, board, side, dice):
    """Legal plays as written (in order, reversed, with and without hit marks, cut short, none at all), and
    single-die steps picked at random, legal or not."""
    plays = legal_plays(board, side, dice)
    for play in rng.sample(plays, min(3, len(plays))):
        yield play.steps, None
        yield tuple(reversed(play.steps)), None
        yield play.steps, ()
        yield play.steps[:-1], None
    yield (), None
    pool = [dice[0]] * 4 if dice[0] == dice[1] else list(dice)
    for _ in range(3):
        steps = []
        for die in pool:
            origin = rng.randint(1, 25)
            steps.append((origin, max(origin - die, 0)))
        yield tuple(steps), rng.choice([None, (), (steps[0][1],)])


@pytest.mark.parametrize("with_compiled", [True, False], ids=["compiled-generator", "python-only"])
@pytest.mark.parametrize("variant", [Variant.STANDARD, Variant.NACKGAMMON, Variant.HYPERGAMMON3])
def test_direct_road_agrees_with_the_search(request, monkeypatch, variant, with_compiled):
    """Each road, the compiled one and the pure Python one, against the search."""
    monkeypatch.setattr(moves, "compiled", request.getfixturevalue("compiled") if with_compiled else None)
    rng = random.Random(5)
    cases = [
        (board, side, dice, written, hits)
        for board, side, dice in random_positions(seed=31, count=400, variant=variant)
        for written, hits in _written_moves(rng, board, side, dice)
    ]
    direct = [_verdict(check_play(board, side, dice, written, hits=hits)) for board, side, dice, written, hits in cases]
    monkeypatch.setattr(moves, "_play_direct", lambda *args: None)
    searched = [
        _verdict(check_play(board, side, dice, written, hits=hits)) for board, side, dice, written, hits in cases
    ]
    assert direct == searched
    assert sum(verdict[0] for verdict in direct) > len(cases) // 3  # legal moves were among them
    assert sum(not verdict[0] for verdict in direct) > len(cases) // 10  # and illegal ones


@pytest.mark.parametrize("with_compiled", [True, False], ids=["compiled-generator", "python-only"])
def test_direct_road_keeps_the_larger_die_rule(request, monkeypatch, with_compiled):
    """One die playable: the smaller one written where the larger one can be played is not the direct road's to
    pass (the search names the rule); the larger one is fine, and so is the smaller where the larger is blocked."""
    monkeypatch.setattr(moves, "compiled", request.getfixturevalue("compiled") if with_compiled else None)
    larger_open = make_board({20: 1}, {9: 2})  # 6 or 5 alone, both would land on the blocked 9
    larger_blocked = make_board({20: 1}, {14: 2, 9: 2})
    cases = [(larger_open, [(20, 15)]), (larger_open, [(20, 14)]), (larger_blocked, [(20, 15)])]
    direct = [_verdict(check_play(board, 0, (6, 5), written)) for board, written in cases]
    monkeypatch.setattr(moves, "_play_direct", lambda *args: None)
    assert direct == [_verdict(check_play(board, 0, (6, 5), written)) for board, written in cases]
    assert [verdict[:2] for verdict in direct] == [(False, "larger_die_required"), (True, None), (True, None)]
