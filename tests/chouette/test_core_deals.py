"""Deals: the box settles with a team member during a game (the core, no Django). The member leaves the game for
the agreed points, the others play on, the game still sums to zero, and the deal is bounded by the member's cube
at the moment it was made (a backgammon: cube × 3)."""

import itertools

from chouette.core import rotation
from chouette.core import session as core
from chouette.core.scoring import BOX, TEAM, CubeEvent, GameEntry
from chouette.core.table_options import Rules
from tests.chouette.test_core_rules import refused, score

BOX_DOUBLES_C = CubeEvent(BOX, (("C", "take"),))


def test_a_member_who_deals_leaves_with_the_agreed_points_and_the_others_play_on():
    scored = score(GameEntry(events=(BOX_DOUBLES_C,), deals=(("C", 2, None),), winner=TEAM))
    assert scored.points == {"B": 1, "C": 2, "D": 1, "A": -4}
    deal = next(r for r in scored.results if r.member == "C")
    assert deal.ended_by == "deal" and deal.cube == 2
    # the board's result (a gammon for the box) applies only to the members still playing
    scored = score(GameEntry(events=(BOX_DOUBLES_C,), deals=(("C", 2, None),), winner=BOX, kind="gammon"))
    assert scored.points["C"] == 2 and scored.points["B"] == -1  # Jacoby: B's cube was never turned


def test_every_game_with_deals_sums_to_zero():
    for points, winner, kind in itertools.product(range(-6, 7), (BOX, TEAM), ("single", "gammon", "backgammon")):
        entry = GameEntry(events=(BOX_DOUBLES_C,), deals=(("C", points, None), ("D", -1, 0)), winner=winner, kind=kind)
        scored = score(entry)
        assert sum(scored.points.values()) == 0
        assert scored.points["C"] == points and scored.points["D"] == -1


def test_a_deal_beyond_a_backgammon_at_the_cube_of_that_moment_is_refused_and_says_what_would_work():
    error = refused("deal_too_large", GameEntry(events=(BOX_DOUBLES_C,), deals=(("C", 7, None),), winner=TEAM))
    assert "-6 to +6" in error.message and error.params["limit"] == 6
    refused("deal_too_large", GameEntry(events=(BOX_DOUBLES_C,), deals=(("C", -7, None),), winner=TEAM))
    assert score(GameEntry(events=(BOX_DOUBLES_C,), deals=(("C", -6, None),), winner=TEAM)).points["C"] == -6
    # C redoubles to 4 after the box's double: a deal before the redouble is bounded by 2, after it by 4
    redouble = (BOX_DOUBLES_C, CubeEvent(TEAM, (("C", "take"),)))
    refused("deal_too_large", GameEntry(events=redouble, deals=(("C", 7, 1),), winner=TEAM))
    assert score(GameEntry(events=redouble, deals=(("C", 12, 2),), winner=TEAM)).points["C"] == 12
    refused("deal_too_large", GameEntry(deals=(("B", 4, None),), winner=TEAM))  # a centred 1-cube: at most 3


def test_a_deal_with_someone_not_in_the_game_or_already_out_is_refused():
    refused("deal_not_in_team", GameEntry(deals=(("A", 1, None),), winner=TEAM))  # the box itself
    refused("deal_not_in_team", GameEntry(deals=(("Z", 1, None),), winner=TEAM))  # not at the table
    dropped = CubeEvent(BOX, (("D", "drop"),))
    error = refused("deal_after_out", GameEntry(events=(dropped,), deals=(("D", 1, None),), winner=TEAM))
    assert "a drop" in error.message
    refused("deal_after_out", GameEntry(deals=(("C", 1, 0), ("C", 2, 0)), winner=TEAM))  # dealt already
    # a member who dealt doubles no more, and has no board result of their own
    later = (BOX_DOUBLES_C,)
    refused("double_after_drop", GameEntry(events=later, deals=(("C", 1, 0),), winner=TEAM))
    refused("result_after_deal", GameEntry(deals=(("C", 1, None),), member_results=(("C", TEAM, "single"),)))
    refused("deal_moment", GameEntry(deals=(("C", 1, 3),), winner=TEAM))


def test_a_table_without_deals_and_a_dave_table_refuse_them():
    error = refused("no_deals", GameEntry(deals=(("C", 1, None),), winner=TEAM), rules=Rules(deals=False))
    assert "without deals" in error.message
    assert Rules.from_dict({}).deals is True  # sessions started before the option keep the default
    refused("deals_at_dave_table", GameEntry(deals=(("C", 1, None),), winner=TEAM), rules=Rules(dave="geometric"))


def test_a_captain_who_deals_hands_the_captaincy_to_the_next_member_playing_and_goes_to_the_bottom():
    order = ["A", "B", "C", "D"]
    # B (captain) settles for -1; C plays on as acting captain and beats the box: C takes the box, B (who left the
    # board first) goes to the bottom before the old box.
    scored = score(GameEntry(deals=(("B", -1, None),), winner=TEAM))
    assert scored.captain_dropped and scored.acting_captain == "C" and scored.decisive == "C"
    assert scored.points == {"B": -1, "C": 1, "D": 1, "A": -1}
    assert rotation.next_order(order, scored, Rules()) == ["C", "D", "B", "A"]
    # The box beats the acting captain: the box stays, and the captain goes to the bottom as after a lost game,
    # even though the deal won them points.
    scored = score(GameEntry(deals=(("B", 2, None),), winner=BOX))
    assert rotation.next_order(order, scored, Rules()) == ["A", "C", "D", "B"]
    # Any taker may captain at some tables: then whoever the table names among those still playing.
    rules = Rules(acting_captain="any_taker")
    scored = score(GameEntry(deals=(("B", 0, None),), winner=TEAM, acting_captain="D"), rules=rules)
    assert scored.decisive == "D"
    refused("acting_captain", GameEntry(deals=(("B", 0, None),), winner=TEAM, acting_captain="B"), rules=rules)
    # Everyone dealt: nobody is left to beat the box, which stays (as when everyone drops).
    scored = score(GameEntry(deals=(("B", 1, None), ("C", 1, None), ("D", 1, None))))
    assert scored.points["A"] == -3 and rotation.next_order(order, scored, Rules()) == ["A", "C", "D", "B"]


def test_on_a_single_cube_table_a_member_deals_and_the_others_keep_the_one_cube():
    rules = Rules(cubes="single")
    events = (
        CubeEvent(BOX, (("B", "take"), ("C", "take"), ("D", "take"))),  # the one cube at 2
        CubeEvent(TEAM, (("C", "take"), ("D", "take"))),  # after B's deal only C and D redouble: 4
    )
    scored = score(GameEntry(events=events, deals=(("B", 3, 1),), winner=BOX, kind="gammon"), rules=rules)
    assert scored.points == {"B": 3, "C": -8, "D": -8, "A": 13}
    # without the deal the redouble must involve B too
    refused("single_cube_all", GameEntry(events=events, winner=BOX), rules=rules)


def test_the_ledger_of_a_session_with_a_deal_stays_zero_sum_in_points_and_money():
    state = core.SessionState()
    stakes = {"A": 500, "B": 100, "C": 1000, "D": 500}
    core.apply(state, core.Event(core.START, order=("A", "B", "C", "D")), rules=Rules(), stakes=stakes)
    entry = GameEntry(events=(BOX_DOUBLES_C,), deals=(("C", -3, None),), winner=TEAM)
    game = core.play(state, entry, rules=Rules(), stakes=stakes)
    assert game.scored.points == {"B": 1, "C": -3, "D": 1, "A": 1}
    assert game.money == {"B": 100, "C": -1500, "D": 500, "A": 900}
    assert sum(game.money.values()) == 0 and sum(state.points.values()) == 0
