# The player's "analyse my records" switch becomes yes / only for me / no: a yes stays yes, an off stays no.
# The club gets its own switch for rankings of error rates (analysing its records is not ranking its members).

from django.db import migrations, models


def keep_answers(apps, schema_editor):
    Player = apps.get_model("clubs", "Player")
    Player.objects.filter(analyse_records=True).update(analysis_consent="yes")


def back(apps, schema_editor):
    Player = apps.get_model("clubs", "Player")
    Player.objects.exclude(analysis_consent="no").update(analyse_records=True)


class Migration(migrations.Migration):

    dependencies = [
        ("clubs", "0006_player_display_name"),
    ]

    operations = [
        migrations.AddField(
            model_name="club",
            name="rank_error_rates",
            field=models.BooleanField(
                db_default=False,
                default=False,
                help_text="Rank the members by their error rate in this club's analysed matches (only players who allow it).",
                verbose_name="club rankings of error rates",
            ),
        ),
        migrations.AddField(
            model_name="player",
            name="analysis_consent",
            field=models.CharField(
                choices=[("yes", "Yes"), ("only_me", "Only for me"), ("no", "No")],
                db_default="no",
                default="no",
                help_text="Let GNU Backgammon analyse the records of my matches: error rates, errors and blunders.",
                max_length=8,
                verbose_name="analyse my records",
            ),
        ),
        migrations.RunPython(keep_answers, back),
        migrations.RemoveField(
            model_name="player",
            name="analyse_records",
        ),
        migrations.AddConstraint(
            model_name="player",
            constraint=models.CheckConstraint(
                condition=models.Q(("analysis_consent__in", ["yes", "only_me", "no"])),
                name="player_analysis_consent_known",
            ),
        ),
    ]
