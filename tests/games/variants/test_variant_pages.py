"""The pages that show a variant: a long nardy match offers oin and mars (no cube), a Dave match the stake, a
chouette table with Dave stakes takes each member's final stake and who gave up."""

import pytest
from django.test import Client

from chouette.models import LedgerEntry
from tests.chouette.factories import table
from tests.clubs.factories import MembershipFactory
from tests.games.matchplay.factories import MatchFactory

pytestmark = pytest.mark.django_db


def signed_in(user):
    client = Client()
    client.force_login(user)
    return client


def test_a_long_nardy_match_page_offers_oin_and_mars_and_no_cube(club):
    a, b = MembershipFactory(club=club).player, MembershipFactory(club=club).player
    match = MatchFactory(club=club, player_a=a, player_b=b, length=3, variant="long_nardy")
    client = signed_in(a.user)
    page = client.get(match.get_absolute_url()).content.decode()
    assert "Long nardy" in page and 'value="mars"' in page and 'value="gammon"' not in page
    assert 'name="cube" value="1"' in page and "Crawford" not in page
    # the line under the score says what the game is played for: never a cube that long nardy does not have
    assert "Cube in play" not in page and "No cube in long nardy" in page
    client.post(f"/matches/{match.pk}/games/", {"winner_side": "1", "kind": "mars", "cube": "1"})
    assert [(g.kind, g.points) for g in match.games.all()] == [("mars", 2)]


def test_a_dave_match_page_asks_for_the_stake(club):
    a, b = MembershipFactory(club=club).player, MembershipFactory(club=club).player
    match = MatchFactory(club=club, player_a=a, player_b=b, stakes="dave", dave_progression="arithmetic")
    page = signed_in(a.user).get(match.get_absolute_url()).content.decode()
    assert "Dave (Arithmetic" in page and "Stake" in page and '<option value="3">3</option>' in page
    assert "Cube in play" not in page and "Daves raise the stake" in page
    signed_in(a.user).post(f"/matches/{match.pk}/games/", {"winner_side": "0", "kind": "drop", "cube": "3"})
    assert [(g.kind, g.points) for g in match.games.all()] == [("drop", 3)]


def test_a_dave_chouette_table_takes_the_final_stakes_from_its_form(club):
    session, p, _director = table(club, stake_form="dave")
    client = signed_in(p["B"].user)
    page = client.get(f"/chouette/{club.slug}/{session.pk}/").content.decode()
    assert "Final stake" in page and "cube_" not in page
    form = {
        "expected_number": "1",
        "idempotency_key": "d1",
        "winner": "team",
        "kind": "single",
        f"dave_{p['B'].pk}": "2",
        f"gave_up_{p['B'].pk}": "",
        f"dave_{p['C'].pk}": "4",
        f"gave_up_{p['C'].pk}": "member",
        f"dave_{p['D'].pk}": "1",
        f"gave_up_{p['D'].pk}": "",
    }
    response = client.post(f"/chouette/{club.slug}/{session.pk}/games/", form, follow=True)
    assert b"Game entered." in response.content
    points = {e.player.name: int(e.points) for e in LedgerEntry.objects.filter(session=session)}
    assert points == {"A": 1, "B": 2, "C": -4, "D": 1}
