"""The tie-break core against a standings table worked out by hand.

Six players, three Swiss rounds (match points in brackets):
R1 A>B (7-3), C>D (7-5), E>F (7-2); R2 A>C (7-6), B>E (7-1), D>F (7-0); R3 E>A (7-6), B>D (7-4), C>F (7-5).

    player wins opponents (their wins)  Buchholz median SB  points for-against
    A      2    B2 C2 E2                6        2      4   20-16
    B      2    A2 E2 D1                5        2      3   17-12
    C      2    D1 A2 F0                3        1      1   20-17
    E      2    F0 B2 A2                4        2      2   15-15
    D      1    C2 F0 B2                4        2      0   16-14
    F      0    E2 D1 C2                5        2      0    7-21
"""

import pytest

from tournaments.core.errors import BracketError
from tournaments.core.standings import BYE, DOUBLE_FORFEIT, FORFEIT, Game, standings, validate_order

PLAYERS = ["A", "B", "C", "D", "E", "F"]
GAMES = [
    Game("A", "B", winner="A", points_a=7, points_b=3),
    Game("C", "D", winner="C", points_a=7, points_b=5),
    Game("E", "F", winner="E", points_a=7, points_b=2),
    Game("A", "C", winner="A", points_a=7, points_b=6),
    Game("B", "E", winner="B", points_a=7, points_b=1),
    Game("D", "F", winner="D", points_a=7, points_b=0),
    Game("A", "E", winner="E", points_a=6, points_b=7),
    Game("B", "D", winner="B", points_a=7, points_b=4),
    Game("C", "F", winner="C", points_a=7, points_b=5),
]


def _by_key(table):
    return {row.key: row for row in table}


def test_the_tie_break_columns_match_the_hand_computed_table():
    rows = _by_key(standings(PLAYERS, GAMES))
    expected = {
        "A": (2, 6, 2, 4, 20, 16),
        "B": (2, 5, 2, 3, 17, 12),
        "C": (2, 3, 1, 1, 20, 17),
        "E": (2, 4, 2, 2, 15, 15),
        "D": (1, 4, 2, 0, 16, 14),
        "F": (0, 5, 2, 0, 7, 21),
    }
    for key, (wins, buchholz, median, sb, pf, pa) in expected.items():
        row = rows[key]
        assert (row.wins, row.buchholz, row.median_buchholz, row.sonneborn_berger) == (wins, buchholz, median, sb)
        assert (row.points_for, row.points_against, row.losses) == (pf, pa, 3 - wins)


def test_the_default_order_ranks_by_wins_then_buchholz():
    table = standings(PLAYERS, GAMES)
    assert [(row.key, row.rank) for row in table] == [("A", 1), ("B", 2), ("E", 3), ("C", 4), ("D", 5), ("F", 6)]


def test_head_to_head_counts_only_matches_among_the_tied_and_a_full_tie_shares_the_rank():
    # Among the four on 2 wins: A beat B and C, B beat E, E beat A -> A 2, B 1, E 1, C 0; B and E stay tied.
    table = standings(PLAYERS, GAMES, ["wins", "head_to_head"])
    assert [(row.key, row.rank) for row in table] == [("A", 1), ("B", 2), ("E", 2), ("C", 4), ("D", 5), ("F", 6)]
    assert _by_key(table)["A"].head_to_head == 2


def test_the_order_is_configurable():
    # Median Buchholz ties A, B and E (2 each); the points difference then puts B (+5) before A (+4) and E (0).
    table = standings(PLAYERS, GAMES, ["wins", "median_buchholz", "points_difference"])
    assert [row.key for row in table][:4] == ["B", "A", "E", "C"]


def test_byes_and_forfeits_count_as_wins_or_losses_but_meet_no_opponent():
    games = [
        Game("A", None, kind=BYE),
        Game("B", "C", kind=FORFEIT, winner="B"),
        Game("A", "B", winner="B", points_a=3, points_b=5),
        Game("C", "D", kind=DOUBLE_FORFEIT),
    ]
    rows = _by_key(standings(["A", "B", "C", "D"], games))
    assert (rows["A"].wins, rows["A"].byes, rows["A"].losses, rows["A"].buchholz) == (1, 1, 1, 2)
    assert (rows["B"].wins, rows["B"].played, rows["B"].buchholz, rows["B"].sonneborn_berger) == (2, 1, 1, 1)
    assert (rows["C"].losses, rows["C"].buchholz, rows["D"].losses) == (2, 0, 1)
    assert rows["B"].rank == 1


@pytest.mark.parametrize("order", [["wins", "wins"], ["luck"], "wins", [1], ["wins"] * 9])
def test_an_impossible_order_is_refused_naming_what_works(order):
    with pytest.raises(BracketError) as caught:
        validate_order(order)
    assert caught.value.code == "bad_tiebreaks"
    assert "buchholz" in str(caught.value)


def test_an_empty_order_is_the_default():
    assert validate_order([])[0] == "wins"


def test_every_criterion_is_one_tiebreak_class_with_its_name_and_abbreviation():
    from tournaments.core.standings import CRITERIA
    from tournaments.core.tiebreaks import TIEBREAKS

    assert tuple(TIEBREAKS) == CRITERIA
    assert [TIEBREAKS[c].abbreviation for c in CRITERIA] == ["W", "Bh", "MBh", "SB", "H2H", "+/−", "Pts"]
    rows = _by_key(standings(PLAYERS, GAMES, ["wins", "points_difference"]))
    assert rows["A"].points_difference == 4 and rows["F"].points_difference == -14
