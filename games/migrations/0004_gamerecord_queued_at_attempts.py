from django.db import migrations, models


class Migration(migrations.Migration):
    """When a record's verification was last sent: the sweep sends unfinished records again once this is old or
    empty (empty for every record stored before, so records stuck as pending are swept at once). And how many
    times a worker started it: a record whose worker died on it again and again gets a verdict saying so."""

    dependencies = [
        ("games", "0003_gamerecord_claimed_at"),
    ]

    operations = [
        migrations.AddField(
            model_name="gamerecord",
            name="queued_at",
            field=models.DateTimeField(
                blank=True, help_text="When its verification was last sent to the task queue.", null=True
            ),
        ),
        migrations.AddField(
            model_name="gamerecord",
            name="attempts",
            field=models.PositiveSmallIntegerField(default=0, help_text="How many times a worker started verifying it."),
        ),
    ]
