import pytest
from django.core.management import call_command

from games.models import GameRecord

pytestmark = pytest.mark.django_db


def test_demo_loads_verified_records_once(settings, tmp_path, capsys):
    settings.MEDIA_ROOT = tmp_path
    call_command("load_demo")
    call_command("load_demo")
    # The records demo's own uploads; the long nardy night's records belong to its matches.
    statuses = sorted(GameRecord.objects.filter(match__isnull=True).values_list("status", flat=True))
    assert statuses == ["invalid", "valid", "valid"]
    flawed = GameRecord.objects.get(status="invalid")
    assert flawed.verdict["errors"][0]["code"] == "wrong_points"
    assert "Game records: 3" in capsys.readouterr().out
