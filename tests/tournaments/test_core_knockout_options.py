"""Property tests of the optional knockout matches: a grand-final reset happens exactly when the losers' side
wins the first final, and a third-place match ranks the semi-final losers 3 and 4."""

import random
from collections import Counter

from hypothesis import example, given, settings
from hypothesis import strategies as st

from tests.tournaments.test_core_properties import play_out
from tournaments.core import consequences
from tournaments.core.draw import DrawEntrant
from tournaments.core.engine import SimEvent
from tournaments.core.layout import Key, Layout

G1, G2, T1 = Key("g", 1, 0), Key("g", 2, 0), Key("t", 1, 0)


@settings(max_examples=40, deadline=None)
@given(n=st.integers(3, 256), seed=st.integers(0, 2**32 - 1))
@example(n=3, seed=0)
@example(n=256, seed=1)
def test_reset_final_is_played_exactly_when_the_losers_side_wins_the_first(n, seed):
    event = SimEvent()
    flight = event.add_flight("de", "double", reset=True)
    rng = random.Random(seed)
    event.draw("de", [DrawEntrant(i) for i in range(n)], rng_seed=seed)
    reported = play_out(event, rng)
    assert flight.finished
    assert all(e.place is not None for e in flight.entries.values())
    played = {key: (a, b, side, result) for name, key, a, b, side, result in reported}
    first = flight.decided[G1]
    second = flight.decided[G2]
    losers_side_won = first[1] is not None and flight.sides[G1][1] == first[1]
    if losers_side_won and first[0] == consequences.PLAYED:
        # the winners' finalist lost once: both play again
        assert G2 in played
        assert set(flight.sides[G2]) == {first[1], *first[2]}
    else:
        assert G2 not in played
        assert second[0] in (consequences.EMPTY, consequences.BYE)
    if first[0] == consequences.PLAYED and not losers_side_won:
        assert flight.champion == first[1]  # the winners' finalist won the first final: no second one
    winners = [e.id for e in flight.entries.values() if e.place == 1]
    assert winners == ([] if flight.champion is None else [flight.champion])
    if first[0] == consequences.PLAYED and second[0] != consequences.DOUBLE_FORFEIT:
        assert sum(1 for e in flight.entries.values() if e.place == 2) == 1


@settings(max_examples=40, deadline=None)
@given(n=st.integers(3, 300), seed=st.integers(0, 2**32 - 1))
@example(n=3, seed=5)
@example(n=4, seed=6)
@example(n=43, seed=1471)  # both semi-finals walkovers: neither absent loser reaches the third-place match
def test_third_place_match_ranks_the_semi_final_losers(n, seed):
    event = SimEvent()
    flight = event.add_flight("main", third_place=True)
    rng = random.Random(seed)
    event.draw("main", [DrawEntrant(i) for i in range(n)], rng_seed=seed)
    reported = play_out(event, rng)
    assert flight.finished and T1 in flight.decided
    assert all(e.place is not None for e in flight.entries.values())
    places = Counter(e.place for e in flight.entries.values())
    semi = len(flight.shape.rounds("w")) - 1
    semi_losers = {(b, a)[side] for name, key, a, b, side, result in reported if key == Key("w", semi, key.position)}
    t_result, t_winner, t_losers = flight.decided[T1]
    # A walkover routes its absent loser nowhere (consequences), so two walkover semi-finals leave the third-place
    # match empty and its two places shared, as a double forfeit does.
    if not any(r == consequences.DOUBLE_FORFEIT for *_x, r in reported) and t_result != consequences.EMPTY:
        assert all(places[p] <= 1 for p in (1, 2, 3, 4))
    if t_result == consequences.PLAYED:
        assert {t_winner, *t_losers} <= semi_losers
        assert flight.entries[t_winner].place == 3 and flight.entries[t_losers[0]].place == 4
    if all(r == consequences.PLAYED for *_x, r in reported):
        assert [places[p] for p in (1, 2, 3, 4)] == [1, 1, 1, 1 if n >= 4 else 0]


def test_places_with_the_options():
    assert Layout.double(8, reset=True).place_of_loser(Key("g", 2, 0)) == 2
    assert Layout.double(8, reset=True).place_of_loser(Key("l", 4, 0)) == 3  # the second final adds nobody
    knockout = Layout.knockout(16, third_place=True)
    assert [knockout.place_of_loser(Key("w", r, 0)) for r in (4, 2, 1)] == [2, 5, 9]
    assert knockout.place_of_loser(T1) == 4
    assert knockout.terminal_keys() == [Key("w", 4, 0), T1]
    assert Layout.knockout(16).terminal_keys() == [Key("w", 4, 0)]
