"""A chouette session with Dave stakes: each member's game against the box is entered as its final stake and
who gave up (no cube), the ledger counts the stakes, and the settlement moves the money (hand-computed)."""

import pytest

from chouette.models import LedgerEntry
from tests.chouette.factories import table

pytestmark = pytest.mark.django_db


def url(session, tail=""):
    return f"/api/v1/chouette/sessions/{session.pk}/{tail}"


def ledger(session, number):
    return {e.player.name: int(e.points) for e in LedgerEntry.objects.filter(session=session, game_number=number)}


def dave(player, stake, gave_up=None):
    return {"player": player.pk, "stake": stake, "gave_up": gave_up}


def test_a_chouette_session_settled_with_dave_stakes(api_as, club):
    session, p, director = table(club, stake_cents=100, stake_form="dave", dave_progression="geometric")
    client = api_as(director)
    assert client.get(url(session)).json()["stake_form"] == "dave"
    # Game 1, A box, B captain: B played for 2 and the team won (+2), C gave up at 4 (-4), D won the first stake
    # (+1); the box is minus their sum: +1. B beat the box, so B is the box next: B, C, D, A.
    first = {"winner": "team", "daves": [dave(p["B"], 2), dave(p["C"], 4, "member"), dave(p["D"], 1)]}
    assert client.post(url(session, "games/"), first, format="json").status_code == 201
    assert ledger(session, 1) == {"A": 1, "B": 2, "C": -4, "D": 1}
    session.refresh_from_db()
    assert session.order == [p["B"].pk, p["C"].pk, p["D"].pk, p["A"].pk]
    # Game 2, B box, C captain: the box gave up C's Dave at 2 (C +2), then won against D at 4 and A at 1:
    # D -4, A -1, box +3. C beat the box: C, D, A, B.
    second = {"winner": "box", "daves": [dave(p["C"], 2, "box"), dave(p["D"], 4), dave(p["A"], 1)]}
    assert client.post(url(session, "games/"), second, format="json").status_code == 201
    assert ledger(session, 2) == {"A": -1, "B": 3, "C": 2, "D": -4}
    session.refresh_from_db()
    assert session.order == [p["C"].pk, p["D"].pk, p["A"].pk, p["B"].pk]
    # Totals A 0, B +5, C -2, D -3 stake units at 1.00: D pays B 3.00, C pays B 2.00 (two transfers).
    settled = client.post(url(session, "settlement/"))
    assert settled.status_code == 200
    transfers = sorted((t["payer_name"], t["payee_name"], t["cents"]) for t in settled.json())
    assert transfers == [("C", "B", 200), ("D", "B", 300)]


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"winner": "box", "kind": "gammon"}, "dave_no_gammon"),
        ({"winner": "box", "events": [{"doubler": "box", "responses": []}]}, "cube_at_dave_table"),
        ({"winner": "box", "daves": [{"stake": 3}]}, "wrong_stake"),
    ],
)
def test_a_dave_table_refuses_gammons_cubes_and_stakes_off_the_progression(api_as, club, body, code):
    session, p, director = table(club, stake_form="dave")
    if "daves" in body:
        body["daves"][0]["player"] = p["B"].pk
    if body.get("events"):
        body["events"][0]["responses"] = [{"player": p["B"].pk, "response": "take"}]
    refused = api_as(director).post(url(session, "games/"), body, format="json")
    assert refused.status_code == 400 and refused.json()["code"] == code
    assert not LedgerEntry.objects.filter(session=session).exists()


def test_a_cube_table_refuses_dave_stakes(api_as, club):
    session, p, director = table(club)
    body = {"winner": "box", "daves": [dave(p["B"], 2)]}
    refused = api_as(director).post(url(session, "games/"), body, format="json")
    assert refused.status_code == 400 and refused.json()["code"] == "daves_at_cube_table"
