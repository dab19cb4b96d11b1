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
    assert club.memberships.filter(role="player", is_active=True).count() == 18
    assert club.is_approved and club.walk_ins.count() == 2  # the players without a login
    players = club.memberships.filter(role="player", is_active=True, player__created_by_club__isnull=True)
    assert players.count() == 16 and not players.filter(player__user__isnull=True).exists()  # all can sign in
    assert "  anna     Anna Becker" in first  # the logins, printed as a list
    assert club.memberships.filter(status="invited", player__user__username="visitor").exists()
    assert club.memberships.filter(role="admin", player__user__username="director").exists()


def test_every_demo_login_has_a_result_to_confirm_and_history_is_dated():
    from games.matchplay.selectors import reports_to_confirm

    call_command("load_demo")
    club = Club.objects.get(slug="bc-berlin")
    players = Player.objects.filter(memberships__club=club, user__isnull=False).exclude(user__username="director")
    players = players.exclude(user__username="visitor")
    assert players.count() == 16
    for player in players:
        assert reports_to_confirm(user=player.user).exists(), player.name
    days = set(Match.objects.filter(club=club, finished_at__isnull=False).values_list("finished_at__date", flat=True))
    assert len(days) > 3  # club nights on several past dates, not every match today


def test_demo_load_brings_the_club_nights_matches():
    call_command("load_demo")
    club = Club.objects.get(slug="bc-berlin")
    assert Match.objects.filter(club=club, status=MatchStatus.FINISHED, context="club_night").count() >= 3
    assert Match.objects.filter(club=club, status=MatchStatus.IN_PROGRESS).exists()
