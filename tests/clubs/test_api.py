import pytest

from clubs.models import Club, Membership, Player, Role
from tests.clubs.factories import ClubFactory, MembershipFactory

pytestmark = pytest.mark.django_db


def test_anonymous_user_lists_only_public_clubs(api):
    ClubFactory(name="Open Club", is_public=True)
    ClubFactory(name="Secret Club", is_public=False)
    response = api.get("/api/v1/clubs/")
    assert response.status_code == 200
    assert [c["name"] for c in response.json()["results"]] == ["Open Club"]


def test_member_of_private_club_sees_it(api_as):
    private = ClubFactory(name="Secret Club", is_public=False)
    member = MembershipFactory(club=private).player.user
    response = api_as(member).get("/api/v1/clubs/")
    assert "Secret Club" in [c["name"] for c in response.json()["results"]]


def test_anonymous_cannot_create_club(api):
    response = api.post("/api/v1/clubs/", {"name": "New"}, format="json")
    assert response.status_code == 403


def test_creating_a_club_makes_the_creator_its_admin(api_as, outsider_user):
    response = api_as(outsider_user).post(
        "/api/v1/clubs/", {"name": "Backgammon Hamburg", "city": "Hamburg"}, format="json"
    )
    assert response.status_code == 201, response.json()
    club = Club.objects.get(slug=response.json()["slug"])
    assert club.slug == "backgammon-hamburg"
    assert Membership.objects.get(club=club, player__user=outsider_user).role == Role.ADMIN


def test_duplicate_slug_is_a_conflict_on_the_slug(api_as, outsider_user, club):
    response = api_as(outsider_user).post("/api/v1/clubs/", {"name": "X", "slug": club.slug}, format="json")
    assert response.status_code == 409
    assert response.json()["code"] == "conflict" and response.json()["field"] == "slug"


def test_club_admin_updates_club_but_outsider_gets_403(api_as, club, admin_user, outsider_user):
    url = f"/api/v1/clubs/{club.slug}/"
    assert api_as(outsider_user).patch(url, {"city": "Köln"}, format="json").status_code == 403
    response = api_as(admin_user).patch(url, {"city": "Köln"}, format="json")
    assert response.status_code == 200
    club.refresh_from_db()
    assert club.city == "Köln"


def test_director_adds_walk_in_player_without_login(api_as, club, director_user):
    response = api_as(director_user).post("/api/v1/players/", {"name": "Walk In", "club": club.slug}, format="json")
    assert response.status_code == 201, response.json()
    player = Player.objects.get(pk=response.json()["id"])
    assert player.user is None and response.json()["has_login"] is False
    assert Membership.objects.filter(club=club, player=player, role=Role.PLAYER).exists()


def test_plain_member_cannot_add_players(api_as, club, member_user):
    response = api_as(member_user).post("/api/v1/players/", {"name": "Walk In", "club": club.slug}, format="json")
    assert response.status_code == 403


def test_creating_player_without_club_names_the_missing_field(api_as, director_user):
    response = api_as(director_user).post("/api/v1/players/", {"name": "Walk In"}, format="json")
    assert response.status_code == 400
    assert "club" in response.json()["errors"]


def test_players_filter_by_club(api, club):
    inside = MembershipFactory(club=club).player
    MembershipFactory()  # a member of another public club
    response = api.get("/api/v1/players/", {"club": club.slug})
    assert [p["id"] for p in response.json()["results"]] == [inside.pk]


def test_players_of_private_clubs_are_hidden_from_anonymous(api):
    hidden = MembershipFactory(club=ClubFactory(is_public=False)).player
    ids = [p["id"] for p in api.get("/api/v1/players/").json()["results"]]
    assert hidden.pk not in ids


def test_player_edits_own_name_but_not_someone_elses(api_as, club):
    me = MembershipFactory(club=club).player
    other = MembershipFactory(club=club).player
    client = api_as(me.user)
    assert client.patch(f"/api/v1/players/{me.pk}/", {"name": "New Name"}, format="json").status_code == 200
    assert client.patch(f"/api/v1/players/{other.pk}/", {"name": "Hacked"}, format="json").status_code == 403
    other.refresh_from_db()
    assert other.name != "Hacked"


def test_admin_promotes_member_to_director(api_as, club, admin_user):
    membership = MembershipFactory(club=club)
    response = api_as(admin_user).patch(f"/api/v1/memberships/{membership.pk}/", {"role": "director"}, format="json")
    assert response.status_code == 200
    membership.refresh_from_db()
    assert membership.role == Role.DIRECTOR


def test_last_admin_cannot_step_down(api_as, club, admin_user):
    membership = Membership.objects.get(club=club, player__user=admin_user)
    response = api_as(admin_user).patch(f"/api/v1/memberships/{membership.pk}/", {"role": "player"}, format="json")
    assert response.status_code == 400
    assert "at least one admin" in response.json()["errors"]["role"][0]


def test_director_cannot_change_memberships(api_as, club, director_user):
    membership = MembershipFactory(club=club)
    response = api_as(director_user).patch(f"/api/v1/memberships/{membership.pk}/", {"role": "admin"}, format="json")
    assert response.status_code == 403


def test_adding_existing_member_again_is_a_clear_error(api_as, club, admin_user):
    player = MembershipFactory(club=club).player
    response = api_as(admin_user).post("/api/v1/memberships/", {"club": club.slug, "player": player.pk}, format="json")
    assert response.status_code == 400
    assert "already a member" in response.json()["errors"]["player"][0]


def test_memberships_filter_by_role(api, club):
    MembershipFactory(club=club, role="director")
    MembershipFactory(club=club, role="player")
    response = api.get("/api/v1/memberships/", {"club": club.slug, "role": "director"})
    assert [m["role"] for m in response.json()["results"]] == ["director"]


def test_token_auth_works_for_scripts(api, club):
    user = MembershipFactory(club=club, role="admin").player.user
    token = api.post("/api/v1/auth/token/", {"username": user.username, "password": "pw-for-tests"}, format="json")
    assert token.status_code == 200
    api.credentials(HTTP_AUTHORIZATION=f"Token {token.json()['token']}")
    me = api.get("/api/v1/me/")
    assert me.status_code == 200
    assert me.json()["roles"] == {club.slug: "admin"}


@pytest.mark.parametrize(
    "body, content_type",
    [
        (b"{not json", "application/json"),
        (b"\xff\xfe\x00garbage", "application/json"),
        (b"[1, 2, 3]", "application/json"),
        (b'{"name": {"nested": true}}', "application/json"),
        (b'{"name": "' + b"x" * 500 + b'"}', "application/json"),
        (b"name=%ff%fe", "application/x-www-form-urlencoded"),
        (b"--boundary\r\nbroken", "multipart/form-data; boundary=boundary"),
        (b"<xml/>", "application/xml"),
    ],
)
@pytest.mark.parametrize("url", ["/api/v1/clubs/", "/api/v1/players/", "/api/v1/memberships/"])
def test_malformed_bodies_never_cause_a_server_error(api_as, outsider_user, url, body, content_type):
    response = api_as(outsider_user).generic("POST", url, body, content_type=content_type)
    assert response.status_code < 500, response.content
    assert response["Content-Type"].startswith("application/json")


def test_country_code_is_validated(api_as, outsider_user):
    response = api_as(outsider_user).post("/api/v1/clubs/", {"name": "X", "country": "DEU"}, format="json")
    assert response.status_code == 400
    assert "country" in response.json()["errors"]


def test_schema_lists_the_club_endpoints(api):
    response = api.get("/api/schema/")
    assert response.status_code == 200
    body = response.content.decode()
    assert "/api/v1/clubs/" in body and "/api/v1/players/" in body and "/api/v1/memberships/" in body


def test_unknown_player_is_404(api):
    assert api.get("/api/v1/players/999999/").status_code == 404
