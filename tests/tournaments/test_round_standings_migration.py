"""The RoundStandings migration adds the table of the standings each round was paired from, one per round, and
takes it away again: flights paired before it simply have none (the API answers 404 for their rounds)."""

import pytest
from django.db import IntegrityError, connection, transaction
from django.db.migrations.executor import MigrationExecutor

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("tournaments", "0013_variants_flight_settings")]
AFTER = [("tournaments", "0015_round_standings")]


def test_the_migration_adds_one_kept_table_per_round_and_reverses():
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    assert "tournaments_roundstandings" not in connection.introspection.table_names()

    executor = MigrationExecutor(connection)
    executor.migrate(AFTER)
    apps = executor.loader.project_state(AFTER).apps
    Club, Event, Flight = (
        apps.get_model(*name) for name in (("clubs", "Club"), ("tournaments", "Event"), ("tournaments", "Flight"))
    )
    RoundStandings = apps.get_model("tournaments", "RoundStandings")
    club = Club.objects.create(name="Club", slug="club")
    event = Event.objects.create(club=club, name="Open", slug="open", starts_on="2026-05-01", ends_on="2026-05-01")
    flight = Flight.objects.create(event=event, name="Swiss", slug="swiss", format="swiss", rounds=3)
    RoundStandings.objects.create(flight=flight, round=1, rows=[], order=["wins"], seed=7)
    with pytest.raises(IntegrityError), transaction.atomic():
        RoundStandings.objects.create(flight=flight, round=1, rows=[], order=["wins"])

    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())  # back to the newest schema for the tests after this
