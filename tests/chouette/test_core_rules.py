"""Each rule option of the pure core, one behaviour a player would check per test."""

import pytest

from chouette.core import rotation
from chouette.core import session as core
from chouette.core.errors import ChouetteError
from chouette.core.order import due_to_roll, order_by_rolls, ties_to_reroll
from chouette.core.scoring import BOX, TEAM, CubeEvent, GameEntry, score_game
from chouette.core.settlement import Transfer, apply_transfers, cash_out, fewest_transfers, game_money
from chouette.core.table_options import Rules

TEAM3 = ["B", "C", "D"]
DEFAULT = Rules()


def score(entry, rules=DEFAULT, team=TEAM3):
    return score_game(box="A", team=team, entry=entry, rules=rules)


def refused(code, entry, rules=DEFAULT, team=TEAM3):
    with pytest.raises(ChouetteError) as caught:
        score(entry, rules, team)
    assert caught.value.code == code
    return caught.value


# --- order -------------------------------------------------------------------------------------------------


def test_only_tied_players_roll_again_and_their_first_rolls_still_count():
    rolls = {"A": [4], "B": [6], "C": [4], "D": [2]}
    assert ties_to_reroll(rolls) == [["A", "C"]]
    rolls.update(A=[4, 1], C=[4, 3])
    assert order_by_rolls(rolls) == ["B", "C", "A", "D"]


def test_everyone_rolls_first_then_only_the_tied_players_then_nobody():
    assert due_to_roll({"A": [], "B": [6], "C": []}) == ["A", "C"]
    assert due_to_roll({"A": [4], "B": [6], "C": [4]}) == ["A", "C"]
    assert due_to_roll({"A": [4, 1], "B": [6], "C": [4, 3]}) == []


def test_a_tie_must_be_rolled_off_and_an_untied_player_rolls_once():
    with pytest.raises(ChouetteError, match="tied"):
        order_by_rolls({"A": [5], "B": [5], "C": [1]})
    with pytest.raises(ChouetteError, match="rolls only once"):
        order_by_rolls({"A": [5, 2], "B": [4], "C": [1]})


def test_tie_after_tie_rolls_again_within_the_group():
    rolls = {"A": [3, 2, 6], "B": [3, 2, 1], "C": [5], "D": [3, 4]}
    assert order_by_rolls(rolls) == ["C", "D", "A", "B"]


# --- cubes --------------------------------------------------------------------------------------------------


def test_single_cube_double_involves_every_member_and_one_answer_for_the_box():
    rules = Rules(cubes="single")
    refused("single_cube_all", GameEntry(events=(CubeEvent(BOX, (("B", "take"),)),), winner=BOX), rules)
    mixed = CubeEvent(TEAM, (("B", "take"), ("C", "drop"), ("D", "take")))
    refused("single_cube_same", GameEntry(events=(mixed,), winner=TEAM), rules)
    ok = CubeEvent(BOX, (("B", "take"), ("C", "drop"), ("D", "take")))
    assert score(GameEntry(events=(ok,), winner=BOX), rules).points == {"B": -2, "C": -1, "D": -2, "A": 5}


def test_only_the_cube_owner_may_redouble():
    events = (CubeEvent(BOX, (("B", "take"),)), CubeEvent(BOX, (("B", "take"),)))
    refused("not_cube_owner", GameEntry(events=events, winner=BOX))
    redouble = (CubeEvent(BOX, (("B", "take"),)), CubeEvent(TEAM, (("B", "take"),)))
    assert score(GameEntry(events=redouble, winner=TEAM)).points["B"] == 4


def test_beaver_and_raccoon_by_club_rule():
    beaver = GameEntry(events=(CubeEvent(BOX, (("B", "beaver"),)),), winner=TEAM)
    refused("no_beaver", beaver, Rules(beaver=False, raccoon=False))
    raccoon = GameEntry(events=(CubeEvent(TEAM, (("C", "raccoon"),)),), winner=TEAM)
    refused("no_raccoon", raccoon, Rules(raccoon=False))
    assert score(raccoon, Rules(raccoon=True)).points["C"] == 8


def test_jacoby_off_counts_gammons_on_centred_cubes():
    assert score(GameEntry(winner=BOX, kind="backgammon"), Rules(jacoby=False)).points["A"] == 9
    assert score(GameEntry(winner=BOX, kind="backgammon"), Rules(jacoby=True)).points["A"] == 3


def test_automatic_doubles_up_to_the_tables_maximum():
    refused("automatic_doubles", GameEntry(winner=TEAM, automatic_doubles=1), Rules(automatic_doubles=0))
    scored = score(GameEntry(winner=TEAM, kind="gammon", automatic_doubles=2), Rules(automatic_doubles=2))
    assert scored.points == {"B": 4, "C": 4, "D": 4, "A": -12}  # automatic doubles do not turn the cube (Jacoby)


# --- captain drops ------------------------------------------------------------------------------------------


def test_highest_ranked_taker_becomes_acting_captain_unless_the_club_lets_any_taker():
    drop = CubeEvent(BOX, (("B", "drop"), ("C", "take"), ("D", "take")))
    refused("acting_captain_rank", GameEntry(events=(drop,), winner=TEAM, acting_captain="D"))
    scored = score(GameEntry(events=(drop,), winner=TEAM, acting_captain="D"), Rules(acting_captain="any_taker"))
    assert scored.acting_captain == "D" and scored.decisive == "D"


def test_when_everybody_drops_the_box_keeps_the_box():
    all_drop = CubeEvent(BOX, (("B", "drop"), ("C", "drop"), ("D", "drop")))
    scored = score(GameEntry(events=(all_drop,)))
    assert scored.points == {"B": -1, "C": -1, "D": -1, "A": 3}
    assert rotation.next_order(["A", "B", "C", "D"], scored, Rules()) == ["A", "C", "D", "B"]


def test_acting_captain_who_beats_the_box_takes_the_box_and_the_dropped_captain_goes_down_first():
    drop = CubeEvent(BOX, (("B", "drop"), ("C", "take"), ("D", "drop")))
    scored = score(GameEntry(events=(drop,), winner=TEAM))
    assert scored.points == {"B": -1, "C": 2, "D": -1, "A": 0}
    assert rotation.next_order(["A", "B", "C", "D"], scored, Rules()) == ["C", "D", "B", "A"]


# --- the box's minimum takes ----------------------------------------------------------------------------------


def test_box_must_take_half_of_simultaneous_initial_cubes():
    two_drops = CubeEvent(TEAM, (("B", "drop"), ("C", "drop"), ("D", "take")))
    error = refused("must_take_half", GameEntry(events=(two_drops,), winner=TEAM), Rules(box_min_takes="half"))
    assert error.params == {"need": 2, "of": 3}
    half = CubeEvent(TEAM, (("B", "take"), ("C", "drop")))
    assert score(GameEntry(events=(half,), winner=TEAM), Rules(box_min_takes="half")).points["C"] == 1
    assert score(GameEntry(events=(two_drops,), winner=TEAM), Rules(box_min_takes="none")).points["A"] == -4


def test_box_must_take_the_captains_cube():
    drop_captain = CubeEvent(TEAM, (("B", "drop"), ("C", "take")))
    refused("must_take_captain", GameEntry(events=(drop_captain,), winner=TEAM), Rules(box_min_takes="captain"))


# --- rotation -------------------------------------------------------------------------------------------------


def test_box_keeps_the_box_only_when_its_net_is_not_a_loss():
    # The box beats the captain at 1 but dropped D's redouble at 4: net -1+... the box loses money overall.
    events = (CubeEvent(BOX, (("D", "take"),)), CubeEvent(TEAM, (("D", "drop"),)))
    scored = score(GameEntry(events=events, winner=BOX))
    assert scored.points == {"B": -1, "C": -1, "D": 2, "A": 0}
    assert rotation.next_order(["A", "B", "C", "D"], scored, Rules(box_keeps="beats_captain"))[0] == "A"
    assert rotation.next_order(["A", "B", "C", "D"], scored, Rules(box_keeps="net_not_loss"))[0] == "A"
    events = (CubeEvent(BOX, (("D", "take"),)), CubeEvent(TEAM, (("D", "take"),)))
    scored = score(GameEntry(events=events, winner=BOX, member_results=(("D", TEAM, "single"),)))
    assert scored.points == {"B": -1, "C": -1, "D": 4, "A": -2}
    assert rotation.next_order(["A", "B", "C", "D"], scored, Rules(box_keeps="beats_captain")) == ["A", "C", "D", "B"]
    assert rotation.next_order(["A", "B", "C", "D"], scored, Rules(box_keeps="net_not_loss")) == ["B", "C", "D", "A"]


def test_a_captain_who_beats_the_box_takes_it_even_when_the_box_nets_a_win():
    # The box doubles B, C, D; C and D drop (+1 each to the box), B takes and wins single at 2: B +2, box 0.
    # The box's net is not a loss, but the captain beat it, so under the club variant too the captain takes the box.
    events = (CubeEvent(BOX, (("B", "take"), ("C", "drop"), ("D", "drop"))),)
    scored = score(GameEntry(events=events, winner=TEAM))
    assert scored.points == {"B": 2, "C": -1, "D": -1, "A": 0}
    assert rotation.next_order(["A", "B", "C", "D"], scored, Rules(box_keeps="net_not_loss")) == ["B", "C", "D", "A"]
    assert rotation.next_order(["A", "B", "C", "D"], scored, Rules(box_keeps="beats_captain")) == ["B", "C", "D", "A"]


def test_newcomer_joins_at_the_bottom_or_ahead_of_the_player_who_just_lost():
    assert rotation.join(["B", "C", "D", "A"], "E", Rules(), last_loser="A") == ["B", "C", "D", "A", "E"]
    ahead = rotation.join(["B", "C", "D", "A"], "E", Rules(newcomer="ahead_of_loser"), last_loser="A")
    assert ahead == ["B", "C", "D", "E", "A"]
    with pytest.raises(ChouetteError, match="full"):
        rotation.join(["A", "B", "C"], "E", Rules(max_players=3), last_loser=None)


def test_sit_out_and_come_back_keep_the_ledger_and_seat_the_player_by_the_newcomer_rule():
    stakes = dict.fromkeys("ABCDE", 1)
    events = [
        core.Event(core.START, order=tuple("ABCDE")),
        core.Event(core.SIT_OUT, player="C"),
        core.Event(core.GAME, entry=GameEntry(winner=TEAM)),
        core.Event(core.RETURN, player="C"),
    ]
    state = core.replay(events, rules=Rules(), stakes=stakes)
    assert state.order == ["B", "D", "E", "A", "C"]
    assert "C" not in state.points and state.sitting_out == []


# --- partner --------------------------------------------------------------------------------------------------


def six(partner_rules):
    stakes = dict.fromkeys("ABCDEF", 10)
    state = core.replay([core.Event(core.START, order=tuple("ABCDEF"))], rules=partner_rules, stakes=stakes)
    return state, stakes


def test_partner_from_six_players_splits_with_the_odd_point_to_the_box():
    rules = Rules(partner_from=6)
    state, stakes = six(rules)
    game = core.play(state, GameEntry(winner=BOX, partner="F"), rules=rules, stakes=stakes)
    assert game.scored.points == {"B": -1, "C": -1, "D": -1, "E": -1, "A": 2, "F": 2}
    state, stakes = six(rules)
    game = core.play(state, GameEntry(winner=TEAM, partner="F", kind="single"), rules=rules, stakes=stakes)
    assert game.scored.points["A"] == -2 and game.scored.points["F"] == -2
    doubles = CubeEvent(BOX, (("B", "drop"), ("C", "take")))  # B -1, C -4 (gammon on a turned cube), D, E -1
    state, stakes = six(rules)
    game = core.play(
        state, GameEntry(events=(doubles,), winner=BOX, kind="gammon", partner="F"), rules=rules, stakes=stakes
    )
    assert (game.scored.points["A"], game.scored.points["F"]) == (4, 3)
    assert game.money["A"] == 40 and game.money["F"] == 30


def test_even_split_gives_halves():
    rules = Rules(partner_split="even")
    state, stakes = six(rules)
    doubles = CubeEvent(BOX, (("B", "drop"), ("C", "take")))
    game = core.play(
        state, GameEntry(events=(doubles,), winner=BOX, kind="gammon", partner="F"), rules=rules, stakes=stakes
    )
    assert game.scored.points["A"] == game.scored.points["F"] == 3.5
    assert game.money["A"] == game.money["F"] == 35


def test_partner_optional_mandatory_and_not_below_the_threshold():
    rules = Rules(partner_from=6, partner_required=True)
    state, stakes = six(rules)
    with pytest.raises(ChouetteError, match="must take a partner"):
        core.play(state, GameEntry(winner=BOX), rules=rules, stakes=stakes)
    four = core.replay([core.Event(core.START, order=tuple("ABCD"))], rules=Rules(), stakes=dict.fromkeys("ABCD", 1))
    with pytest.raises(ChouetteError, match="only from 6"):
        core.play(four, GameEntry(winner=BOX, partner="D"), rules=Rules(), stakes=dict.fromkeys("ABCD", 1))


# --- money ----------------------------------------------------------------------------------------------------


def test_mixed_stakes_each_pairing_plays_at_the_lower_stake_and_the_box_is_minus_the_sum_of_pairings():
    scored = score(GameEntry(winner=TEAM))
    money = game_money(scored, {"A": 500, "B": 100, "C": 500, "D": 1000}, Rules())
    assert money == {"B": 100, "C": 500, "D": 500, "A": -1100}  # not -3 x 500


def test_fewest_transfers_finds_zero_sum_pairs_before_chains():
    balances = {"A": 50, "B": -50, "C": 30, "D": -30, "E": 20, "F": -20}
    transfers = fewest_transfers(balances)
    assert len(transfers) == 3
    assert set(transfers) == {Transfer("B", "A", 50), Transfer("D", "C", 30), Transfer("F", "E", 20)}


def test_cash_out_then_the_rest_settles_among_themselves():
    balances = {"A": -40, "B": 25, "C": 15, "D": 0}
    paid = cash_out(balances, "A")
    assert paid == [Transfer("A", "B", 25), Transfer("A", "C", 15)]
    after = apply_transfers(balances, paid)
    assert after == {"A": 0, "B": 0, "C": 0, "D": 0} and fewest_transfers(after) == []


def test_rules_refuse_nonsense_settings():
    for bad in ({"cubes": "many"}, {"max_players": 2}, {"partner_from": 3}, {"raccoon": True, "beaver": False},
                {"nonsense": 1}):  # fmt: skip
        with pytest.raises(ChouetteError):
            Rules.from_dict(bad)


def test_a_runaway_cube_is_refused_as_a_typo():
    events = tuple(CubeEvent(BOX if n % 2 == 0 else TEAM, (("B", "raccoon"),)) for n in range(5))
    error = refused("cube_limit", GameEntry(events=events, winner=BOX), Rules(raccoon=True))
    assert error.params["limit"] == 4096
