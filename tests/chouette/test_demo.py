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


def test_the_demos_settled_table_shows_its_payers_a_paypal_link_to_the_winner():
    """The demo's first player stored a PayPal.Me handle: each who pays them on last week's table sees "Pay with
    PayPal" with their own amount; the winner, paid, sees none."""
    from django.test import Client
    from django.utils import translation

    context = DemoContext(password="pw")
    clubs_demo.load(context)
    demo.load(context)
    finished = ChouetteSession.objects.get(name=demo.FINISHED)
    url = f"/chouette/{finished.club.slug}/{finished.pk}/settlement/"
    transfers = list(finished.transfers.select_related("payer__user", "payee"))
    assert {t.payee_id for t in transfers} == {context.players[0].pk}
    for t in transfers:
        client = Client()
        client.force_login(t.payer.user)
        with translation.override("en"):
            page = client.get(url).content.decode()
        amount = f"{t.cents // 100}.{t.cents % 100:02d}EUR"
        assert f"https://paypal.me/{clubs_demo.DEMO_PAYPAL_HANDLE}/{amount}" in page and "Pay with PayPal" in page
    winner = Client()
    winner.force_login(context.players[0].user)
    assert "paypal.me" not in winner.get(url).content.decode()
