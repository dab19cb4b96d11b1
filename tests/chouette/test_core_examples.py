"""The worked examples E1–E7 of docs/chouette.md, exactly (A box, B captain, C, D crew, Jacoby on, 5 per point)."""

from chouette.core import session as core
from chouette.core.scoring import BOX, TEAM, CubeEvent, GameEntry, score_game
from chouette.core.settlement import Transfer, fewest_transfers, money_from_points
from chouette.core.table_options import Rules

RULES = Rules(jacoby=True)
STAKES = dict.fromkeys("ABCD", 5)


def play_one(entry):
    state = core.replay([core.Event(core.START, order=("A", "B", "C", "D"))], rules=RULES, stakes=STAKES)
    game = core.play(state, entry, rules=RULES, stakes=STAKES)
    return game.scored.points, state.order


def test_e1_no_cube_team_wins_single():
    points, order = play_one(GameEntry(winner=TEAM, kind="single"))
    assert points == {"B": 1, "C": 1, "D": 1, "A": -3}
    assert order == ["B", "C", "D", "A"]


def test_e2_no_cube_box_wins_gammon_counts_single_under_jacoby():
    points, order = play_one(GameEntry(winner=BOX, kind="gammon"))
    assert points == {"B": -1, "C": -1, "D": -1, "A": 3}
    assert order == ["A", "C", "D", "B"]


def test_e3_box_doubles_all_captain_drops_and_c_plays_on_as_acting_captain():
    entry = GameEntry(
        events=(CubeEvent(BOX, (("B", "drop"), ("C", "take"), ("D", "drop"))),), winner=BOX, kind="gammon"
    )
    scored = score_game(box="A", team=["B", "C", "D"], entry=entry, rules=RULES)
    assert scored.points == {"A": 6, "B": -1, "C": -4, "D": -1}
    assert scored.captain_dropped and scored.acting_captain == "C"


def test_e4_team_doubles_box_takes_two_drops_one():
    entry = GameEntry(
        events=(CubeEvent(TEAM, (("B", "take"), ("C", "take"), ("D", "drop"))),), winner=TEAM, kind="gammon"
    )
    points, _ = play_one(entry)
    assert points == {"B": 4, "C": 4, "D": 1, "A": -9}


def test_e5_beaver_and_jacoby_on_the_unturned_cubes():
    entry = GameEntry(events=(CubeEvent(BOX, (("C", "beaver"),)),), winner=BOX, kind="gammon")
    points, _ = play_one(entry)
    assert points == {"C": -8, "B": -1, "D": -1, "A": 10}


def test_e7_settlement_at_five_per_point():
    money = money_from_points({"A": 12, "B": -7, "C": 3, "D": -8}, 5)
    assert money == {"A": 60, "B": -35, "C": 15, "D": -40}
    assert fewest_transfers(money) == [Transfer("D", "A", 40), Transfer("B", "A", 20), Transfer("B", "C", 15)]


def test_e7_from_a_played_session_ledger():
    # E1 + E2 + E4 + E5 played in a row, then the money is exactly points x 5 for every player.
    state = core.replay([core.Event(core.START, order=("A", "B", "C", "D"))], rules=RULES, stakes=STAKES)
    core.play(state, GameEntry(winner=TEAM), rules=RULES, stakes=STAKES)
    assert state.order == ["B", "C", "D", "A"]
    core.play(state, GameEntry(winner=BOX, kind="gammon"), rules=RULES, stakes=STAKES)
    assert state.order == ["B", "D", "A", "C"]
    assert state.money == {p: v * 5 for p, v in state.points.items()}
    assert sum(state.money.values()) == 0
