"""Money play with Dave: a session's games become each player's net in stake units, summing to zero."""

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from backgammon.dave.errors import DaveError
from backgammon.dave.random_play import random_session
from backgammon.dave.record import write_dave
from backgammon.dave.scoring import DaveResult, amounts, net_units, results_of
from backgammon.dave.verification import check_dave_record


def test_a_chouette_game_nets_the_box_against_each_team_member():
    """The box lost 4 units to the captain (a Dave accepted twice, played out) and won 2 from a member who gave up."""
    results = [DaveResult("Cleo", "Box", 4), DaveResult("Box", "Dan", 2)]
    assert net_units(results, players=["Box", "Cleo", "Dan", "Eve"]) == {"Box": -2, "Cleo": 4, "Dan": -2, "Eve": 0}
    assert amounts(net_units(results), Decimal("0.50")) == {"Cleo": Decimal("2.00"), "Box": Decimal("-1.00"),
                                                            "Dan": Decimal("-1.00")}


def test_a_verified_session_nets_what_its_score_lines_say():
    record = random_session(seed=21, games=4, players=("Anna", "Boris"))
    status, verdict = check_dave_record(write_dave(record))
    assert status == "valid"
    net = net_units(results_of(verdict))
    anna, boris = verdict.final_score
    assert net == {"Anna": anna - boris, "Boris": boris - anna}


@pytest.mark.parametrize(("winner", "loser", "units"), [("A", "A", 1), ("A", "B", 0)])
def test_a_result_must_be_between_two_players_for_at_least_one_unit(winner, loser, units):
    with pytest.raises(DaveError) as caught:
        DaveResult(winner, loser, units)
    assert caught.value.code == "invalid_result" and not caught.value.is_conflict
    with pytest.raises(DaveError):
        amounts({"A": 1}, Decimal(0))


@given(st.lists(st.tuples(st.sampled_from("ABCDE"), st.sampled_from("ABCDE"), st.integers(1, 64)), max_size=30))
def test_every_session_nets_to_zero(games):
    results = [DaveResult(winner, loser, units) for winner, loser, units in games if winner != loser]
    net = net_units(results)
    assert sum(net.values()) == 0
    assert sum(value for value in net.values() if value > 0) <= sum(result.units for result in results)
