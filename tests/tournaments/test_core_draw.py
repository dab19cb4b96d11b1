"""Seed placement, rating seeding, club separation, late entries and places with plain objects."""

import pytest

from tournaments.core.draw import DrawEntrant, draw, late_entry_position, seed_order
from tournaments.core.errors import BracketError
from tournaments.core.layout import Key, Layout


def test_standard_seed_placement_keeps_the_top_seeds_apart():
    assert seed_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    order = seed_order(16)
    assert all(order[i] + order[i + 1] == 17 for i in range(0, 16, 2))
    assert order.index(1) < 8 <= order.index(2)  # 1 and 2 in different halves: they meet in the final at most


def test_seeded_draw_puts_the_best_rated_at_the_top_and_gives_them_the_byes():
    entrants = [
        DrawEntrant(name, rating=r) for name, r in [("a", 1500), ("b", 1900), ("c", 1700), ("d", 1600), ("e", 1800)]
    ]
    line = draw(entrants, rng_seed=0, seeded=True)
    assert line[0] == "b"  # seed 1 at the top
    byes_to = {line[i ^ 1] for i, key in enumerate(line) if key is None}
    assert byes_to == {"b", "e", "c"}  # the three best get the three byes


def test_players_of_one_club_are_kept_apart_in_round_one_when_possible():
    entrants = [DrawEntrant(i, club="x" if i < 4 else "y") for i in range(8)]
    for seed in range(20):
        line = draw(entrants, rng_seed=seed, separate_clubs=True)
        pairs = [(line[i], line[i + 1]) for i in range(0, 8, 2)]
        assert all((a < 4) != (b < 4) for a, b in pairs), line


def test_a_late_entrant_takes_a_bye_and_none_is_left_then():
    line = ["a", None, "b", "c"]
    assert late_entry_position(line) == 1
    with pytest.raises(BracketError):
        late_entry_position(["a", "d", "b", "c"])


def test_too_few_on_time_entrants_for_the_byes_is_refused():
    entrants = [DrawEntrant(1)] + [DrawEntrant(i, on_time=False) for i in range(2, 6)]  # 3 byes, 1 on time
    with pytest.raises(BracketError) as refused:
        draw(entrants, rng_seed=1)
    assert refused.value.field == "entries"


def test_places_by_elimination_round():
    knockout = Layout.knockout(32)
    assert [knockout.place_of_loser(Key("w", r, 0)) for r in (5, 4, 3, 2, 1)] == [2, 3, 5, 9, 17]
    double = Layout.double(8)
    assert double.place_of_loser(Key("w", 1, 0)) is None  # a first loss on the winners' side eliminates nobody
    assert double.place_of_loser(Key("g", 1, 0)) == 2
    assert double.place_of_loser(Key("l", 4, 0)) == 3


def test_progressive_consolation_feeds_round_f_losers_in_reverse_order():
    fed = Layout.fed(16, 3)
    assert [spec.feed for spec in fed.rounds("c")] == [1, 2, None, 3, None]
    assert fed.feed_target(2, 0).key == Key("c", 2, 3)
    assert fed.feed_target(3, 1).key == Key("c", 4, 0)
    assert fed.feed_target(4, 0) is None
