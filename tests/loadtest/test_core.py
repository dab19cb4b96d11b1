"""The load test's own arithmetic and integrity checks (loadtest/core.py): the percentiles it prints, and each
checker fed a sound state (no problem) and a deliberately corrupted one (the problem named)."""

import math

import pytest

from loadtest.core import (
    Baseline,
    BidRow,
    SlotRow,
    Tally,
    check_auction,
    check_bracket,
    check_ledger,
    check_override,
    check_verdicts,
    percentile,
    ratio,
    report_lines,
)


def test_percentile_is_the_nearest_rank():
    values = [v / 1000 for v in range(1, 101)]  # 1 ms … 100 ms, shuffled order must not matter
    assert percentile(list(reversed(values)), 0.99) == 0.099
    assert percentile(values, 0.5) == 0.050
    assert percentile(values, 1.0) == 0.100
    assert percentile([0.2], 0.99) == 0.2
    assert math.isnan(percentile([], 0.99))
    with pytest.raises(ValueError):
        percentile(values, 0)


def test_one_slow_request_in_a_hundred_is_the_p99():
    values = [0.010] * 99 + [2.0]
    assert percentile(values, 0.99) == 0.010
    assert percentile([0.010] * 98 + [2.0, 2.0], 0.99) == 2.0


def test_ratio_and_lines_against_the_baseline():
    static = Tally("static", latencies=[0.01] * 200, ok=200, seconds=2.0)
    gunicorn = Tally("gunicorn_static", latencies=[0.01] * 400, ok=400, seconds=2.0)
    page = Tally("bracket_page", latencies=[0.02] * 99 + [0.5], ok=100, seconds=4.0)
    assert ratio(page, static) == pytest.approx(0.25)
    floor = Tally("django_floor", latencies=[0.01] * 100, ok=100, seconds=2.0)
    lines = report_lines(page, Baseline(static, gunicorn, floor), min_ratio=0.5, max_p99_ms=150)
    assert lines[0] == "loadtest_bracket_page_ratio_vs_static: 0.25 (goal >= 0.5) MISSED"
    assert lines[1] == "loadtest_bracket_page_ratio_vs_gunicorn_static: 0.12"
    assert lines[2] == "loadtest_bracket_page_ratio_vs_django_floor: 0.50"
    assert "loadtest_bracket_page_p99: 20 ms (goal <= 150 ms)" in lines
    assert "loadtest_bracket_page_errors: 0" in lines


def test_tally_classes_answers_and_errors_do_not_count_as_throughput():
    tally = Tally("x", seconds=2.0)
    tally.add(0.1, "ok")
    tally.add(0.1, "refused")
    for _ in range(10):
        tally.add(0.001, "error", "GET /: 500")
    assert (tally.ok, tally.refused, tally.errors, tally.requests) == (1, 1, 10, 12)
    assert tally.throughput == 1.0
    assert tally.error_samples == ["GET /: 500"] * 5


def test_a_sound_auction_passes():
    bids = [BidRow(1, 3, 10, 100), BidRow(2, 3, 11, 200), BidRow(3, 3, 10, 400)]
    assert check_auction(bids, high={3: (10, 400)}, accepted=3) == []


def test_bids_that_do_not_increase_or_a_second_high_bid_fail():
    bids = [BidRow(1, 3, 10, 100), BidRow(2, 3, 11, 200), BidRow(3, 3, 12, 200)]
    problems = check_auction(bids, high={3: (11, 200)}, accepted=3)
    assert any("does not beat 200" in p for p in problems)
    assert any("high bid is (11, 200)" in p for p in problems)


def test_a_lost_or_invented_bid_fails():
    bids = [BidRow(1, 3, 10, 100), BidRow(1, 3, 11, 200)]
    problems = check_auction(bids, high={3: (11, 200)}, accepted=3)
    assert "calcutta: step 1 holds 2 bids" in problems
    assert "calcutta: 2 bids stored, 3 accepted by the server" in problems


def test_a_balanced_ledger_passes_and_an_unbalanced_one_fails():
    games = {1: {1: 300, 2: -100, 3: -200}, 2: {1: -300, 2: 150, 3: 150}}
    assert check_ledger(games, accepted=2, replayed=games) == []
    broken = {1: {1: 300, 2: -100, 3: -100}, 3: {1: 0, 2: 0, 3: 0}}
    problems = check_ledger(broken, accepted=3, replayed=games)
    assert "chouette: game 1 ledger sums to 100, not 0" in problems
    assert any("are not 1..2" in p for p in problems)
    assert "chouette: 2 games stored, 3 accepted by the server" in problems
    assert "chouette: the stored ledger differs from a replay of the session's events" in problems


def _four_players(winner_first: int | None = 1, next_a: int | None = 1) -> list[SlotRow]:
    return [
        SlotRow(1, 0, 1, 2, winner_first, match=100),
        SlotRow(1, 1, 3, 4, 3, match=101),
        SlotRow(2, 0, next_a, 3, None, match=102),
    ]


def test_a_sound_bracket_passes():
    assert check_bracket(_four_players(), confirmed=[100, 101]) == []


def test_a_winner_missing_from_the_next_round_or_there_twice_fails():
    assert check_bracket(_four_players(next_a=None)) == ["bracket: r1/0 winner 1 is not in the next slot (found None)"]
    twice = _four_players() + [SlotRow(2, 1, 1, None, None)]
    assert "bracket: entry 1 appears 2 times in round 2" in check_bracket(twice)


def test_a_winner_who_did_not_play_or_a_confirmed_match_undecided_fails():
    slots = _four_players(winner_first=4, next_a=4)
    assert "bracket: r1/0 winner 4 did not play there" in check_bracket(slots)
    undecided = _four_players(winner_first=None, next_a=None)
    assert check_bracket(undecided, confirmed=[100]) == ["bracket: match 100 was confirmed but its slot is not decided"]


def test_an_override_state_matches_a_serial_order_or_fails():
    assert check_override(1, [1, 2], 1) == []
    assert check_override(2, [1, 2], 2) == []
    assert check_override(1, [1, 2], 2) == ["override: the next round holds 2, the winner is 1"]
    assert check_override(None, [1, 2], None) == ["override: the winner None is none of the overrides' [1, 2]"]


def test_every_accepted_record_needs_a_verdict():
    finished = ("valid", "invalid", "unreadable")
    assert check_verdicts({1: "valid", 2: "invalid"}, uploaded=2, finished=finished) == []
    problems = check_verdicts({1: "valid", 2: "pending"}, uploaded=3, finished=finished)
    assert problems == ["uploads: 2 records stored, 3 uploaded", "uploads: 1 records have no verdict (e.g. [2])"]
