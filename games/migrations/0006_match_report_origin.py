"""MatchReport.origin: how a result version came (typed on the match, a director's override from the bracket,
a rule acting on someone's action, a bracket change voiding the match), so that `submitted_by` can always name
the person who acted. Versions stored before keep the default "manual": which of them a tournament wrote in a
director's name cannot be told apart reliably (their comments are translated text).
"""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0005_game_record_sha256_once_per_uploader'),
    ]

    operations = [
        migrations.AddField(
            model_name='matchreport',
            name='origin',
            field=models.CharField(choices=[('manual', 'Reported'), ('override', "Director's override"), ('system', "Automatic (on a player's or director's action)"), ('bracket', 'Voided by a bracket change')], default='manual', max_length=12),
        ),
    ]
