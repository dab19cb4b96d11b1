import pytest

from base.management.commands.load_demo import DemoContext
from chouette import demo
from chouette.models import ChouetteSession, LedgerEntry, SessionEvent, Transfer
from clubs import demo as clubs_demo

pytestmark = pytest.mark.django_db


def test_demo_has_a_settled_session_and_one_in_progress_and_loads_twice_without_change():
    context = DemoContext(password="pw")
    clubs_demo.load(context)
    demo.load(context)
    counts = (ChouetteSession.objects.count(), SessionEvent.objects.count(), Transfer.objects.count())
    demo.load(context)
    assert (ChouetteSession.objects.count(), SessionEvent.objects.count(), Transfer.objects.count()) == counts
    finished = ChouetteSession.objects.get(name=demo.FINISHED)
    tonight = ChouetteSession.objects.get(name=demo.OPEN)
    assert finished.status == "finished" and tonight.status == "open" and tonight.games_played == 2
    settled = sum(t.cents for t in finished.transfers.all())
    assert settled == 5500  # A +55.00 is paid by the three others
    assert sum(LedgerEntry.objects.filter(session=finished).values_list("cents", flat=True)) == 0
    assert any("/chouette/" in line for line in context.lines)
