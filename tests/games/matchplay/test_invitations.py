"""A casual match a player creates is an invitation: a player the creator may not see is answered as an unknown
id, and until the invited player accepts, the match exists for the two players only (no list, page, record,
notification or write reaches it); declined, withdrawn or expired it leaves nothing behind."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from base.api import Conflict
from clubs.models import Player
from games.matchplay import selectors, services
from games.models.matches import INVITATION_DAYS, Match, MatchStatus
from notifications.models import Notification
from tests.clubs.factories import ClubFactory, MembershipFactory, PlayerFactory, UserFactory
from tests.refusals import ValidationError

pytestmark = pytest.mark.django_db

MATCHES = "/api/v1/matches/"


def url(pk, action=""):
    return f"{MATCHES}{pk}/" + (f"{action}/" if action else "")


@pytest.fixture
def invitee(club):
    return MembershipFactory(club=club).player


@pytest.fixture
def invitation(api_as, member_user, invitee):
    """The id of a casual match `member_user` invited `invitee` to, through the API."""
    body = {"player_a": member_user.player.pk, "player_b": invitee.pk, "length": 5}
    created = api_as(member_user).post(MATCHES, body, format="json")
    assert created.status_code == 201 and created.json()["status"] == MatchStatus.INVITED
    return created.json()["id"]


# --- naming a player ---------------------------------------------------------------------------------------


def test_a_player_the_caller_may_not_see_is_refused_exactly_like_an_unknown_id(api_as, outsider_user):
    hidden = ClubFactory(is_public=False)
    private = MembershipFactory(club=hidden).player  # seen nowhere but in the private club
    unknown = Player.objects.order_by("-pk").values_list("pk", flat=True).first() + 1000
    client = api_as(outsider_user)

    def create(player_b):
        body = {"player_a": outsider_user.player.pk, "player_b": player_b, "length": 3, "context": "casual"}
        return client.post(MATCHES, body, format="json")

    refused, missing = create(private.pk), create(unknown)
    assert refused.status_code == missing.status_code == 400
    # The same body but for the id it names (the answer repeats the id it did not find).
    assert refused.content.decode().replace(str(private.pk), "ID") == missing.content.decode().replace(
        str(unknown), "ID"
    )
    assert refused.json()["field"] == "player_b" and private.name not in refused.content.decode()
    assert not Match.objects.exists()


def test_the_new_match_page_refuses_an_invisible_player_as_it_refuses_an_unknown_one(client, outsider_user):
    private = MembershipFactory(club=ClubFactory(is_public=False)).player
    client.force_login(outsider_user)
    form = {"player_a": outsider_user.player.pk, "length": 3, "context": "casual", "crawford_rule": "on"}
    refused = client.post(reverse("games:match-create"), form | {"player_b": private.pk})
    missing = client.post(reverse("games:match-create"), form | {"player_b": private.pk + 1000})
    assert refused.status_code == missing.status_code == 200  # the form again, with its error
    assert private.name not in refused.content.decode()
    assert refused.context["form"].errors == missing.context["form"].errors
    assert "player_b" in refused.context["form"].errors and not Match.objects.exists()


def test_a_walk_in_without_an_account_cannot_be_invited(club, member_user):
    walk_in = MembershipFactory(club=club, player=PlayerFactory(user=None)).player
    with pytest.raises(ValidationError, match="no account to accept"):
        services.create_match(actor=member_user, player_a=member_user.player, player_b=walk_in, length=3)
    assert not Match.objects.exists()


# --- before the answer --------------------------------------------------------------------------------------


def test_an_invitation_exists_only_for_the_two_players_until_accepted(
    api, api_as, client, club, member_user, invitee, director_user, invitation
):
    third = MembershipFactory(club=club).player.user
    staff = UserFactory(is_staff=True, is_superuser=True)
    for other in (api, api_as(third), api_as(director_user), api_as(staff)):
        assert invitation not in [m["id"] for m in other.get(MATCHES).json()["results"]]
        assert other.get(url(invitation)).status_code == 404
        assert other.get(MATCHES, {"player": invitee.pk}).json()["count"] == 0
    for player in (member_user, invitee.user):
        assert api_as(player).get(url(invitation)).json()["status"] == MatchStatus.INVITED
        assert invitation in [m["id"] for m in api_as(player).get(MATCHES).json()["results"]]
    # The invited player's page, as anyone else sees it, shows no match; nor does the record of either player.
    client.force_login(third)
    assert reverse("games:match-detail", kwargs={"pk": invitation}) not in client.get(
        reverse("clubs:player-detail", kwargs={"pk": invitee.pk})
    ).content.decode()
    assert client.get(reverse("games:match-detail", kwargs={"pk": invitation})).status_code == 404
    assert not selectors.player_matches(user=invitee.user, player=invitee).exists()
    assert not selectors.my_matches(user=invitee.user).exists()
    # Only the invited player is told, in the app, never the club's directors nor its webhook.
    told = Notification.objects.filter(object_key=f"match:{invitation}:invited")
    assert [(n.kind, n.recipient_id) for n in told] == [("match_invitation", invitee.user_id)]


def test_nothing_can_be_played_or_reported_before_acceptance(api_as, member_user, invitee, invitation):
    for player in (member_user, invitee.user):
        client = api_as(player)
        assert client.post(url(invitation, "start")).json()["code"] == "invitation_pending"
        game = client.post(url(invitation, "games"), {"winner_side": 0}, format="json")
        report = client.post(
            url(invitation, "reports"), {"method": "final_score", "score_a": 5, "score_b": 1}, format="json"
        )
        assert game.status_code == report.status_code == 409
    assert not Match.objects.get(pk=invitation).reports.exists()


def test_after_acceptance_the_match_is_as_any_other(api, api_as, club, member_user, invitee, invitation):
    assert api_as(member_user).post(url(invitation, "accept")).status_code == 403  # not the creator's to accept
    accepted = api_as(invitee.user).post(url(invitation, "accept"))
    assert accepted.status_code == 200 and accepted.json()["status"] == MatchStatus.SCHEDULED
    assert api.get(url(invitation)).status_code == 200  # a public casual match, as before
    assert api_as(MembershipFactory(club=club).player.user).get(MATCHES).json()["count"] == 1
    report = {"method": "final_score", "score_a": 5, "score_b": 2}
    assert api_as(member_user).post(url(invitation, "reports"), report, format="json").status_code == 201
    confirmed = api_as(invitee.user).post(url(invitation, "confirm"), {"version": 1}, format="json")
    assert confirmed.status_code == 200 and Match.objects.get(pk=invitation).status == MatchStatus.FINISHED
    assert api_as(invitee.user).post(url(invitation, "accept")).status_code == 403  # no invitation any more
    assert selectors.player_matches(user=None, player=invitee).count() == 1


# --- the answers -------------------------------------------------------------------------------------------


def test_a_declined_invitation_leaves_nothing_on_the_invited_players_record(
    api_as, client, member_user, invitee, invitation
):
    assert api_as(member_user).post(url(invitation, "decline")).status_code == 403  # the invitee's to decline
    assert api_as(invitee.user).post(url(invitation, "decline")).status_code == 204
    assert not Match.objects.filter(pk=invitation).exists()
    for player in (member_user, invitee.user):
        assert api_as(player).get(MATCHES, {"player": invitee.pk}).json()["count"] == 0
        assert api_as(player).get(url(invitation)).status_code == 404
    client.force_login(member_user)
    page = client.get(reverse("clubs:player-detail", kwargs={"pk": invitee.pk})).content.decode()
    assert f"/matches/{invitation}/" not in page


def test_the_creator_withdraws_an_invitation(api_as, member_user, invitee, invitation):
    assert api_as(invitee.user).post(url(invitation, "withdraw")).status_code == 403  # only its sender
    assert api_as(member_user).post(url(invitation, "withdraw")).status_code == 204
    assert not Match.objects.filter(pk=invitation).exists()
    assert api_as(invitee.user).post(url(invitation, "accept")).status_code == 404


def test_an_ignored_invitation_expires_and_is_gone_everywhere(api_as, member_user, invitee, invitation):
    old = timezone.now() - timedelta(days=INVITATION_DAYS, minutes=1)
    Match.objects.filter(pk=invitation).update(invited_at=old)
    for player in (member_user, invitee.user):
        assert api_as(player).get(MATCHES).json()["count"] == 0
        assert api_as(player).get(url(invitation)).status_code == 404
        assert not selectors.match_invitations(user=player)
    assert api_as(invitee.user).post(url(invitation, "accept")).status_code == 404
    with pytest.raises(Conflict, match="expired"):
        services.accept_invitation(actor=invitee.user, match=Match.objects.get(pk=invitation))


def test_who_may_do_what_with_an_invitation(api, api_as, club, member_user, invitee, director_user, invitation):
    """The matrix of an invitation: only the invitee answers, only the creator withdraws, nobody else even finds
    it (404, as for a match that does not exist); nobody plays it."""
    third = MembershipFactory(club=club).player.user
    staff = UserFactory(is_staff=True, is_superuser=True)
    roles = {"anonymous": api, "stranger": api_as(UserFactory()), "member": api_as(third)}
    roles |= {"director": api_as(director_user), "staff": api_as(staff)}
    roles |= {"creator": api_as(member_user), "invitee": api_as(invitee.user)}
    expected = {
        "anonymous": {"get": 404, "accept": 403, "decline": 403, "withdraw": 403, "start": 403},  # any id
        "stranger": {"get": 404, "accept": 404, "decline": 404, "withdraw": 404, "start": 404},
        "member": {"get": 404, "accept": 404, "decline": 404, "withdraw": 404, "start": 404},
        "director": {"get": 404, "accept": 404, "decline": 404, "withdraw": 404, "start": 404},
        "staff": {"get": 404, "accept": 404, "decline": 404, "withdraw": 404, "start": 404},
        "creator": {"get": 200, "accept": 403, "decline": 403, "withdraw": None, "start": 409},
        "invitee": {"get": 200, "accept": None, "decline": None, "withdraw": 403, "start": 409},
    }
    for role, client in roles.items():
        got = {"get": client.get(url(invitation)).status_code}
        for action in ("accept", "decline", "withdraw", "start"):
            if expected[role][action] is not None:
                got[action] = client.post(url(invitation, action)).status_code
        assert got == {k: v for k, v in expected[role].items() if v is not None}, role
    assert Match.objects.get(pk=invitation).status == MatchStatus.INVITED


def test_a_directors_match_at_their_club_is_no_invitation_a_players_casual_match_is(
    club, director_user, member_user, invitee
):
    made = services.create_match(
        actor=director_user, player_a=member_user.player, player_b=invitee, length=3, club=club
    )
    assert made.status == MatchStatus.SCHEDULED and made.invited_at is None
    casual = services.create_match(actor=member_user, player_a=member_user.player, player_b=invitee, length=3)
    assert casual.status == MatchStatus.INVITED and casual.invited_at is not None


# --- the pages -----------------------------------------------------------------------------------------------


def test_the_home_page_and_my_matches_list_invitations_with_their_buttons(client, member_user, invitee):
    match = services.create_match(actor=member_user, player_a=member_user.player, player_b=invitee, length=7)
    accept = reverse("games:match-accept", kwargs={"pk": match.pk})
    withdraw = reverse("games:match-withdraw", kwargs={"pk": match.pk})
    client.force_login(invitee.user)
    for page in ("/", reverse("games:my-matches")):
        html = client.get(page).content.decode()
        assert f'action="{accept}"' in html and f"{member_user.player.name} invites you to a match" in html
        assert withdraw not in html
    client.force_login(member_user)
    html = client.get("/").content.decode()
    assert f'action="{withdraw}"' in html and accept not in html

    client.force_login(invitee.user)
    response = client.post(accept, {"next": "/"})
    assert response.status_code == 302 and response["Location"] == match.get_absolute_url()
    assert Match.objects.get(pk=match.pk).status == MatchStatus.SCHEDULED
    assert accept not in client.get("/").content.decode()


def test_declining_on_the_web_goes_back_where_the_button_was(client, member_user, invitee):
    match = services.create_match(actor=member_user, player_a=member_user.player, player_b=invitee, length=7)
    client.force_login(invitee.user)
    response = client.post(reverse("games:match-decline", kwargs={"pk": match.pk}), {"next": "/"})
    assert response.status_code == 302 and response["Location"] == "/"
    assert not Match.objects.filter(pk=match.pk).exists()
    outside = client.post(reverse("games:match-decline", kwargs={"pk": match.pk}), {"next": "https://evil.example/"})
    assert outside.status_code == 404  # gone; and a foreign `next` is never followed (below)
    again = services.create_match(actor=member_user, player_a=member_user.player, player_b=invitee, length=7)
    response = client.post(reverse("games:match-decline", kwargs={"pk": again.pk}), {"next": "https://evil.example/"})
    assert response["Location"] == reverse("games:my-matches")


def test_a_flood_of_invitations_pushes_no_open_match_off_the_home_page(club, member_user):
    from tests.games.matchplay.factories import MatchFactory

    me = member_user.player
    playing = [MatchFactory(player_a=me, club=club) for _ in range(7)]
    for _ in range(25):
        other = MembershipFactory(club=club).player
        services.create_match(actor=other.user, player_a=other, player_b=me, length=3)
    open_matches, invitations = selectors.my_home_matches(user=member_user, limit=5, invitations=20)
    assert len(open_matches) == 5 and {m.pk for m in open_matches} <= {m.pk for m in playing}
    assert len(invitations.received) == 20 and not invitations.sent
    assert [m.invited_at for m in invitations.received] == sorted(
        (m.invited_at for m in invitations.received), reverse=True
    )


def test_the_database_holds_an_invitation_to_a_dated_casual_match(club):
    from django.db import IntegrityError, transaction

    from tests.games.matchplay.factories import MatchFactory

    for fields in ({"context": "casual", "invited_at": None}, {"context": "club_night", "invited_at": timezone.now()}):
        with pytest.raises(IntegrityError), transaction.atomic():
            MatchFactory(club=club, status=MatchStatus.INVITED, **fields)
    assert MatchFactory(club=club, status=MatchStatus.INVITED, context="casual", invited_at=timezone.now()).pk
