"""The variant migrations keep what was played: a match stored before them is standard backgammon with the cube
and the rule texts' readings (the settings' defaults)."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("games", "0006_match_report_origin")]
AFTER = [("games", "0008_variants_match_settings")]


def test_a_match_stored_before_the_variants_is_standard_with_the_cube_and_the_default_settings():
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    Player, Match = old.get_model("clubs", "Player"), old.get_model("games", "Match")
    a, b = Player.objects.create(name="Anna"), Player.objects.create(name="Boris")
    match = Match.objects.create(player_a=a, player_b=b, length=5)

    executor = MigrationExecutor(connection)
    executor.migrate(AFTER)
    new = executor.loader.project_state(AFTER).apps
    stored = new.get_model("games", "Match").objects.get(pk=match.pk)
    form = (stored.variant, stored.stakes, stored.dave_progression)
    settings = (stored.backward_hits, stored.head_doubles, stored.six_block)
    assert form == ("standard", "cube", "geometric") and settings == ("any_die", "classic", "ahead")
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())  # back to the newest schema for the tests after this
