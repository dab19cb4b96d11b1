"""The session's snapshot of the core's state, so a new game applies one game instead of replaying the night.

Existing sessions get theirs from a replay of their current events (the pure core, as the services do)."""

from django.db import migrations, models

from chouette import entries
from chouette.core import session as core
from chouette.core.table_options import Rules


def backfill(apps, schema_editor):
    session_model = apps.get_model("chouette", "ChouetteSession")
    for session in session_model.objects.all().iterator():
        stakes = dict(session.seats.values_list("player_id", "stake_cents"))
        rows = session.events.filter(is_current=True).order_by("seq")
        state = core.replay((entries.core_event(row) for row in rows), rules=Rules.from_dict(session.rules), stakes=stakes)
        session.snapshot = core.to_snapshot(state)
        session.save(update_fields=["snapshot"])


class Migration(migrations.Migration):
    dependencies = [("chouette", "0001_initial")]

    operations = [
        migrations.AddField(
            model_name="chouettesession",
            name="snapshot",
            field=models.JSONField(blank=True, default=dict, editable=False),
        ),
        migrations.RunPython(backfill, migrations.RunPython.noop),
    ]
