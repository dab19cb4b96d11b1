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


# --- every format's simulation (tournaments.core.chances samplers, tournaments.core.chances_bracket) ---------


def position_shares(sample, *, runs: int, seed: int) -> dict:
    """Each run's places read as a standard competition ranking: a place k held by h players covers the finishing
    positions k … k+h−1, each holder with a share 1/h of each. Every run must be such a ranking of everyone, so
    over the runs each position's shares add up to 1 over the entrants and each entrant's to 1 over the
    positions; a wrong ranking (a skipped or doubled position) breaks one of the sums."""
    rng = random.Random(seed)
    shares: dict = {}
    for _ in range(runs):
        places = sample(rng)
        held: dict[int, list] = {}
        for e, place in places.items():
            held.setdefault(place, []).append(e)
        for place, members in held.items():
            for e in members:
                row = shares.setdefault(e, {})
                for position in range(place, place + len(members)):
                    row[position] = row.get(position, 0.0) + 1 / len(members) / runs
    return shares


def assert_a_ranking_in_every_run(sample, entrants, *, runs=150, seed=5):
    shares = position_shares(sample, runs=runs, seed=seed)
    assert set(shares) == set(entrants)
    for row in shares.values():
        assert sum(row.values()) == pytest.approx(1.0)
    for position in range(1, len(entrants) + 1):
        assert sum(row.get(position, 0.0) for row in shares.values()) == pytest.approx(1.0), position
    places = chances.simulate_places(sample, runs=runs, seed=seed)
    for row in places.values():
        assert sum(row.values()) == pytest.approx(1.0)


@st.composite
def round_flights(draw, *, most: int = 10):
    """A field of 2 to `most` with random ratings, and some rounds already played (paired by the real Swiss
    pairing, random winners), the last of them possibly still open."""
    from tournaments.core import standings, swiss

    n = draw(st.integers(2, most))
    keys = list(range(n))
    ratings = {k: draw(st.floats(1200, 2000)) for k in keys}
    length = draw(st.sampled_from([1, 3, 5, 7]))
    most_rounds = n if n % 2 else n - 1
    rounds = draw(st.integers(1, min(most_rounds, 5)))
    played_rounds = draw(st.integers(0, rounds))
    games, met, open_tables = [], {k: set() for k in keys}, []
    for number in range(1, played_rounds + 1):
        table = standings.standings(keys, games)
        players = [swiss.SwissPlayer(r.key, r.wins, r.byes > 0, frozenset(met[r.key]), rank=r.rank) for r in table]
        for a, b in swiss.pair_round(players, rng_seed=1, round_number=number):
            if b is None:
                games.append(standings.Game(a, None, kind=standings.BYE, winner=a))
                continue
            met[a].add(b)
            met[b].add(a)
            if number == played_rounds and draw(st.booleans()):
                open_tables.append((a, b))
                continue
            winner = draw(st.sampled_from([a, b]))
            games.append(
                standings.Game(
                    a, b, winner=winner, points_a=length if winner == a else 0, points_b=length if winner == b else 0
                )
            )
    return {
        "keys": keys,
        "ratings": ratings,
        "length": length,
        "rounds": rounds,
        "played_rounds": played_rounds,
        "games": games,
        "met": met,
        "open_tables": open_tables,
    }


@settings(max_examples=25, deadline=None)
@given(round_flights(), st.booleans())
def test_a_swiss_and_a_triple_elimination_give_everyone_a_place_in_every_run(flight, triple):
    rule = chances.TripleRule() if triple else chances.SwissRule(rounds=flight["rounds"], until_one_unbeaten=False)
    sample = chances.swiss_sample(
        flight["keys"],
        played=flight["games"],
        open_tables=flight["open_tables"],
        met=flight["met"],
        ratings=flight["ratings"],
        length=flight["length"],
        rule=rule,
        played_rounds=flight["played_rounds"],
    )
    assert_a_ranking_in_every_run(sample, flight["keys"], runs=60)


@settings(max_examples=25, deadline=None)
@given(st.integers(2, 9), st.integers(1, 2), st.data())
def test_a_round_robin_and_groups_give_everyone_a_place_in_every_run(n, cycles, data):
    keys = list(range(n))
    ratings = {k: data.draw(st.floats(1200, 2000)) for k in keys}
    sample = chances.round_robin_sample(keys, played=[], ratings=ratings, length=5, cycles=cycles)
    assert_a_ranking_in_every_run(sample, keys, runs=60)
    size = data.draw(st.integers(1, n))
    groups = [keys[i : i + size] for i in range(0, n, size)]
    sample = chances.groups_sample(groups, played=[[] for _ in groups], ratings=ratings, length=3, cycles=cycles)
    assert_a_ranking_in_every_run(sample, keys, runs=60)


def test_a_swiss_leader_no_one_can_catch_is_first_for_certain():
    from tournaments.core import standings

    ratings = {"a": 1300, "b": 2100, "c": 2100, "d": 2100}
    played = [
        standings.Game("a", "b", winner="a", points_a=5, points_b=0),
        standings.Game("c", "d", winner="c", points_a=5, points_b=0),
        standings.Game("a", "c", winner="a", points_a=5, points_b=0),
    ]
    met = {"a": {"b", "c"}, "b": {"a"}, "c": {"a", "d"}, "d": {"c"}}
    sample = chances.swiss_sample(
        ["a", "b", "c", "d"],
        played=played,
        open_tables=[("b", "d")],
        met=met,
        ratings=ratings,
        length=5,
        rule=chances.SwissRule(rounds=2, until_one_unbeaten=False),
        played_rounds=2,
    )
    places = chances.simulate_places(sample, runs=300, seed=4)
    assert places["a"] == {1: 1.0}  # two wins; nobody else can reach two, however strong
    assert all(places[k].get(1, 0.0) == 0.0 for k in "bcd")
    assert places["b"].get(2, 0.0) + places["d"].get(2, 0.0) > 0.0  # the winner of the open table may share 2nd


def test_a_swiss_simulation_is_the_same_for_the_same_seed_and_pairs_later_rounds_without_rematches():
    from tournaments.core import standings

    keys = list(range(10))
    ratings = {k: 1400 + 40 * k for k in keys}
    sample = chances.swiss_sample(
        keys,
        played=[],
        open_tables=[],
        met={},
        ratings=ratings,
        length=7,
        rule=chances.SwissRule(rounds=4, until_one_unbeaten=False),
        played_rounds=0,
    )
    first = chances.simulate_places(sample, runs=200, seed=11)
    assert first == chances.simulate_places(sample, runs=200, seed=11)
    assert first != chances.simulate_places(sample, runs=200, seed=12)
    assert max(keys, key=lambda k: first[k].get(1, 0.0)) >= 7  # the strongest are the favourites
    games = []
    real = standings.standings
    try:
        standings.standings = lambda k, results, order=standings.DEFAULT_ORDER: (
            games.append(list(results)) or real(k, results, order)
        )
        sample(random.Random(1))
    finally:
        standings.standings = real
    pairs = [frozenset((g.a, g.b)) for g in games[-1] if g.b is not None]
    assert len(pairs) == 4 * 5 and len(set(pairs)) == len(pairs)  # four rounds of five tables, nobody met twice


def test_a_large_swiss_pairs_quickly_top_down_without_rematches():
    from tournaments.core.swiss import SwissPlayer

    players = [SwissPlayer(k, group=k // 10, rank=k, opponents=frozenset({k ^ 1}), had_bye=k == 9) for k in range(41)]
    pairs = chances.quick_pairs(players)
    assert pairs[-1] == (8, None)  # the lowest in pairing order (group 0, ranked last) without a bye
    assert pairs[0] == (40, 30)  # the top group of one floats down to the best of the next
    assert all(b not in {a ^ 1} for a, b in pairs if b is not None)
    assert sorted(k for p in pairs for k in p if k is not None) == list(range(41))


# --- brackets of every shape, played out in the in-memory engine -------------------------------------------


def _event(kind="knockout", *, players=8, third_place=False, reset=False, fed=None, feed_rounds=1):
    from tournaments.core.engine import SimEvent

    event = SimEvent()
    event.add_flight("main", kind, third_place=third_place, reset=reset)
    if fed:
        event.add_flight("fed", "fed", source="main", rule=fed, feed_rounds=feed_rounds)
    line = [f"p{i}" for i in range(players)]
    event.release("main", line)
    return event, line


def _sample(event, flight, ratings, length=5):
    from tournaments.core.chances_bracket import bracket_sample

    players = {e.player for f in event.flights.values() for e in f.entries.values()}
    return bracket_sample(
        event, flight=flight, entrants={p: p for p in players}, ratings=ratings, length_of=lambda _f, _k: length
    )


def test_the_event_wide_playing_out_of_a_knockout_agrees_with_the_exact_recursion():
    ratings = {f"p{i}": 1300 + 60 * i for i in range(8)}
    event, line = _event()
    runs = 3000
    simulated = chances.simulate_places(_sample(event, "main", ratings), runs=runs, seed=2)
    exact = chances.knockout_places(Knockout(line=line, decided={}, lengths=[5, 5, 5], ratings=ratings))
    for e, row in exact.items():
        for place, p in row.items():
            assert abs(simulated[e].get(place, 0.0) - p) <= 5 * math.sqrt(p * (1 - p) / runs) + 1e-9, (e, place)


@settings(max_examples=15, deadline=None)
@given(st.sampled_from(["double", "double_reset", "third_place", "consolation", "progressive"]), st.data())
def test_every_bracket_shape_places_everyone_once_in_every_run(shape, data):
    from tournaments.core import consequences

    players = data.draw(st.sampled_from([4, 8, 16]))
    ratings = {f"p{i}": data.draw(st.floats(1200, 2000)) for i in range(players)}
    if shape.startswith("double"):
        event, line = _event("double", players=players, reset=shape == "double_reset")
    elif shape == "third_place":
        event, line = _event(players=players, third_place=True)
    else:
        rule = consequences.FIRST_PLAYED if shape == "consolation" else consequences.PROGRESSIVE
        event, line = _event(players=players, fed=rule, feed_rounds=2)
    # some of round 1 played already
    for _name, key, _a, _b in [r for r in event.ready() if r[0] == "main"][: data.draw(st.integers(0, 2))]:
        event.report("main", key, data.draw(st.integers(0, 1)))
    assert_a_ranking_in_every_run(_sample(event, "main", ratings), line, runs=40)
    if "fed" in event.flights:
        sample = _sample(event, "fed", ratings)
        places = chances.simulate_places(sample, runs=40, seed=1)
        # the consolation takes the main's round-1 losers (half the field), a progressive one round 2's too
        fed = players // 2 + (players // 4 if shape == "progressive" else 0)
        assert sum(row.get(chances.NOT_THERE, 0.0) for row in places.values()) == pytest.approx(players - fed)
        for row in places.values():
            assert sum(row.values()) == pytest.approx(1.0)


def test_a_double_elimination_favours_the_strongest_and_a_decided_result_holds():
    ratings = {f"p{i}": 1500 for i in range(8)} | {"p0": 2000}
    event, _line = _event("double")
    _name, key, a, _b = next(r for r in event.ready() if r[0] == "main")
    assert event.flights["main"].entries[a].player == "p0"  # first on the line
    event.report("main", key, 1)  # p0 loses round 1: into the losers' side, not out
    places = chances.simulate_places(_sample(event, "main", ratings), runs=400, seed=3)
    before = chances.simulate_places(_sample(_event("double")[0], "main", ratings), runs=400, seed=3)
    assert before["p0"][1] > places["p0"].get(1, 0.0) > 1 / 8  # the loss costs them; still the favourite
    assert max(places, key=lambda p: places[p].get(1, 0.0)) == "p0"
