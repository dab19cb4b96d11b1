import pytest
from django.contrib.auth.models import AnonymousUser
from django.urls import reverse

from clubs.models import Membership
from clubs.selectors import directed_clubs
from tests.clubs.factories import ClubFactory, MembershipFactory

pytestmark = pytest.mark.django_db


def test_home_lists_public_clubs(client, club):
    response = client.get("/")
    assert response.status_code == 200
    assert club.name in response.content.decode()


def test_club_page_shows_members_with_roles(client, club):
    MembershipFactory(club=club, player__name="Anna Becker", role="director")
    response = client.get(club.get_absolute_url())
    body = response.content.decode()
    assert response.status_code == 200
    assert "Anna Becker" in body and "Tournament director" in body


def test_private_club_page_is_404_for_outsiders(client):
    private = ClubFactory(is_public=False)
    assert client.get(private.get_absolute_url()).status_code == 404


def test_club_page_renders_with_few_queries(client, club, django_assert_max_num_queries):
    for _ in range(40):
        MembershipFactory(club=club)
    with django_assert_max_num_queries(8):
        client.get(club.get_absolute_url())


def test_player_page_lists_clubs(client, club):
    player = MembershipFactory(club=club).player
    response = client.get(player.get_absolute_url())
    assert response.status_code == 200
    assert club.name in response.content.decode()


def test_director_adds_walk_in_from_club_page(client, club, director_user):
    client.force_login(director_user)
    response = client.post(reverse("clubs:add-walk-in", args=[club.slug]), {"name": "Night Guest"}, follow=True)
    assert "Night Guest joined the club." in response.content.decode()
    assert Membership.objects.filter(club=club, player__name="Night Guest").exists()


def test_member_cannot_add_walk_in_and_is_told_why(client, club, member_user):
    client.force_login(member_user)
    response = client.post(reverse("clubs:add-walk-in", args=[club.slug]), {"name": "Night Guest"}, follow=True)
    assert "Only a director or admin" in response.content.decode()
    assert not Membership.objects.filter(player__name="Night Guest").exists()


def test_sign_in_page_and_login(client, member_user):
    assert client.get(reverse("login")).status_code == 200
    response = client.post(reverse("login"), {"username": member_user.username, "password": "pw-for-tests"})
    assert response.status_code == 302


def test_language_switch_shows_german(client, club):
    client.post(reverse("set_language"), {"language": "de", "next": "/"})
    body = client.get("/").content.decode()
    assert "Anmelden" in body  # "Sign in"
    assert 'lang="de"' in body


def test_every_page_offers_the_language_switch(client, club):
    for url in ["/", club.get_absolute_url(), reverse("login")]:
        assert 'name="language"' in client.get(url).content.decode()


def test_api_docs_page_is_served_without_cdn(client):
    response = client.get("/api/docs/")
    assert response.status_code == 200
    assert "cdn.jsdelivr" not in response.content.decode()


def test_health_reports_database(client):
    data = client.get("/health/").json()
    assert data["database"]["status"] == "ok"


def test_directed_clubs_are_the_clubs_a_user_directs_or_administers(club, admin_user, director_user, member_user):
    other = ClubFactory()
    MembershipFactory(club=other, player=director_user.player, role="player")
    assert list(directed_clubs(user=director_user)) == [club]
    assert list(directed_clubs(user=admin_user)) == [club]
    assert list(directed_clubs(user=member_user)) == []
    assert list(directed_clubs(user=AnonymousUser())) == []
