"""The consent migration keeps existing rows standing: clubs approved, memberships accepted, players without a
login become walk-ins of the club they first joined."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("clubs", "0001_initial")]
AFTER = [("clubs", "0002_consent_and_approval")]


def test_existing_clubs_memberships_and_walk_ins_keep_their_standing():
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    Club, Player, Membership = (old.get_model("clubs", name) for name in ("Club", "Player", "Membership"))
    first, second = Club.objects.create(name="First", slug="first"), Club.objects.create(name="Second", slug="s")
    walk_in = Player.objects.create(name="Walk-in")
    Membership.objects.create(club=first, player=walk_in, role="player")
    Membership.objects.create(club=second, player=walk_in, role="player")

    executor = MigrationExecutor(connection)
    executor.migrate(AFTER)
    new = executor.loader.project_state(AFTER).apps
    Club, Player, Membership = (new.get_model("clubs", name) for name in ("Club", "Player", "Membership"))
    assert set(Club.objects.values_list("is_approved", flat=True)) == {True}
    assert set(Membership.objects.values_list("status", "is_active")) == {("accepted", True)}
    assert Player.objects.get(pk=walk_in.pk).created_by_club_id == first.pk
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())  # back to the newest schema for the tests after this
