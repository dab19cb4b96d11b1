import pytest

from base.management.commands.load_demo import DemoContext
from clubs import demo as clubs_demo
from games.matchplay import demo
from games.models.matches import Match, MatchStatus

pytestmark = pytest.mark.django_db


def test_demo_has_finished_matches_and_one_in_progress_and_is_idempotent():
    context = DemoContext(password="pw")
    clubs_demo.load(context)
    demo.load(context)
    demo.load(context)
    statuses = sorted(Match.objects.values_list("status", flat=True))
    assert statuses.count(MatchStatus.FINISHED) == 3 and statuses.count(MatchStatus.IN_PROGRESS) == 1
    assert all(m.reports.filter(confirmed=True).exists() for m in Match.objects.filter(status=MatchStatus.FINISHED))
