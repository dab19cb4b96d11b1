"""The identity and consent chains an outsider tried, refused end to end; invitations and walk-in claims."""

import pytest

from clubs import services
from clubs.models import Membership, Player, WalkInClaim
from tests.clubs.factories import ClubFactory, MembershipFactory, PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db


def outsiders_club(api_as, outsider_user, *, is_public=True):
    response = api_as(outsider_user).post("/api/v1/clubs/", {"name": "Mine", "is_public": is_public}, format="json")
    assert response.status_code == 201
    return response.json()["slug"]


def test_adding_someone_elses_player_to_ones_own_club_gives_no_right_to_edit_him(api_as, outsider_user, club):
    """Chain 1: create a club, add player 2 of another club, PATCH him — refused; he is only invited."""
    victim = MembershipFactory(club=club, role="admin").player
    slug = outsiders_club(api_as, outsider_user)
    client = api_as(outsider_user)
    added = client.post("/api/v1/memberships/", {"club": slug, "player": victim.pk}, format="json")
    assert added.status_code == 201 and added.json()["status"] == "invited" and added.json()["is_active"] is False
    patched = client.patch(f"/api/v1/players/{victim.pk}/", {"name": "Renamed"}, format="json")
    assert patched.status_code == 403 and "only by that person" in patched.json()["detail"]
    victim.refresh_from_db()
    assert victim.name != "Renamed"
    # Not even the club admin of his own club renames him: a player with an account is his own.
    assert (
        api_as(club.memberships.get(player=victim).player.user)
        .patch(f"/api/v1/players/{victim.pk}/", {"name": "Own choice"}, format="json")
        .status_code
        == 200
    )
    other_admin = MembershipFactory(club=club, role="admin").player.user
    assert api_as(other_admin).patch(f"/api/v1/players/{victim.pk}/", {"name": "X"}, format="json").status_code == 403


def test_the_membership_trick_does_not_list_a_private_clubs_players(api_as, outsider_user):
    private = ClubFactory(is_public=False)
    hidden = [MembershipFactory(club=private).player for _ in range(3)]
    slug = outsiders_club(api_as, outsider_user)
    client = api_as(outsider_user)
    for player in hidden:
        response = client.post("/api/v1/memberships/", {"club": slug, "player": player.pk}, format="json")
        assert response.status_code == 400 and "invite a person by username" in str(response.json())
    by_name = client.post("/api/v1/memberships/", {"club": slug, "username": hidden[0].user.username}, format="json")
    assert by_name.status_code == 201  # invited: it waits for the person's answer
    listed = {p["id"] for p in client.get("/api/v1/players/", {"club": slug, "limit": 100}).json()["results"]}
    assert not listed & {p.pk for p in hidden}
    for player in hidden:
        assert client.get(f"/api/v1/players/{player.pk}/").status_code == 404


def test_invitation_accepted_makes_a_member_declined_does_not(api_as, club, director_user):
    invitee, refuser = UserFactory(), PlayerFactory()
    client = api_as(director_user)
    first = client.post("/api/v1/memberships/", {"club": club.slug, "username": invitee.username}, format="json")
    second = client.post("/api/v1/memberships/", {"club": club.slug, "username": refuser.user.username}, format="json")
    assert first.status_code == second.status_code == 201
    # Waiting invitations give no role and do not list the invitee as a member.
    assert club.slug not in api_as(invitee).get("/api/v1/me/").json()["roles"]
    members = {m["player"] for m in api_as(None).get("/api/v1/memberships/", {"club": club.slug}).json()["results"]}
    assert first.json()["player"] not in members
    # Nobody else answers for the invitee.
    assert api_as(director_user).post(f"/api/v1/memberships/{first.json()['id']}/accept/").status_code == 403
    mine = api_as(invitee).get("/api/v1/memberships/", {"status": "invited"}).json()["results"]
    assert [m["id"] for m in mine] == [first.json()["id"]]
    accepted = api_as(invitee).post(f"/api/v1/memberships/{first.json()['id']}/accept/")
    assert accepted.status_code == 200 and accepted.json()["status"] == "accepted"
    assert api_as(invitee).get("/api/v1/me/").json()["roles"] == {club.slug: "player"}
    declined = api_as(refuser.user).post(f"/api/v1/memberships/{second.json()['id']}/decline/")
    assert declined.status_code == 200 and declined.json()["status"] == "declined"
    assert not Membership.objects.get(pk=second.json()["id"]).is_active
    # Answered once: a second answer is a clear 400, and an admin cannot switch a declined membership on.
    again = api_as(refuser.user).post(f"/api/v1/memberships/{second.json()['id']}/accept/")
    assert again.status_code == 400 and "already answered" in str(again.json())
    admin = MembershipFactory(club=club, role="admin").player.user
    forced = api_as(admin).patch(f"/api/v1/memberships/{second.json()['id']}/", {"is_active": True}, format="json")
    assert forced.status_code == 400 and "Invite the player again" in str(forced.json())


def test_invitations_page_lists_and_answers(client, club, director_user):
    invitee = UserFactory()
    membership = services.invite(actor=director_user, club=club, username=invitee.username)
    client.force_login(invitee)
    page = client.get("/invitations/")
    assert page.status_code == 200 and club.name in page.content.decode()
    response = client.post(f"/invitations/{membership.pk}/accept/", follow=True)
    assert response.status_code == 200 and f"Welcome to {club.name}" in response.content.decode()
    assert Membership.objects.get(pk=membership.pk).is_active
    client.force_login(director_user)
    assert client.post(f"/invitations/{membership.pk}/decline/").status_code == 404  # not his invitation


def test_a_walk_in_is_claimed_by_its_person_and_keeps_its_history(api_as, club, director_user):
    from games.matchplay import services as matchplay
    from ratings.selectors import player_ratings

    walk_in = services.create_player(actor=director_user, club=club, name="Visitor")
    regular = MembershipFactory(club=club).player
    match = matchplay.create_match(
        actor=director_user, player_a=walk_in, player_b=regular, length=5, context="club_night", club=club
    )
    matchplay.submit_report(actor=director_user, match=match, method="final_score", scores=(5, 2), as_director=True)
    rating_before = player_ratings(player_ids=[walk_in.pk], club_id=club.pk)[walk_in.pk]
    assert rating_before > 1500
    person = UserFactory()
    stranger_director = MembershipFactory(role="director").player.user
    players_before = Player.objects.count()

    claim = api_as(person).post("/api/v1/walk-in-claims/", {"player": walk_in.pk}, format="json")
    assert claim.status_code == 201 and claim.json()["status"] == "pending"
    assert api_as(person).get(f"/api/v1/walk-in-claims/{claim.json()['id']}/").json()["status"] == "pending"
    assert api_as(stranger_director).post(f"/api/v1/walk-in-claims/{claim.json()['id']}/confirm/").status_code in (
        403,
        404,
    )
    confirmed = api_as(director_user).post(f"/api/v1/walk-in-claims/{claim.json()['id']}/confirm/")
    assert confirmed.status_code == 200 and confirmed.json()["status"] == "confirmed"

    walk_in.refresh_from_db()
    assert walk_in.user == person and Player.objects.count() == players_before  # no duplicate player
    assert player_ratings(player_ids=[walk_in.pk], club_id=club.pk)[walk_in.pk] == rating_before
    assert api_as(person).get("/api/v1/me/").json()["player"]["id"] == walk_in.pk
    # Now it is theirs: they edit it, the club no longer does.
    assert (
        api_as(person).patch(f"/api/v1/players/{walk_in.pk}/", {"name": "Real Name"}, format="json").status_code == 200
    )
    assert (
        api_as(director_user).patch(f"/api/v1/players/{walk_in.pk}/", {"name": "X"}, format="json").status_code == 403
    )


def test_the_club_edits_its_own_walk_ins_only(api_as, club, director_user):
    own = services.create_player(actor=director_user, club=club, name="Guest")
    elsewhere = MembershipFactory(role="director")
    foreign = services.create_player(actor=elsewhere.player.user, club=elsewhere.club, name="G")
    client = api_as(director_user)
    assert client.patch(f"/api/v1/players/{own.pk}/", {"name": "Guest B"}, format="json").status_code == 200
    assert client.patch(f"/api/v1/players/{foreign.pk}/", {"name": "Mine now"}, format="json").status_code in (403, 404)


def test_a_claim_by_someone_with_history_is_refused_with_what_to_do(club, director_user):
    walk_in = services.create_player(actor=director_user, club=club, name="Visitor")
    veteran = MembershipFactory(club=ClubFactory()).player.user
    with pytest.raises(Exception, match="ask site staff to merge"):
        services.claim_walk_in(actor=veteran, player=walk_in)


def test_a_claim_by_an_invited_person_moves_the_invitation_to_the_walk_in(club, director_user):
    other_club = ClubFactory()
    other_director = MembershipFactory(club=other_club, role="director").player.user
    walk_in = services.create_player(actor=director_user, club=club, name="Visitor")
    person = UserFactory()
    invitation = services.invite(actor=other_director, club=other_club, username=person.username)
    claim = services.claim_walk_in(actor=person, player=walk_in)
    services.decide_claim(actor=director_user, claim=claim, confirm=True)
    invitation.refresh_from_db()
    assert invitation.player_id == walk_in.pk and Player.objects.filter(user=person).get() == walk_in
    assert WalkInClaim.objects.get(pk=claim.pk).status == "confirmed"


def test_the_club_page_invites_and_confirms_claims_for_its_directors_only(client, club, director_user, member_user):
    walk_in = services.create_player(actor=director_user, club=club, name="Visitor")
    person, invitee = UserFactory(), UserFactory()
    client.force_login(person)
    client.post(f"/players/{walk_in.pk}/claim/")
    claim = WalkInClaim.objects.get(user=person)

    client.force_login(member_user)
    page = client.get(f"/clubs/{club.slug}/").content.decode()
    assert "Invite a player with an account" not in page and "Walk-in claims to confirm" not in page
    client.post(f"/clubs/{club.slug}/invite/", {"username": invitee.username})
    assert not Membership.objects.filter(player__user=invitee).exists()

    client.force_login(director_user)
    page = client.get(f"/clubs/{club.slug}/").content.decode()
    assert "Walk-in claims to confirm" in page and person.username in page
    response = client.post(f"/clubs/{club.slug}/invite/", {"username": invitee.username}, follow=True)
    assert "is invited; they join once they accept" in response.content.decode()
    assert Membership.objects.get(player__user=invitee).status == "invited"
    response = client.post(f"/claims/{claim.pk}/confirm/", follow=True)
    assert f"{person.username} is now the player Visitor" in response.content.decode()
    walk_in.refresh_from_db()
    assert walk_in.user == person


def test_a_private_clubs_slug_lists_none_of_its_members_to_outsiders(api_as, outsider_user):
    private, public = ClubFactory(is_public=False), ClubFactory()
    both = MembershipFactory(club=private).player
    MembershipFactory(club=public, player=both)
    inside = MembershipFactory(club=private).player.user

    def listed(user):
        response = api_as(user).get("/api/v1/players/", {"club": private.slug})
        return {p["id"] for p in response.json()["results"]}

    assert listed(outsider_user) == set() and listed(None) == set()
    assert both.pk in listed(inside)


def test_a_director_refuses_a_claim_and_the_walk_in_stays_the_clubs(club, director_user, api_as):
    walk_in = PlayerFactory(user=None, created_by_club=club)
    MembershipFactory(club=club, player=walk_in)
    person = UserFactory()
    claim = api_as(person).post("/api/v1/walk-in-claims/", {"player": walk_in.pk}, format="json").json()
    refused = api_as(director_user).post(f"/api/v1/walk-in-claims/{claim['id']}/refuse/")
    assert refused.status_code == 200 and refused.json()["status"] == "refused"
    walk_in.refresh_from_db()
    assert walk_in.user is None
