import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from chouette import services
from chouette.models import LedgerEntry, Seat, SessionEvent, Transfer
from chouette.services import common
from tests.chouette.factories import table
from tests.clubs.factories import MembershipFactory

pytestmark = pytest.mark.django_db


def url(session, tail=""):
    return f"/api/v1/chouette/sessions/{session.pk}/{tail}"


def ledger(session, number):
    return {e.player.name: int(e.points) for e in LedgerEntry.objects.filter(session=session, game_number=number)}


def test_member_opens_a_table_the_others_sit_down_themselves_and_only_tied_players_roll_again(api_as, club):
    creator = MembershipFactory(club=club).player
    others = [MembershipFactory(club=club, player__name=n).player for n in ("B", "C", "D")]
    ids = [creator.pk] + [p.pk for p in others]
    client = api_as(creator.user)
    response = client.post(
        "/api/v1/chouette/sessions/",
        {"club": club.slug, "players": [creator.pk], "stake_cents": 200, "rules": {"cubes": "multi"}},
        format="json",
    )
    assert response.status_code == 201, response.json()
    session_id = response.json()["id"]
    for other in others:
        seated = api_as(other.user).post(
            f"/api/v1/chouette/sessions/{session_id}/seats/", {"player": other.pk}, format="json"
        )
        assert seated.status_code == 200, seated.json()
    first = client.post(
        f"/api/v1/chouette/sessions/{session_id}/order/",
        {"rolls": {str(ids[0]): 6, str(ids[1]): 4, str(ids[2]): 4, str(ids[3]): 2}},
        format="json",
    )
    assert first.status_code == 200
    assert first.json()["roll_again"] == [[ids[1], ids[2]]]
    wrong = client.post(f"/api/v1/chouette/sessions/{session_id}/order/", {"rolls": {str(ids[0]): 3}}, format="json")
    assert wrong.status_code == 400 and "rolls" in wrong.json()["errors"]
    second = client.post(
        f"/api/v1/chouette/sessions/{session_id}/order/",
        {"rolls": {str(ids[1]): 1, str(ids[2]): 5}},
        format="json",
    )
    body = second.json()
    assert body["roll_again"] == [] and body["session"]["status"] == "open"
    assert body["session"]["order"] == [ids[0], ids[2], ids[1], ids[3]]
    rolls = {s["player"]: s["rolls"] for s in body["session"]["seats"]}
    assert rolls[ids[1]] == [4, 1] and rolls[ids[0]] == [6]  # every roll kept


def test_entering_e3_through_the_api_and_the_acting_captain(api_as, club):
    session, p, director = table(club)
    client = api_as(p["B"].user)
    body = {
        "events": [
            {
                "doubler": "box",
                "responses": [
                    {"player": p["B"].pk, "response": "drop"},
                    {"player": p["C"].pk, "response": "take"},
                    {"player": p["D"].pk, "response": "drop"},
                ],
            }
        ],
        "winner": "box",
        "kind": "gammon",
        "expected_number": 1,
    }
    response = client.post(url(session, "games/"), body, format="json")
    assert response.status_code == 201, response.json()
    assert ledger(session, 1) == {"A": 6, "B": -1, "C": -4, "D": -1}
    roles = {line["name"]: line["role"] for line in response.json()["ledger"]}
    assert roles["C"] == "acting_captain"
    # C (acting captain) lost to the box: A stays, B (dropped captain) is at the bottom, C is captain.
    session.refresh_from_db()
    assert session.order == [p["A"].pk, p["C"].pk, p["D"].pk, p["B"].pk]
    cents = {line["name"]: line["cents"] for line in response.json()["ledger"]}
    assert cents == {"A": 3000, "B": -500, "C": -2000, "D": -500}


def test_a_game_that_breaks_a_rule_is_refused_with_a_readable_message(api_as, club):
    session, p, _ = table(club, rules={"box_min_takes": "captain"})
    client = api_as(p["A"].user)
    body = {
        "events": [
            {
                "doubler": "team",
                "responses": [{"player": p["B"].pk, "response": "drop"}, {"player": p["C"].pk, "response": "take"}],
            }
        ],
        "winner": "team",
    }
    response = client.post(url(session, "games/"), body, format="json")
    assert response.status_code == 400
    assert response.json()["errors"] == {"events": ["The box must take the captain's cube at this table."]}


def test_claimed_points_that_do_not_sum_to_zero_are_refused(api_as, club):
    session, p, _ = table(club)
    claimed = [{"player": p[n].pk, "points": v} for n, v in (("A", -2), ("B", 1), ("C", 1), ("D", 1))]
    response = api_as(p["A"].user).post(url(session, "games/"), {"winner": "team", "claimed": claimed}, format="json")
    assert response.status_code == 400
    assert "add up to 1, not 0" in response.json()["errors"]["claimed"][0]
    assert not SessionEvent.objects.filter(session=session, kind="game").exists()


def test_stale_expected_number_is_a_conflict_and_a_retry_with_the_key_is_answered_once(api_as, club):
    session, p, _ = table(club)
    client = api_as(p["A"].user)
    body = {"winner": "team", "expected_number": 1, "idempotency_key": "phone-1"}
    assert client.post(url(session, "games/"), body, format="json").status_code == 201
    assert client.post(url(session, "games/"), body, format="json").status_code == 200
    stale = client.post(url(session, "games/"), {"winner": "box", "expected_number": 1}, format="json")
    assert stale.status_code == 409 and "already entered" in stale.json()["detail"]
    assert SessionEvent.objects.filter(session=session, kind="game").count() == 1


def test_undo_restores_order_and_ledger(api_as, club):
    session, p, _ = table(club)
    client = api_as(p["A"].user)
    client.post(url(session, "games/"), {"winner": "team"}, format="json")
    before = list(LedgerEntry.objects.filter(session=session).values_list("player__name", "cents"))
    session.refresh_from_db()
    order_before = session.order
    client.post(url(session, "games/"), {"winner": "box", "kind": "gammon"}, format="json")
    response = client.post(url(session, "games/undo/"), {"expected_number": 2}, format="json")
    assert response.status_code == 200
    session.refresh_from_db()
    assert session.order == order_before and session.games_played == 1
    assert list(LedgerEntry.objects.filter(session=session).values_list("player__name", "cents")) == before
    undone = SessionEvent.objects.get(session=session, game_number=2)
    assert undone.retired_reason == "undone" and not undone.is_current


def test_correcting_an_earlier_game_replays_the_rotation_and_keeps_an_audit_trail(api_as, club):
    session, p, _ = table(club)
    client = api_as(p["A"].user)
    client.post(url(session, "games/"), {"winner": "team"}, format="json")  # B becomes box
    client.post(url(session, "games/"), {"winner": "box"}, format="json")  # B stays
    response = client.post(url(session, "games/1/correct/"), {"winner": "box", "reason": "A won it"}, format="json")
    assert response.status_code == 200, response.json()
    assert ledger(session, 1) == {"A": 3, "B": -1, "C": -1, "D": -1}
    # Game 2 is replayed at the corrected seating: A box, C captain; the box won again.
    assert ledger(session, 2) == {"A": 3, "B": -1, "C": -1, "D": -1}
    session.refresh_from_db()
    assert session.order == [p["A"].pk, p["D"].pk, p["B"].pk, p["C"].pk]
    trail = client.get(url(session, "history/")).json()["results"]
    versions = [(e["game_number"], e["version"], e["is_current"]) for e in trail if e["kind"] == "game"]
    assert (1, 1, False) in versions and (1, 2, True) in versions
    no_reason = client.post(url(session, "games/1/correct/"), {"winner": "team"}, format="json")
    assert no_reason.status_code == 400 and "reason" in no_reason.json()["errors"]


def test_join_sit_out_leave_with_cash_out_then_settle(api_as, club):
    session, p, director = table(club)
    client = api_as(director)
    newcomer = MembershipFactory(club=club, player__name="E").player
    client.post(url(session, "games/"), {"winner": "team"}, format="json")  # B C D +1, A -3 (x500)
    assert client.post(url(session, "seats/"), {"player": newcomer.pk}, format="json").status_code == 200
    session.refresh_from_db()
    assert session.order[-1] == newcomer.pk
    client.post(url(session, "seats/"), {"player": p["C"].pk, "action": "sit_out"}, format="json")
    session.refresh_from_db()
    assert p["C"].pk not in session.order and session.sitting_out == [p["C"].pk]
    response = client.post(url(session, "seats/"), {"player": p["A"].pk, "action": "leave"}, format="json")
    assert response.status_code == 200
    cash_out = Transfer.objects.filter(session=session, kind="cash_out")
    assert sum(t.cents for t in cash_out) == 1500 and {t.payer.name for t in cash_out} == {"A"}
    settled = client.post(url(session, "settlement/"))
    assert settled.status_code == 200
    assert all(t["kind"] in ("cash_out", "settlement") for t in settled.json())
    again = client.post(url(session, "settlement/"))
    assert again.status_code == 409


def test_outsiders_cannot_enter_games_and_anonymous_reads_a_public_club(api_as, club, outsider_user):
    session, p, _ = table(club)
    assert api_as(outsider_user).post(url(session, "games/"), {"winner": "team"}, format="json").status_code == 403
    assert api_as(None).post(url(session, "games/"), {"winner": "team"}, format="json").status_code in (401, 403)
    assert api_as(None).get(url(session)).status_code == 200
    assert api_as(None).get(url(session, "live/")).json()["next_game"] == 1


def test_nonsense_input_never_gives_a_500(api_as, club):
    session, p, _ = table(club)
    client = api_as(p["A"].user)
    for body in (
        {"events": "x"},
        {"events": [{"doubler": "box", "responses": [{"player": 999999, "response": "take"}]}], "winner": "box"},
        {"winner": "team", "partner": 424242},
        {"winner": "team", "acting_captain": p["C"].pk},
        {"member_results": [{"player": p["B"].pk, "winner": "team"}]},
        {"automatic_doubles": 3, "winner": "box"},
    ):
        response = client.post(url(session, "games/"), body, format="json")
        assert response.status_code == 400, (body, response.content)
    missing = client.post(url(session, "games/9/correct/"), {"winner": "box", "reason": "x"}, format="json")
    assert missing.status_code == 400 and "number" in missing.json()["errors"]
    assert client.post(url(session, "order/"), {"order": [1, 2]}, format="json").status_code == 409


def test_query_counts_stay_flat_as_the_session_grows(api_as, club, django_assert_max_num_queries):
    session, p, _ = table(club)
    client = api_as(p["A"].user)
    for _ in range(10):
        client.post(url(session, "games/"), {"winner": "team"}, format="json")
    with django_assert_max_num_queries(12):  # measured 12, the same at 10 or 30 games
        assert client.post(url(session, "games/"), {"winner": "box"}, format="json").status_code == 201
    with django_assert_max_num_queries(21):
        correction = client.post(url(session, "games/1/correct/"), {"winner": "box", "reason": "x"}, format="json")
        assert correction.status_code == 200
    with django_assert_max_num_queries(3):
        assert client.get(url(session)).status_code == 200
    with django_assert_max_num_queries(5):  # the page and its count
        assert client.get(url(session, "games/")).json()["count"] == 11
    with django_assert_max_num_queries(2):
        assert client.get("/api/v1/chouette/sessions/").status_code == 200


def entry_queries(api_as, user, session, monkeypatch) -> tuple[list[str], list[str]]:
    """The SQL of one entry through the API, from a phone signed in afresh: all of it, and what ran while the
    table's row was locked (from the lock to the end of the service's transaction)."""
    client = api_as(type(user).objects.get(pk=user.pk))  # nothing cached on the user from an earlier request
    marks = {}

    def mark(name, step):
        def marked(*args, **kwargs):
            marks.setdefault(name, len(queries.captured_queries))
            try:
                return step(*args, **kwargs)
            finally:
                marks[f"{name}_end"] = len(queries.captured_queries)

        return marked

    monkeypatch.setattr(common, "lock_session", mark("lock", common.lock_session))
    monkeypatch.setattr(services, "record_game", mark("service", services.record_game))
    with CaptureQueriesContext(connection) as queries:
        body = {"winner": "box", "idempotency_key": f"key-{session.games_played}"}
        assert client.post(url(session, "games/"), body, format="json").status_code == 201
    monkeypatch.undo()
    sql = [q["sql"] for q in queries.captured_queries if not q["sql"].startswith(("SAVEPOINT", "RELEASE", "SET"))]
    locked = queries.captured_queries[marks["lock"] : marks["service_end"]]
    return sql, [q["sql"] for q in locked if not q["sql"].startswith(("SAVEPOINT", "RELEASE", "SET"))]


def test_an_entry_holds_the_table_for_six_queries_at_10_games_as_at_200(api_as, club, monkeypatch):
    """Ten phones at one table queue on its row lock, so what an entry does while it holds it is what the others
    wait for: the lock, the seats, the log's tail (next seq and idempotency key), the event, its ledger lines and
    the session row. Who may enter is asked before the lock (again under it, against the seats read there), the
    answer is loaded after the commit, its ledger lines with their players in one query."""
    session, p, director = table(club, names=tuple("ABCDEFGHIJ"))
    for _ in range(10):
        session.refresh_from_db()
        services.record_game(actor=director, session=session, game={"winner": "team"})
    session.refresh_from_db()
    early, early_locked = entry_queries(api_as, p["B"].user, session, monkeypatch)
    for _ in range(190):
        session.refresh_from_db()
        services.record_game(actor=director, session=session, game={"winner": "team"})
    session.refresh_from_db()
    late, late_locked = entry_queries(api_as, p["B"].user, session, monkeypatch)
    assert len(early_locked) == len(late_locked) == 6, early_locked
    assert len(early) == len(late) == 10, early  # with the session, the actor's club roles and seat, the answer
    tables = ["chouette_chouettesession", "chouette_seat", "chouette_sessionevent", "chouette_sessionevent"]
    tables += ["chouette_ledgerentry", "chouette_chouettesession"]
    for sql, table_name in zip(late_locked, tables, strict=True):
        assert table_name in sql.split("WHERE")[0], (table_name, sql)
    assert late[-1].startswith("SELECT") and "chouette_ledgerentry" in late[-1] and "clubs_player" in late[-1]


def test_a_correction_that_makes_a_later_game_impossible_is_refused_naming_that_game(api_as, club):
    session, p, _ = table(club)
    client = api_as(p["A"].user)
    client.post(url(session, "games/"), {"winner": "team"}, format="json")  # B box, A at the bottom
    double_a = {"events": [{"doubler": "box", "responses": [{"player": p["A"].pk, "response": "drop"}]}]}
    assert client.post(url(session, "games/"), {**double_a, "winner": "box"}, format="json").status_code == 201
    response = client.post(url(session, "games/1/correct/"), {"winner": "box", "reason": "A won"}, format="json")
    assert response.status_code == 400
    assert response.json()["errors"]["game"] == [
        "Game 2 no longer fits after this change: A is not on the team this game."
    ]
    assert SessionEvent.objects.get(session=session, game_number=1, is_current=True).version == 1  # unchanged


def test_stakes_and_rolls_keyed_by_something_other_than_a_player_id_are_refused_naming_the_field(api_as, club):
    players = [MembershipFactory(club=club, player__name=n).player for n in ("A", "B", "C")]
    client = api_as(MembershipFactory(club=club, role="director").player.user)
    ids = [p.pk for p in players]
    body = {"club": club.slug, "players": ids, "stakes": {"anna": 300}}
    response = client.post("/api/v1/chouette/sessions/", body, format="json")
    assert response.status_code == 400 and response.json()["errors"]["stakes"] == ["Key each stake by a player id."]
    body["stakes"] = {str(ids[1]): 300}
    session_id = client.post("/api/v1/chouette/sessions/", body, format="json").json()["id"]
    assert Seat.objects.get(session_id=session_id, player=players[1]).stake_cents == 300
    order = f"/api/v1/chouette/sessions/{session_id}/order/"
    response = client.post(order, {"rolls": {"x": 3}}, format="json")
    assert response.status_code == 400 and response.json()["errors"]["rolls"] == ["Key each roll by a player id."]
