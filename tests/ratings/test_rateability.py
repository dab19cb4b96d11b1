"""What counts in a pool is one rule (ratings.services.pools.rateable_matches): strangers' results do not move
anyone's rating, a new club counts overall only once approved, and changing approval recomputes."""

import pytest
from django.core.exceptions import PermissionDenied

from clubs import services as clubs
from games.matchplay import services as matchplay
from ratings.models import PlayerRating, RatedMatch
from ratings.selectors import player_ratings
from tests.clubs.factories import ClubFactory, MembershipFactory, UserFactory
from tests.games.matchplay.factories import MatchFactory
from tests.ratings.builders import played

pytestmark = pytest.mark.django_db


def test_club_night_between_strangers_and_ten_overrides_leave_ratings_unchanged(api_as, club, outsider_user):
    """Chain 2: a new club's admin cannot create the match; forced in anyway, ten overrides move nothing."""
    a, b = MembershipFactory(club=club).player, MembershipFactory(club=club).player
    established = played(MembershipFactory(club=club, role="director").player.user, club, a, b)
    before = player_ratings(player_ids=[a.pk, b.pk])
    assert before[a.pk] != 1500
    client = api_as(outsider_user)
    mine = client.post("/api/v1/clubs/", {"name": "Mine"}, format="json").json()["slug"]
    body = {"player_a": a.pk, "player_b": b.pk, "length": 5, "context": "club_night", "club": mine}
    refused = client.post("/api/v1/matches/", body, format="json")
    assert refused.status_code == 403 and "between players of the club" in refused.json()["detail"]

    # Even a match that got attached to the club (data from before the rule) is not rated for strangers.
    forced = MatchFactory(club_id=established.club_id, player_a=a, player_b=b)
    forced.club = type(established.club).objects.get(slug=mine)
    forced.save(update_fields=["club"])
    for i in range(10):
        scores = {"score_a": 0, "score_b": 5} if i % 2 else {"score_a": 5, "score_b": 0}
        response = client.post(
            f"/api/v1/matches/{forced.pk}/override/", {"method": "final_score", **scores}, format="json"
        )
        assert response.status_code == 201
    assert player_ratings(player_ids=[a.pk, b.pk]) == before
    assert not RatedMatch.objects.filter(match=forced).exists()


def test_an_outsiders_casual_match_cannot_be_attached_to_another_club(api_as, club, outsider_user):
    """Hole 4."""
    own = outsider_user.player
    member = MembershipFactory(club=club).player
    body = {"player_a": own.pk, "player_b": member.pk, "length": 3, "context": "casual", "club": club.slug}
    response = api_as(outsider_user).post("/api/v1/matches/", body, format="json")
    assert response.status_code == 403
    body.pop("club")
    assert api_as(outsider_user).post("/api/v1/matches/", body, format="json").status_code == 201


def test_a_result_both_players_agreed_on_counts_overall_without_any_club(club):
    a, b = MembershipFactory(club=club).player, MembershipFactory(club=ClubFactory()).player
    match = matchplay.create_match(actor=a.user, player_a=a, player_b=b, length=5)
    match = matchplay.accept_invitation(actor=b.user, match=match)  # a casual match is an invitation first
    matchplay.submit_report(actor=a.user, match=match, method="final_score", scores=(5, 3))
    assert player_ratings(player_ids=[a.pk])[a.pk] == 1500  # reported, not yet agreed
    matchplay.confirm_report(actor=b.user, match=match, version=1)
    assert player_ratings(player_ids=[a.pk])[a.pk] > 1500


def test_a_new_clubs_decisions_count_overall_once_approved_and_leave_when_withdrawn(
    club, django_capture_on_commit_callbacks
):
    new = ClubFactory(is_approved=False)
    director = MembershipFactory(club=new, role="director").player.user
    a, b = MembershipFactory(club=new).player, MembershipFactory(club=new).player
    played(director, new, a, b, length=7)
    assert player_ratings(player_ids=[a.pk], club_id=new.pk)[a.pk] > 1500  # its own pool takes it at once
    assert player_ratings(player_ids=[a.pk])[a.pk] == 1500  # the overall pool does not, yet

    with pytest.raises(PermissionDenied):
        clubs.set_club_approved(actor=director, club=new, approved=True)
    staff = UserFactory(is_staff=True)
    with django_capture_on_commit_callbacks(execute=True):  # the recompute is queued on commit
        clubs.set_club_approved(actor=staff, club=new, approved=True)
    approved_rating = player_ratings(player_ids=[a.pk])[a.pk]
    assert approved_rating > 1500

    with django_capture_on_commit_callbacks(execute=True):
        clubs.set_club_approved(actor=staff, club=new, approved=False)
    assert not PlayerRating.objects.filter(pool__club__isnull=True, player=a).exists()


def test_the_admin_action_approves_through_the_service(client, club, django_capture_on_commit_callbacks):
    new = ClubFactory(is_approved=False)
    director = MembershipFactory(club=new, role="director").player.user
    a, b = MembershipFactory(club=new).player, MembershipFactory(club=new).player
    played(director, new, a, b)
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post("/admin/clubs/club/", {"action": "approve", "_selected_action": [new.pk]}, follow=True)
    assert response.status_code == 200 and "1 club approved" in response.content.decode()
    new.refresh_from_db()
    assert new.is_approved and player_ratings(player_ids=[a.pk])[a.pk] > 1500


def test_a_club_pool_takes_only_its_accepted_members_and_walk_ins(club, director_user):
    a = MembershipFactory(club=club).player
    walk_in = clubs.create_player(actor=director_user, club=club, name="Guest")
    played(director_user, club, a, walk_in)
    assert player_ratings(player_ids=[walk_in.pk], club_id=club.pk)[walk_in.pk] != 1500
    invited = clubs.invite(actor=director_user, club=club, username=UserFactory().username).player
    with pytest.raises(PermissionDenied):
        played(director_user, club, a, invited)  # an unanswered invitation is no membership
