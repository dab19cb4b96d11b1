"""Who may see a chouette table and its money: `selectors.visible_session` (one table, the detail actions) holds
the same rule as `selectors.visible_sessions` (the list), `money_visible` included, for every kind of visitor."""

import pytest
from django.contrib.auth.models import AnonymousUser

from chouette import selectors
from chouette.models import ChouetteSession, Seat, SeatStatus
from clubs.models import Membership
from tests.clubs.factories import ClubFactory, MembershipFactory, PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db


def test_one_table_is_visible_with_its_money_to_exactly_whom_the_list_shows_it():
    public_club, private_club = ClubFactory(is_public=True), ClubFactory(is_public=False)
    sessions = [ChouetteSession.objects.create(club=club) for club in (public_club, private_club)]
    visitors = [AnonymousUser(), UserFactory(), UserFactory(is_staff=True, is_superuser=True)]  # a stranger, staff
    for club in (public_club, private_club):
        for role in ("player", "director", "admin"):
            visitors.append(MembershipFactory(club=club, role=role).player.user)
        visitors.append(MembershipFactory(club=club, is_active=False).player.user)  # left the club
        pending = MembershipFactory(club=club, role="director", status=Membership.Status.INVITED, is_active=False)
        visitors.append(pending.player.user)  # invited, not yet accepted
    for session in sessions:  # a player at the table, and one who left it, neither a member
        for status in (SeatStatus.SEATED, SeatStatus.LEFT):
            player = PlayerFactory()
            Seat.objects.create(session=session, player=player, stake_cents=100, status=status)
            visitors.append(player.user)
    shown = 0
    for visitor in visitors:
        listed = {s.pk: bool(s.money_visible) for s in selectors.visible_sessions(user=visitor)}
        for session in sessions:
            found = selectors.visible_session(user=visitor, pk=session.pk)
            assert (found is not None) == (session.pk in listed), (visitor, session.club.is_public)
            if found is not None:
                assert found.pk == session.pk
                assert bool(found.money_visible) == listed[session.pk], (visitor, session.club.is_public)
                shown += 1
    assert 0 < shown < len(visitors) * len(sessions)


@pytest.mark.parametrize("pk", ["0", "-1", "abc", "9" * 30, str(2**63), None, "", " 1"])
def test_an_id_that_is_not_one_finds_no_table(pk):
    ChouetteSession.objects.create(club=ClubFactory())
    assert selectors.visible_session(user=UserFactory(is_staff=True, is_superuser=True), pk=pk) is None
