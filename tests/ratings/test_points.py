"""Points schemes: the worked example of docs/ratings.md, USBGF and ABT test vectors, shared places."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ratings.core.points import (
    abt_points,
    gammonpoints,
    strength_factor,
    usbgf_match_win,
    usbgf_placement,
)

KNOCKOUT_8 = [1, 2, 3, 3, 5, 5, 5, 5]


def knockout_places(field: int) -> list[int]:
    """Competition ranking of a full knockout of `field` (a power of two): 1, 2, 3, 3, 5×4, 9×8, …"""
    places, size = [1, 2], 2
    while len(places) < field:
        places += [size + 1] * size
        size *= 2
    return places


def test_worked_example_from_the_documentation():
    ratings = dict(zip("ABCDEFGH", [1700, 1650, 1600, 1600, 1550, 1500, 1450, 1350], strict=True))
    places = dict(zip("ABCDEFGH", KNOCKOUT_8, strict=True))
    points = gammonpoints(places, ratings)
    assert round(strength_factor(1550), 6) == 1.090508
    assert {k: round(v, 2) for k, v in points.items()} == {
        "A": 34.57, "B": 23.66, "C": 15.02, "D": 15.02, "E": 5.36, "F": 5.36, "G": 5.36, "H": 5.36,
    }  # fmt: skip


def test_players_eliminated_in_the_same_round_share_a_place_and_its_points():
    places = dict(enumerate(knockout_places(16)))
    points = gammonpoints(places, dict.fromkeys(places, 1500.0))
    by_place = {}
    for player, place in places.items():
        by_place.setdefault(place, set()).add(round(points[player], 9))
    assert all(len(values) == 1 for values in by_place.values())
    assert points[0] > points[1] > points[2] > points[4] > points[8]


def test_small_fields_earn_no_gammonpoints():
    places = dict(enumerate([1, 2, 3, 3, 5, 5, 5]))
    assert set(gammonpoints(places, dict.fromkeys(places, 1800.0)).values()) == {0.0}


@given(st.sampled_from([8, 16, 32, 64]), st.floats(1200, 2000), st.sampled_from([1, 2, 3, 5]))
def test_more_players_earn_more_for_the_same_place(field, sof, place):
    small = dict(enumerate(knockout_places(field)))
    large = dict(enumerate(knockout_places(field * 2)))
    in_small = gammonpoints(small, dict.fromkeys(small, sof))
    in_large = gammonpoints(large, dict.fromkeys(large, sof))
    player_small = next(p for p, pl in small.items() if pl == place)
    player_large = next(p for p, pl in large.items() if pl == place)
    assert in_large[player_large] > in_small[player_small] > 0


@given(st.floats(1000, 2200), st.floats(1, 400), st.sampled_from([8, 16, 32]))
def test_a_stronger_field_earns_more(sof, extra, field):
    places = dict(enumerate(knockout_places(field)))
    weaker = gammonpoints(places, dict.fromkeys(places, sof))
    stronger = gammonpoints(places, dict.fromkeys(places, sof + extra))
    assert all(stronger[p] > weaker[p] for p in places)


def test_usbgf_2019_test_vector_32_player_open_main():
    places = dict(enumerate(knockout_places(32)))
    points = usbgf_placement(places)
    assert [round(points[p], 6) for p in (0, 1, 2, 4)] == [3.0, 2.1, 1.5, 1.0]
    assert points[2] == points[3]  # both semi-finalists get the full 1.5 under the 2019 rule
    assert round(usbgf_match_win(7), 4) == 0.8819
    assert usbgf_placement(places, division_weight=0.7)[0] == pytest.approx(2.1)


def test_usbgf_2015_rule_splits_the_ranks_tied_players_span():
    points = usbgf_placement(dict(enumerate(knockout_places(32))), split_ties=True)
    assert points[2] == pytest.approx(3.0 * (1 / 2 + 1 / 3) / 2)


def test_abt_test_vectors_64_players():
    places = dict(enumerate(list(range(1, 9)) + [9] * 56))
    points = abt_points(places)
    assert [round(points[p], 3) for p in range(8)] == [21.333, 13.333, 8.667, 6.0, 4.667, 4.0, 3.333, 2.667]
    assert sum(points.values()) == pytest.approx(64)


def test_abt_three_way_tie_for_second_averages_the_factors():
    places = dict(enumerate([1, 2, 2, 2, 5, 6, 7, 8] + [9] * 56))
    points = abt_points(places)
    assert [round(points[p], 3) for p in (1, 2, 3)] == [9.333, 9.333, 9.333]
    assert abt_points(places, division_factor=0.5)[1] == pytest.approx(points[1] / 2)


@given(st.lists(st.integers(1, 6), min_size=2, max_size=40))
def test_abt_pays_out_the_whole_pool_and_never_more(raw):
    ordered = sorted(raw)
    places, previous, ranked = {}, None, 0
    for index, value in enumerate(ordered):
        if value != previous:
            ranked, previous = index + 1, value
        places[index] = ranked
    total = sum(abt_points(places).values())
    assert total == pytest.approx(len(places))
