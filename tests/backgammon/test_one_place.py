"""Each cube and scoring rule lives in one place, backgammon, and the record verifier, the match scoresheet and
the chouette all ask it: Crawford (cube_in_play), who may double (may_double), single/gammon/backgammon
(game_kind), and what a game is worth with Jacoby (game_points).

Why both a spy and a source check: the spy shows that driving each of the three reaches the shared function
(replace it and they see the replacement); the source check shows none of them keeps a copy of the rule under
another name (its own table of kinds, its own `cube == 1` Jacoby test, its own game_kind)."""

import ast
import sys
from collections import defaultdict

import pytest

from backgammon import cube, outcome, scoring
from backgammon.matchfiles.mat import parse_mat
from backgammon.scoring import ScoringError
from backgammon.verification import verify
from chouette.core.scoring import BOX, TEAM, CubeEvent, score_game
from chouette.core.scoring import GameEntry as ChouetteGame
from chouette.core.table_options import Rules
from games.matchplay import state as scoresheet
from games.matchplay.state import GameEntry
from tests.paths import CORPUS, REPO

SHARED = {
    "cube_in_play": scoring.cube_in_play,
    "may_double": cube.may_double,
    "game_kind": outcome.game_kind,
    "game_points": scoring.game_points,
}
CONSUMERS = ("backgammon/verification.py", "games/matchplay/state.py", "chouette/core/scoring.py")


@pytest.fixture
def calls(monkeypatch):
    """Every shared function replaced, wherever a module holds it, by a spy that notes which rule was asked."""
    seen: dict[str, int] = defaultdict(int)
    for name, function in SHARED.items():

        def spy(*args, _name=name, _function=function, **kwargs):
            seen[_name] += 1
            return _function(*args, **kwargs)

        for module in list(sys.modules.values()):
            if getattr(module, name, None) is function:
                monkeypatch.setattr(module, name, spy)
    return seen


def test_the_verifier_asks_the_shared_rules(calls):
    lines = (CORPUS / "gnubg" / "standard_0003_7p.mat").read_text(encoding="utf-8")
    assert verify(parse_mat(lines.encode())).valid  # drops, a cube at 4, games played out
    assert calls["game_kind"] and calls["game_points"] and calls["cube_in_play"] and calls["may_double"]


def test_the_verifier_refuses_a_crawford_double_through_the_shared_rule(calls, monkeypatch):
    # Game 2 of this 3-point match is the Crawford game; the double there is refused only because the shared
    # Crawford rule says the cube is out of play: with the rule answering "in play" the double passes.
    lines = (CORPUS / "gnubg" / "standard_0001_3p.mat").read_text(encoding="utf-8").split("\n")
    lines.insert(33, "  2)  Doubles => 2                Takes")
    record = parse_mat("\n".join(lines).encode())
    assert "double_in_crawford" in {error.code for error in verify(record).errors}
    monkeypatch.setattr(cube, "cube_in_play", lambda *, crawford_game: True)
    assert "double_in_crawford" not in {error.code for error in verify(record).errors}


def test_the_scoresheet_asks_the_shared_rules(calls, monkeypatch):
    state, _ = scoresheet.replay(scoresheet.start_state(length=5), [GameEntry(0, "gammon", 2)])  # next: Crawford
    with pytest.raises(ScoringError) as refused:
        scoresheet.play_game(state, GameEntry(1, "single", 2), number=2)
    assert refused.value.code == "cube_in_crawford_game"
    assert calls["cube_in_play"] and calls["game_points"]
    monkeypatch.setattr(scoring, "cube_in_play", lambda *, crawford_game: True)
    assert scoresheet.play_game(state, GameEntry(1, "single", 2), number=2)[1].points == 2


def test_the_chouette_asks_the_shared_rules(calls):
    double = CubeEvent(BOX, (("B", "take"), ("C", "take")))
    scored = score_game(box="A", team=("B", "C"), entry=ChouetteGame(events=(double,), winner=TEAM), rules=Rules())
    assert scored.points == {"B": 2, "C": 2, "A": -4}
    assert calls["game_points"] and calls["may_double"]


def _defined_names_and_jacoby_copies(path: str) -> tuple[set[str], list[str]]:
    tree = ast.parse((REPO / path).read_text())
    defined = {node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)}
    copies = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Dict) and {"gammon", "backgammon"} <= {
            key.value for key in node.keys if isinstance(key, ast.Constant)
        }:
            copies.append(f"line {node.lineno}: a table of game kinds")
        if isinstance(node, ast.Compare) and "cube" in ast.unparse(node) and ast.unparse(node).endswith("== 1"):
            copies.append(f"line {node.lineno}: {ast.unparse(node)} (Jacoby asks whether the cube was turned)")
    return defined, copies


@pytest.mark.parametrize("path", CONSUMERS)
def test_no_consumer_keeps_its_own_copy_of_a_rule(path):
    defined, copies = _defined_names_and_jacoby_copies(path)
    assert not defined & set(SHARED), f"{path} defines {sorted(defined & set(SHARED))}: use backgammon"
    assert not copies, f"{path} re-implements a rule of backgammon: {copies}"
