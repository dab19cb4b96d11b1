"""The session's snapshot: a new game or seat change is applied to it instead of replaying the night, so the
stored snapshot must always be what a full replay of the current events gives — after any mix of games,
undos, corrections and seat changes, refused ones included — and entering a game costs the same queries
after 200 games as after 10."""

import importlib

import pytest
from django.apps import apps as django_apps
from django.core.exceptions import ValidationError
from django.db import connection
from django.test.utils import CaptureQueriesContext
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from base.api import Conflict
from base.errors import DomainError
from chouette import services
from chouette.models import ChouetteSession, LedgerEntry
from tests.chouette.factories import table
from tests.clubs.factories import MembershipFactory

pytestmark = pytest.mark.django_db

ACTIONS = ["game", "game", "game", "game", "undo", "correct", "join", "sit_out", "come_back", "leave"]


def a_game(session, draw_box_double, answer, winner, kind, points=0):
    """A game at the current seating: optionally the box doubles the captain, who answers, or the captain deals
    (`answer` "deal": settles for `points`, after the double if there was one). With everyone but the box
    sitting out there is no captain: the game is sent without a double and must be refused."""
    captain = session.order[1] if len(session.order) > 1 else None
    doubled = draw_box_double and captain is not None
    response = "take" if answer == "deal" else answer
    events = [{"doubler": "box", "responses": [{"player": captain, "response": response}]}] if doubled else []
    deals = [{"player": captain, "points": points}] if answer == "deal" and captain is not None else []
    return {"events": events, "winner": winner, "kind": kind, "deals": deals}


def ledger_by_game(session):
    rows = LedgerEntry.objects.filter(session=session).values_list(
        "game_number", "player_id", "points", "cents", "deal"
    )
    return sorted(rows)


steps = st.lists(
    st.tuples(
        st.sampled_from(ACTIONS),
        st.integers(0, 5),  # which player (seat changes) or which game (corrections)
        st.booleans(),
        st.sampled_from(["take", "drop", "beaver", "deal"]),
        st.sampled_from(["box", "team"]),
        st.sampled_from(["single", "gammon", "backgammon"]),
    ),
    min_size=1,
    max_size=14,
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=steps, rules=st.sampled_from([{}, {"newcomer": "ahead_of_loser", "box_keeps": "net_not_loss"}]))
def test_the_stored_snapshot_is_what_a_replay_of_the_events_gives(club, steps, rules):
    session, players, director = table(club, rules=rules)
    extra = [MembershipFactory(club=club, player__name=name).player for name in ("E", "F")]
    everyone = [*players.values(), *extra]
    for action, pick, doubles, answer, winner, kind in steps:
        session.refresh_from_db()
        player = everyone[pick % len(everyone)]
        try:
            if action == "game":
                game = a_game(session, doubles, answer, winner, kind, points=pick - 2)
                services.record_game(actor=director, session=session, game=game)
            elif action == "undo":
                services.undo_last_game(actor=director, session=session)
            elif action == "correct":
                number = 1 + pick % max(session.games_played, 1)
                game = a_game(session, doubles, answer, winner, kind, points=pick - 2)
                services.correct_game(actor=director, session=session, number=number, game=game, reason="typo")
            elif action == "join":
                services.join(actor=director, session=session, player=player)
            elif action == "sit_out":
                services.sit_out(actor=director, session=session, player=player)
            elif action == "come_back":
                services.come_back(actor=director, session=session, player=player)
            else:
                services.leave(actor=director, session=session, player=player)
        except (Conflict, DomainError, ValidationError):
            pass  # refused: nothing may have changed, which the comparison below checks too
        session.refresh_from_db()
        assert session.snapshot == services.replayed_snapshot(session)
        assert session.order == session.snapshot["order"]
        assert session.games_played == session.snapshot["games_played"]
    # the ledger the games wrote one by one is the ledger a full rebuild writes
    written = ledger_by_game(session)
    services.common.rebuild(session, from_game=1)
    assert ledger_by_game(session) == written


def entering_queries(session, director, games: int) -> int:
    for _ in range(games):
        session.refresh_from_db()
        services.record_game(actor=director, session=session, game={"winner": "team"})
    session.refresh_from_db()
    with CaptureQueriesContext(connection) as queries:
        services.record_game(actor=director, session=session, game={"winner": "box", "kind": "gammon"})
    return len(queries)


def test_a_game_costs_the_same_queries_after_200_games_as_after_10(club):
    short, _players, director = table(club, names=("A", "B", "C", "D"))
    long, _others, _director = table(club, names=("P", "Q", "R", "S"), director=director)
    after_10 = entering_queries(short, director, 10)
    after_200 = entering_queries(long, director, 200)
    assert after_10 == after_200
    # measured 9 on SQLite (was 14 before the lock was taken later); PostgreSQL adds the lock's SET LOCAL timeout
    assert after_200 <= 9 + (connection.vendor == "postgresql"), after_200


def test_the_games_list_is_a_page_in_the_same_queries_however_long_the_night(club, api_as):
    session, players, director = table(club)
    client = api_as(director)

    def page_queries():
        with CaptureQueriesContext(connection) as queries:
            body = client.get(f"/api/v1/chouette/sessions/{session.pk}/games/?limit=20").json()
        return len(queries), body

    for _ in range(5):
        session.refresh_from_db()
        services.record_game(actor=director, session=session, game={"winner": "team"})
    few, body = page_queries()
    assert body["count"] == 5 and len(body["results"]) == 5
    for _ in range(60):
        session.refresh_from_db()
        services.record_game(actor=director, session=session, game={"winner": "team"})
    many, body = page_queries()
    assert body["count"] == 65 and len(body["results"]) == 20
    assert many == few
    hostile = client.get(f"/api/v1/chouette/sessions/{session.pk}/games/?limit=99999999999999999999999")
    assert hostile.status_code == 200 and len(hostile.json()["results"]) == 65


def test_the_migration_backfills_the_snapshot_of_existing_sessions_from_the_replay(club):
    session, players, director = table(club)
    for winner in ("team", "box", "team"):
        session.refresh_from_db()
        services.record_game(actor=director, session=session, game={"winner": winner})
    services.sit_out(actor=director, session=session, player=players["C"])
    expected = services.replayed_snapshot(session)
    ChouetteSession.objects.filter(pk=session.pk).update(snapshot={})  # as the column arrives on old rows
    migration = importlib.import_module("chouette.migrations.0002_hotwrite_snapshot")
    migration.backfill(django_apps, None)
    session.refresh_from_db()
    assert session.snapshot == expected and session.snapshot["games_played"] == 3
