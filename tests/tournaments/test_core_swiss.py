"""Swiss and triple elimination pairing: no rematch while a legal pairing exists (checked against brute force
on up to ten players), at most one bye per player, reproducible from the seed, and a triple elimination that
ends with one player under three losses."""

import random

from hypothesis import example, given, settings
from hypothesis import strategies as st

from tournaments.core.errors import BracketError
from tournaments.core.swiss import (
    TRIPLE_OUT,
    SwissPlayer,
    check_settings,
    pair_round,
    swiss_is_over,
    triple_places,
    triple_players,
)


def _legal_pairing_exists(players: list[SwissPlayer]) -> bool:
    """Brute force: is there a pairing without a rematch whose bye (odd field) goes to a player without one?"""
    keys = [p.key for p in players]
    met = {p.key: p.opponents for p in players}
    eligible = {p.key for p in players if not p.had_bye} or set(keys)

    def pairs_up(rest: list) -> bool:
        if not rest:
            return True
        first, others = rest[0], rest[1:]
        return any(b not in met[first] and pairs_up(others[:i] + others[i + 1 :]) for i, b in enumerate(others))

    if len(keys) % 2 == 0:
        return pairs_up(keys)
    return any(pairs_up([k for k in keys if k != bye]) for bye in eligible)


@st.composite
def fields(draw):
    n = draw(st.integers(2, 10))
    keys = list(range(n))
    opponents = {k: set() for k in keys}
    for a in keys:
        for b in keys[a + 1 :]:
            if draw(st.booleans()):
                opponents[a].add(b)
                opponents[b].add(a)
    return [
        SwissPlayer(k, group=draw(st.integers(0, 3)), had_bye=draw(st.booleans()), opponents=frozenset(opponents[k]))
        for k in keys
    ]


def _rematches(players, pairs):
    met = {p.key: p.opponents for p in players}
    return [(a, b) for a, b in pairs if b is not None and b in met[a]]


@settings(max_examples=200, deadline=None)
@given(players=fields(), seed=st.integers(0, 2**32 - 1))
def test_no_rematch_and_a_legal_bye_whenever_brute_force_finds_a_legal_pairing(players, seed):
    pairs = pair_round(players, rng_seed=seed, round_number=1)
    seated = [k for pair in pairs for k in pair if k is not None]
    assert sorted(seated) == sorted(p.key for p in players)  # everyone plays once, or has the bye
    byes = [a for a, b in pairs if b is None]
    assert len(byes) == len(players) % 2
    if _legal_pairing_exists(players):
        assert _rematches(players, pairs) == []
        had = {p.key for p in players if p.had_bye}
        assert not set(byes) & had or had == {p.key for p in players}


def _play_swiss(n: int, rounds: int, seed: int, results: random.Random):
    keys = list(range(n))
    wins = dict.fromkeys(keys, 0)
    byes: dict = dict.fromkeys(keys, 0)
    opponents: dict = {k: set() for k in keys}
    history = []
    for round_number in range(1, rounds + 1):
        ranked = sorted(keys, key=lambda k: -wins[k])
        players = [SwissPlayer(k, wins[k], byes[k] > 0, frozenset(opponents[k])) for k in ranked]
        pairs = pair_round(players, rng_seed=seed, round_number=round_number)
        history.append(pairs)
        for a, b in pairs:
            if b is None:
                byes[a] += 1
                wins[a] += 1
                continue
            opponents[a].add(b)
            opponents[b].add(a)
            wins[a if results.random() < 0.5 else b] += 1
    return history, byes


@settings(max_examples=40, deadline=None)
@given(n=st.integers(2, 40), seed=st.integers(0, 2**32 - 1))
@example(n=7, seed=0)
def test_a_swiss_gives_at_most_one_bye_each_and_never_a_rematch_in_few_rounds(n, seed):
    rounds = min(5, n - 1 if n % 2 == 0 else n)
    history, byes = _play_swiss(n, rounds, seed, random.Random(seed))
    assert max(byes.values()) <= 1
    pairs = [frozenset(p) for round_pairs in history for p in round_pairs if p[1] is not None]
    if n >= 12:  # a large field always has a rematch-free round within five rounds
        assert len(pairs) == len(set(pairs))


@given(n=st.integers(2, 30), seed=st.integers(0, 2**32 - 1))
@settings(max_examples=25, deadline=None)
def test_the_same_seed_pairs_the_same_rounds(n, seed):
    first, _ = _play_swiss(n, 3, seed, random.Random(1))
    again, _ = _play_swiss(n, 3, seed, random.Random(1))
    assert first == again


def test_a_different_seed_pairs_differently():
    first, _ = _play_swiss(32, 1, 1, random.Random(1))
    other, _ = _play_swiss(32, 1, 2, random.Random(1))
    assert first != other


def test_score_groups_pair_among_themselves_and_an_odd_group_floats_one_down():
    players = [SwissPlayer(k, group=g) for k, g in [("a", 2), ("b", 2), ("c", 2), ("d", 1), ("e", 1), ("f", 1)]]
    pairs = pair_round(players, rng_seed=3, round_number=2)
    groups = {p.key: p.group for p in players}
    mixed = [pair for pair in pairs if groups[pair[0]] != groups[pair[1]]]
    assert len(mixed) == 1


def test_the_bye_goes_to_the_lowest_ranked_player_without_one():
    players = [SwissPlayer(k, group=g, had_bye=k == "e") for k, g in [("a", 2), ("b", 1), ("c", 1), ("d", 0), ("e", 0)]]
    pairs = pair_round(players, rng_seed=5, round_number=3)
    assert pairs[-1][1] is None
    assert pairs[-1][0] == "d"


@settings(max_examples=40, deadline=None)
@given(n=st.integers(2, 64), seed=st.integers(0, 2**32 - 1))
@example(n=2, seed=0)
@example(n=3, seed=0)
def test_triple_elimination_ends_with_one_player_under_three_losses(n, seed):
    rng = random.Random(seed)
    keys = list(range(n))
    losses = dict.fromkeys(keys, 0)
    byes: set = set()
    opponents: dict = {k: set() for k in keys}
    out_round: dict = {}
    round_number = 0
    while len(alive := triple_players(keys, losses=losses, byes=byes, opponents=opponents)) > 1:
        round_number += 1
        assert round_number <= 3 * n  # every round with two players adds a loss
        for a, b in pair_round(alive, rng_seed=seed, round_number=round_number):
            if b is None:
                byes.add(a)
                continue
            assert losses[a] < TRIPLE_OUT and losses[b] < TRIPLE_OUT
            opponents[a].add(b)
            opponents[b].add(a)
            loser = a if rng.random() < 0.5 else b
            losses[loser] += 1
            if losses[loser] == TRIPLE_OUT:
                out_round[loser] = round_number
    assert sum(1 for k in keys if losses[k] < TRIPLE_OUT) == 1
    places = triple_places(keys, losses=losses, out_round=out_round)
    assert sorted(places.values())[0] == 1 and list(places.values()).count(1) == 1
    last_out = max(out_round, key=out_round.get)
    assert places[last_out] == 2


def test_triple_elimination_pairs_equal_losses_together():
    players = triple_players(["a", "b", "c", "d"], losses={"a": 0, "b": 1, "c": 0, "d": 1}, byes=set(), opponents={})
    pairs = pair_round(players, rng_seed=1, round_number=2)
    losses = {"a": 0, "b": 1, "c": 0, "d": 1}
    assert all(losses[a] == losses[b] for a, b in pairs)


def test_players_out_in_the_same_round_share_a_place():
    places = triple_places(
        ["a", "b", "c", "d"], losses={"a": 2, "b": 3, "c": 3, "d": 3}, out_round={"b": 5, "c": 5, "d": 2}
    )
    assert places == {"a": 1, "b": 2, "c": 2, "d": 4}


def test_a_swiss_ends_after_its_rounds_or_with_one_unbeaten():
    assert swiss_is_over(rounds=5, until_one_unbeaten=False, played_rounds=5, unbeaten=3)
    assert not swiss_is_over(rounds=5, until_one_unbeaten=False, played_rounds=4, unbeaten=1)
    assert swiss_is_over(rounds=None, until_one_unbeaten=True, played_rounds=3, unbeaten=1)
    assert not swiss_is_over(rounds=None, until_one_unbeaten=True, played_rounds=3, unbeaten=2)


def test_impossible_settings_are_refused_with_what_works():
    for kwargs, code in [
        ({"rounds": None, "until_one_unbeaten": False, "entrants": 8}, "swiss_needs_an_end"),
        ({"rounds": 8, "until_one_unbeaten": False, "entrants": 8}, "too_many_rounds"),
    ]:
        try:
            check_settings(**kwargs)
        except BracketError as error:
            assert error.code == code
        else:
            raise AssertionError(code)
    check_settings(rounds=7, until_one_unbeaten=False, entrants=8)
    check_settings(rounds=7, until_one_unbeaten=False, entrants=7)
