"""The permission module itself: rules resolve objects to their club, roles are looked up once per user object,
site staff pass, anonymous visitors only where a rule allows them, every refusal is translated."""

import pytest
from django.core.exceptions import ImproperlyConfigured, PermissionDenied
from django.utils import translation

from clubs import access
from clubs.models import Club
from tests.clubs.factories import ClubFactory, MembershipFactory, UserFactory
from tests.games.matchplay.factories import MatchFactory

pytestmark = pytest.mark.django_db


def test_memberships_matches_and_event_parts_name_their_club(club):
    from tournaments.models import Event, Flight

    membership = MembershipFactory(club=club)
    match = MatchFactory(club=club)
    event = Event.objects.create(club=club, name="Cup", slug="cup", starts_on="2026-05-01", ends_on="2026-05-01")
    flight = Flight(event=event, name="Main", slug="main")
    assert [x.club for x in (membership, match, event, flight)] == [club] * 4
    assert MatchFactory(club=None).club is None and not access.is_director(UserFactory(), None)


def test_roles_are_looked_up_once_per_user_object(club, django_assert_num_queries):
    clubs = [ClubFactory() for _ in range(5)]
    user = MembershipFactory(club=club, role="director").player.user
    for other in clubs:
        MembershipFactory(club=other, player=user.player, role="player")
    with django_assert_num_queries(1):
        for _ in range(3):
            assert access.can(user, "club.direct", club)
            assert all(access.can(user, "club.view", other) for other in clubs)
            assert not any(access.can(user, "club.direct", other) for other in clubs)


def test_a_membership_written_since_is_seen_by_the_same_user_object(club):
    user = MembershipFactory(club=club).player.user
    assert not access.can(user, "club.edit", club)
    club.memberships.filter(player__user=user).update(role="admin")  # no signal: the cache still holds
    assert not access.can(user, "club.edit", club)
    membership = club.memberships.get(player__user=user)
    membership.save()  # a save through the model bumps the generation
    assert access.can(user, "club.edit", club)


def test_site_staff_pass_anonymous_only_where_allowed(club):
    private = ClubFactory(is_public=False)
    staff = UserFactory(is_staff=True)
    assert access.can(staff, "club.edit", private) and access.can(staff, "club.approve", club)
    anonymous = type("Anonymous", (), {"is_authenticated": False})()
    assert access.can(anonymous, "club.view", club) and not access.can(anonymous, "club.view", private)
    assert not access.can(anonymous, "club.create")
    inactive = UserFactory(is_active=False, is_superuser=True)
    assert not access.can(inactive, "club.edit", club)


def test_require_raises_the_rules_translated_message_and_unknown_actions_fail_loudly(club, member_user):
    with translation.override("de"), pytest.raises(PermissionDenied, match="Nur die Verwaltung dieses Clubs"):
        access.require(member_user, "club.edit", club)
    with pytest.raises(ImproperlyConfigured, match="No rule for the action 'club.fly'"):
        access.can(member_user, "club.fly", club)


def test_every_registered_action_has_a_german_message():
    assert {"club.edit", "player.edit", "membership.invite", "match.create", "match.override"} <= set(access.actions())
    untranslated = []
    for action in access.actions():
        english = access.message_for(action)
        with translation.override("de"):
            if access.message_for(action) == english:
                untranslated.append(action)
    assert untranslated == []


def test_an_invitation_gives_no_role_until_accepted(club, director_user):
    from clubs import services

    invitee = UserFactory()
    membership = services.invite(actor=director_user, club=club, username=invitee.username, role="player")
    assert access.role_at(invitee, club) is None
    assert not access.can(invitee, "club.view", ClubFactory(is_public=False))
    services.respond_to_invitation(actor=invitee, membership=membership, accept=True)
    assert access.role_at(invitee, Club.objects.get(pk=club.pk)) == "player"
