"""A record belongs to its uploader: the same bytes uploaded by someone else become their own record.

Before, the SHA-256 was unique and a second uploader's batch linked the first uploader's record, which then
showed them its uploader and its (private) match. Here each such link becomes a record of the batch's uploader
(sharing the stored file and the verdict already reached, without the other person's match).
"""

from django.conf import settings
from django.db import migrations, models

COPIED = ("file", "name", "sha256", "size", "format", "status", "verdict", "claimed_at", "verified_at")


def split_shared_records(apps, schema_editor):
    GameRecord = apps.get_model("games", "GameRecord")
    Link = GameRecord.batches.through
    foreign = Link.objects.exclude(uploadbatch__uploader_id=models.F("gamerecord__uploader_id")).select_related(
        "gamerecord", "uploadbatch"
    )
    own: dict[tuple[int, str], int] = {}
    for link in foreign.iterator():
        record, uploader_id = link.gamerecord, link.uploadbatch.uploader_id
        key = (uploader_id, record.sha256)
        if key not in own:
            copy = GameRecord.objects.create(uploader_id=uploader_id, **{f: getattr(record, f) for f in COPIED})
            own[key] = copy.pk
        Link.objects.filter(pk=link.pk).update(gamerecord_id=own[key])


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0004_gamerecord_queued_at_attempts'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AlterField(
            model_name='gamerecord',
            name='sha256',
            field=models.CharField(db_index=True, max_length=64),
        ),
        migrations.RunPython(split_shared_records, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name='gamerecord',
            constraint=models.UniqueConstraint(fields=('uploader', 'sha256'), name='game_record_once_per_uploader'),
        ),
    ]
