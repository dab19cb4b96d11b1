"""Who may see a match: `selectors.visible_match` (one match, the detail actions) holds the same rule as
`selectors.visible_matches` (the list), for every kind of visitor and match."""

from datetime import timedelta

import pytest
from django.contrib.auth.models import AnonymousUser
from django.utils import timezone

from games.matchplay import selectors
from games.models.matches import INVITATION_DAYS, MatchContext, MatchStatus
from tests.clubs.factories import ClubFactory, MembershipFactory, PlayerFactory, UserFactory
from tests.games.matchplay.factories import MatchFactory

pytestmark = pytest.mark.django_db


def test_one_match_is_visible_to_exactly_whom_the_list_shows_it():
    public_club, private_club = ClubFactory(is_public=True), ClubFactory(is_public=False)
    members = {club.pk: MembershipFactory(club=club) for club in (public_club, private_club)}
    gone = MembershipFactory(club=private_club, is_active=False)
    matches = [
        MatchFactory(club=None, is_public=True),
        MatchFactory(club=None, is_public=False),
        MatchFactory(club=public_club, is_public=True),
        MatchFactory(club=public_club, is_public=False),
        MatchFactory(club=private_club, is_public=True),
        MatchFactory(club=private_club, is_public=False),
        MatchFactory(club=private_club, is_public=False, player_b=PlayerFactory(user=None)),
        *_invitations(members[public_club.pk].player),
    ]
    staff = UserFactory(is_staff=True, is_superuser=True)
    visitors = [
        AnonymousUser(),
        UserFactory(),  # a stranger
        staff,
        gone.player.user,  # a member who left
        *(m.player.user for m in members.values()),
        *(m.player_a.user for m in matches),
        *(m.player_b.user for m in matches if m.player_b.user is not None),
    ]
    seen = 0
    for visitor in visitors:
        listed = set(selectors.visible_matches(user=visitor).values_list("pk", flat=True))
        for match in matches:
            found = selectors.visible_match(user=visitor, pk=match.pk)
            assert (found is not None) == (match.pk in listed), (visitor, match.club, match.is_public)
            assert found is None or found.pk == match.pk
            seen += found is not None
    assert 0 < seen < len(visitors) * len(matches)  # some are hidden, some shown


def _invitations(invitee):
    """An open invitation, an expired one and an accepted one, of casual matches without a club and at a club."""
    old = timezone.now() - timedelta(days=INVITATION_DAYS + 1)
    made = []
    for invited_at, status, club in (
        (timezone.now(), MatchStatus.INVITED, None),
        (old, MatchStatus.INVITED, None),
        (timezone.now(), MatchStatus.INVITED, invitee.memberships.get().club),
        (old, MatchStatus.SCHEDULED, None),
    ):
        inviter = PlayerFactory()
        made.append(
            MatchFactory(
                player_a=inviter, player_b=invitee, club=club, context=MatchContext.CASUAL, status=status,
                invited_at=invited_at, created_by=inviter.user,
            )  # fmt: skip
        )
    return made


@pytest.mark.parametrize("pk", ["0", "-1", "abc", "9" * 30, str(2**63), None, "", " 1"])
def test_an_id_that_is_not_one_finds_no_match(pk):
    MatchFactory()
    assert selectors.visible_match(user=UserFactory(is_staff=True, is_superuser=True), pk=pk) is None
