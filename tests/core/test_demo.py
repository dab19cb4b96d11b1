import pytest
from django.core.management import call_command

from clubs.models import Club, Membership, Player
from games.models.matches import Match, MatchStatus

pytestmark = pytest.mark.django_db


def test_demo_load_is_idempotent_and_prints_the_director_login(capsys):
    call_command("load_demo")
    first = capsys.readouterr().out
    counts = (Club.objects.count(), Player.objects.count(), Membership.objects.count())
    call_command("load_demo")
    assert (Club.objects.count(), Player.objects.count(), Membership.objects.count()) == counts
    assert "Director login: director / " in first
    club = Club.objects.get(slug="bc-berlin")
    assert club.memberships.filter(role="player", is_active=True).count() == 16
    assert club.is_approved and club.walk_ins.count() == 12  # the players without a login
    assert club.memberships.filter(status="invited", player__user__username="visitor").exists()
    assert club.memberships.filter(role="admin", player__user__username="director").exists()


def test_demo_load_brings_the_club_nights_matches():
    call_command("load_demo")
    club = Club.objects.get(slug="bc-berlin")
    assert Match.objects.filter(club=club, status=MatchStatus.FINISHED, context="club_night").count() >= 3
    assert Match.objects.filter(club=club, status=MatchStatus.IN_PROGRESS).exists()
