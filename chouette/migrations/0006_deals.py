from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("chouette", "0005_joining")]

    operations = [
        migrations.AddField(
            model_name="ledgerentry",
            name="deal",
            field=models.BooleanField(default=False),
        ),
    ]
