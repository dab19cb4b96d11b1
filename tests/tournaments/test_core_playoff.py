"""The playoff for 2nd in the pure bracket core: its slot, who reaches it and what it decides."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.core import consequences
from tournaments.core.errors import BracketError
from tournaments.core.layout import Key, Layout, P, Target, W

sizes = st.sampled_from([2, 4, 8, 16, 32, 64, 128])


@given(sizes)
def test_the_final_loser_goes_to_the_playoff_which_ends_the_flight_with_the_final(size):
    layout = Layout.for_flight(size=size, playoff_second=True)
    final = Key(W, len(layout.rounds(W)), 0)
    playoff = Key(P, 1, 0)
    assert layout.terminal_keys() == [final, playoff]
    assert layout.internal_loser_target(final) == Target(playoff, 0)
    assert layout.winner_target(playoff) is None and not Layout.counts_as_bye(playoff)
    assert layout.length_round(playoff) == final.round and not layout.is_final(playoff)
    plain = Layout.for_flight(size=size)
    for key in plain.slot_keys():  # every other elimination place is the plain knockout's
        assert layout.place_of_loser(key) == plain.place_of_loser(key)


@given(sizes, st.sampled_from([consequences.PLAYED, consequences.WALKOVER]), st.integers(0, 1))
def test_the_playoff_places_only_the_finalist(size, result, winner_side):
    layout = Layout.for_flight(size=size, playoff_second=True)
    finalist, challenger = consequences.EntryFacts(1, 0, True), consequences.EntryFacts(2, 5, True)
    winner, loser = (finalist, challenger) if winner_side == 0 else (challenger, finalist)
    actions = consequences.consequences(
        layout=layout, key=Key(P, 1, 0), result=result, winner=winner, losers=(loser,), feed=None,
        winner_side=winner_side,
    )  # fmt: skip
    assert actions == [consequences.Out(1, 2 if winner_side == 0 else 3)]


def test_a_playoff_and_a_third_place_match_are_refused_together():
    with pytest.raises(BracketError) as refused:
        Layout.knockout(8, third_place=True, playoff_second=True)
    assert refused.value.code == "playoff_with_third_place"
