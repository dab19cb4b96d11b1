"""Win chances and place chances (tournaments.core.chances): the FIBS rule, the exact knockout recursion and its
agreement with a seeded simulation."""

import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ratings.core.fibs import favourite_win_probability, rate
from tournaments.core import chances
from tournaments.core.chances import Knockout


def test_a_match_chance_is_the_fibs_formula_and_grows_with_the_length():
    fav, dog = chances.match_chances(1700, 1500, 7)
    assert fav == pytest.approx(favourite_win_probability(200, 7))
    assert fav + dog == pytest.approx(1.0)
    # the rating change uses the same number: an upset's P is the favourite's chance
    upset = rate(winner_rating=1500, loser_rating=1700, winner_experience=0, loser_experience=0, length=7)
    assert upset.winner_change == pytest.approx(4 * 5 * math.sqrt(7) * fav)
    assert chances.match_chances(1700, 1500, 11)[0] > fav > chances.match_chances(1700, 1500, 1)[0] > 0.5
    assert chances.match_chances(1500, 1500, 5) == (0.5, 0.5)


def test_two_equal_players_in_a_final_each_have_half_of_first_and_second():
    bracket = Knockout(line=["a", "b"], decided={}, lengths=[7], ratings={"a": 1500, "b": 1500})
    assert chances.knockout_places(bracket) == {"a": {1: 0.5, 2: 0.5}, "b": {1: 0.5, 2: 0.5}}


def test_a_decided_match_is_certain_and_a_bye_lets_the_other_side_through():
    ratings = {"a": 1500, "b": 1900, "c": 1500}
    bracket = Knockout(line=["a", "b", "c", None], decided={(1, 0): "a"}, lengths=[5, 7], ratings=ratings)
    places = chances.knockout_places(bracket)
    assert places["b"] == {3: 1.0}  # lost round 1 (of 2): third
    assert places["a"] == {1: 0.5, 2: 0.5}  # a and c are equal; c walked through the bye
    assert places["c"] == {1: 0.5, 2: 0.5}


def brackets():
    """A knockout of 2 to 32 places with random ratings, byes, lengths and some decided round-1 matches."""

    @st.composite
    def build(draw):
        rounds = draw(st.integers(1, 5))
        size = 2**rounds
        entrants = list(range(size))
        byes = draw(st.sets(st.integers(0, size - 1), max_size=size // 2 - 1 if size > 2 else 0))
        line = [None if i in byes and (i ^ 1) not in byes else i for i in entrants]
        ratings = {i: draw(st.floats(1000, 2200)) for i in entrants}
        lengths = [draw(st.integers(1, 13)) for _ in range(rounds)]
        decided = {}
        for p in range(size // 2):
            a, b = line[2 * p], line[2 * p + 1]
            if a is not None and b is not None and draw(st.booleans()):
                decided[(1, p)] = draw(st.sampled_from([a, b]))
        return Knockout(line=line, decided=decided, lengths=lengths, ratings=ratings)

    return build()


@settings(max_examples=60, deadline=None)
@given(brackets())
def test_place_chances_add_up_per_entrant_and_per_place(bracket):
    places = chances.knockout_places(bracket)
    assert set(places) == {e for e in bracket.line if e is not None}
    for row in places.values():
        assert sum(row.values()) == pytest.approx(1.0)
        assert all(0.0 <= c <= 1.0 + 1e-12 for c in row.values())
    # over the entrants, a place's chances add up to its holders: 1 for the winner, one per match a round
    # actually plays for its losers' place (a slot with a bye has no loser)
    sides = [e is not None for e in bracket.line]
    held = {1: 1}
    for r in range(1, bracket.rounds + 1):
        held[bracket.place_of_loser(r)] = sum(1 for p in range(len(sides) // 2) if sides[2 * p] and sides[2 * p + 1])
        sides = [sides[2 * p] or sides[2 * p + 1] for p in range(len(sides) // 2)]
    totals = chances.holders(places)
    for place, n in held.items():
        assert totals.get(place, 0.0) == pytest.approx(n, abs=1e-9)
    # so the share of a place each entrant can expect adds up to 1 over the entrants
    for place, n in held.items():
        if n:
            assert sum(row.get(place, 0.0) / n for row in places.values()) == pytest.approx(1.0)


@settings(max_examples=8, deadline=None)
@given(brackets())
def test_the_exact_knockout_agrees_with_the_simulation_within_sampling_error(bracket):
    runs = 4000
    exact = chances.knockout_places(bracket)
    simulated = chances.simulate_places(chances.knockout_sample(bracket), runs=runs, seed=7)
    for e, row in exact.items():
        for place, p in row.items():
            sigma = math.sqrt(p * (1 - p) / runs)
            assert abs(simulated[e].get(place, 0.0) - p) <= 5 * sigma + 1e-9, (e, place)


def test_the_simulation_is_the_same_for_the_same_seed():
    bracket = Knockout(line=list(range(8)), decided={}, lengths=[5], ratings={i: 1500 + 50 * i for i in range(8)})
    sample = chances.knockout_sample(bracket)
    assert chances.simulate_places(sample, runs=500, seed=3) == chances.simulate_places(sample, runs=500, seed=3)


def test_the_expected_prize_is_the_chance_of_each_paid_place_times_its_share():
    places = {"a": {1: 0.75, 2: 0.25}, "b": {1: 0.25, 2: 0.75}}
    prizes = chances.expected_prizes(places, {1: 6000, 2: 4000}, {1: 1, 2: 1})
    assert prizes == {"a": pytest.approx(5500), "b": pytest.approx(4500)}
    assert sum(prizes.values()) == pytest.approx(10000)


def test_before_the_draw_the_simulation_draws_as_the_flight_will_and_a_seeded_favourite_fares_better():
    from tournaments.core.draw import DrawEntrant

    entrants = [DrawEntrant(i, rating=2100 if i == 0 else 1500) for i in range(6)]
    first = {}
    for seeded in (False, True):
        sample = chances.undrawn_knockout_sample(entrants, [7, 7, 7], seeded=seeded)
        places = chances.simulate_places(sample, runs=1500, seed=1)
        assert set(places) == set(range(6))
        for row in places.values():
            assert sum(row.values()) == pytest.approx(1.0)
        assert chances.holders(places) == pytest.approx({1: 1, 2: 1, 3: 2, 5: 2})  # 2 byes: 2 round-1 losers
        first[seeded] = places[0][1]
    assert first[True] > first[False]  # seed 1 always takes a bye: two matches to win the flight, not three


def test_a_round_robin_is_played_out_by_its_own_schedule_and_standings(monkeypatch):
    from tournaments.core import standings

    entrants = ["a", "b", "c", "d", "e"]
    ratings = {"a": 2000, "b": 1500, "c": 1500, "d": 1500, "e": 1500}
    played = [standings.Game("b", "c", winner="b", points_a=5, points_b=2)]
    sample = chances.round_robin_sample(entrants, played=played, ratings=ratings, length=5)
    places = chances.simulate_places(sample, runs=800, seed=2)
    for row in places.values():
        assert sum(row.values()) == pytest.approx(1.0)
    assert max(places, key=lambda e: places[e].get(1, 0.0)) == "a"
    assert places["b"].get(1, 0.0) > places["c"].get(1, 0.0)  # b already beat c
    # a full schedule: every pair played once (ten games; the one played is not played again)
    games = []
    real = standings.standings
    monkeypatch.setattr(
        standings, "standings", lambda keys, results, order: games.append(list(results)) or real(keys, results, order)
    )
    sample(random.Random(1))
    pairs = [frozenset((g.a, g.b)) for g in games[0] if g.b is not None]
    assert len(pairs) == 10 and len(set(pairs)) == 10
    assert sum(1 for g in games[0] if g.b is None) == 5  # five entrants: each sits out once (a bye)
