"""FIBS formula: the published test vectors (docs/ratings.md) to 6 decimals, both K rules, and properties of replay."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ratings.core.fibs import favourite_win_probability, k_factor, rate, replay, replay_lazily, upset_probability

EXPERIENCED = 10_000


def test_tv1_equal_ratings_one_point():
    result = rate(winner_rating=1500, loser_rating=1500, winner_experience=400, loser_experience=400, length=1)
    assert result.winner_change == pytest.approx(2.0, abs=1e-6)
    assert result.loser_change == pytest.approx(-2.0, abs=1e-6)


def test_tv2_favourite_wins():
    result = rate(
        winner_rating=1850, loser_rating=1750, winner_experience=EXPERIENCED, loser_experience=EXPERIENCED, length=5
    )
    assert round(result.upset_probability, 6) == 0.435994
    assert round(result.winner_change, 6) == 3.899648
    assert round(result.loser_change, 6) == -3.899648
    assert not result.upset


def test_tv3_underdog_wins():
    result = rate(
        winner_rating=1750, loser_rating=1850, winner_experience=EXPERIENCED, loser_experience=EXPERIENCED, length=5
    )
    assert round(result.winner_change, 6) == 5.044624
    assert round(result.loser_change, 6) == -5.044624
    assert result.upset


@pytest.mark.parametrize("rule, winner_gain", [("a", 41.533996), ("b", 40.952520)])
def test_tv4_newcomer_beats_veteran(rule, winner_gain):
    result = rate(
        winner_rating=1500, loser_rating=1925, winner_experience=0, loser_experience=10_000, length=7, k_rule=rule
    )
    assert round(result.loser_change, 6) == -8.306799
    assert round(result.winner_change, 6) == winner_gain


@pytest.mark.parametrize("rule, gain, loss", [("a", 11.229429, -20.212973), ("b", 10.915005, -19.898549)])
def test_tv5_both_sides_still_learning(rule, gain, loss):
    result = rate(
        winner_rating=1600, loser_rating=1500, winner_experience=250, loser_experience=50, length=7, k_rule=rule
    )
    assert round(result.winner_change, 6) == gain
    assert round(result.loser_change, 6) == loss


@pytest.mark.parametrize(
    "diff, length, expected",
    [(100, 1, 0.529), (100, 5, 0.564), (100, 11, 0.594), (300, 1, 0.585), (300, 5, 0.684), (300, 11, 0.759)],
)
def test_favourite_win_probability_table(diff, length, expected):
    assert round(favourite_win_probability(diff, length), 3) == expected


def test_k_rule_and_length_are_checked():
    assert k_factor(0, 7, "a") == 5.0 and k_factor(0, 7, "b") == pytest.approx(4.93)
    assert k_factor(10_000, 1) == 1.0
    with pytest.raises(ValueError, match="K rule"):
        k_factor(0, 1, "c")
    with pytest.raises(ValueError, match="fixed length"):
        rate(winner_rating=1500, loser_rating=1500, winner_experience=0, loser_experience=0, length=0)


ratings = st.floats(min_value=800, max_value=2400, allow_nan=False)
experience = st.integers(min_value=0, max_value=5000)
lengths = st.integers(min_value=1, max_value=25)


@given(ratings, ratings, experience, lengths)
def test_equal_k_makes_changes_zero_sum(r1, r2, exp, length):
    result = rate(winner_rating=r1, loser_rating=r2, winner_experience=exp, loser_experience=exp, length=length)
    assert result.winner_change + result.loser_change == pytest.approx(0.0, abs=1e-9)
    assert result.winner_change > 0 > result.loser_change


@given(ratings, ratings, lengths)
def test_an_upset_pays_more_than_the_expected_win(r1, r2, length):
    low, high = sorted((r1, r2))
    upset = rate(winner_rating=low, loser_rating=high, winner_experience=500, loser_experience=500, length=length)
    expected = rate(winner_rating=high, loser_rating=low, winner_experience=500, loser_experience=500, length=length)
    assert upset.winner_change >= expected.winner_change - 1e-9
    assert upset_probability(high - low, length) <= 0.5


match_streams = st.lists(
    st.tuples(st.integers(0, 7), st.integers(0, 7), lengths).filter(lambda t: t[0] != t[1]), max_size=60
)


@given(match_streams, st.sampled_from(["a", "b"]))
def test_replay_agrees_with_rate_and_is_deterministic(stream, rule):
    matches = [(i, w, lo, n) for i, (w, lo, n) in enumerate(stream)]
    rows, state = replay(matches, k_rule=rule)
    again, state_again = replay(matches, k_rule=rule)
    assert rows == again and state == state_again
    ratings_now = {}
    for _, w, lo, n, rw, rl, ew, el, *_rest, gain, loss in rows:
        assert rw == ratings_now.get(w, 1500.0) and rl == ratings_now.get(lo, 1500.0)
        one = rate(winner_rating=rw, loser_rating=rl, winner_experience=ew, loser_experience=el, length=n, k_rule=rule)
        assert (one.winner_change, one.loser_change) == pytest.approx((gain, loss))
        ratings_now[w], ratings_now[lo] = rw + gain, rl + loss
    assert {p: s[0] for p, s in state.items()} == ratings_now


@given(match_streams)
def test_replay_from_a_midpoint_state_equals_the_full_replay(stream):
    matches = [(i, w, lo, n) for i, (w, lo, n) in enumerate(stream)]
    cut = len(matches) // 2
    full_rows, full_state = replay(matches)
    head_rows, state = replay(matches[:cut])
    tail_rows, state = replay(matches[cut:], state)
    assert head_rows + tail_rows == full_rows and state == full_state


@given(match_streams, st.sampled_from(["a", "b"]))
def test_a_lazy_replay_gives_the_rows_one_by_one_and_each_moves_the_state_as_it_is_taken(stream, rule):
    """What a pool's rebuild writes while it rates: the same rows as replay, and the state after a row is the
    state after that match (so a row taken is a row counted)."""
    matches = [(i, w, lo, n) for i, (w, lo, n) in enumerate(stream)]
    rows, state = replay(matches, k_rule=rule)
    lazy_state: dict = {}
    lazy = replay_lazily(matches, lazy_state, rule)
    for n, row in enumerate(lazy):
        assert row == rows[n]
        _, w, lo, length, rw, rl, ew, el, *_rest, gain, loss = row
        assert lazy_state[w][:2] == [rw + gain, ew + length] and lazy_state[lo][:2] == [rl + loss, el + length]
    assert lazy_state == state


def test_a_lazy_replay_refuses_an_unknown_k_rule_when_called_not_when_first_read():
    with pytest.raises(ValueError, match="unknown K rule"):
        replay_lazily([(1, 1, 2, 3)], {}, "c")
