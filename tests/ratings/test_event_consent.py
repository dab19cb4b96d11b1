"""Entering players into an event, and the overall pool, under consent: a director enters the club's players;
a stranger enters by their own registration, and only then does a director's decision about them count."""

import pytest
from django.core.exceptions import PermissionDenied

from ratings.selectors import player_ratings
from tests.clubs.factories import MembershipFactory, PlayerFactory
from tournaments import services as tournaments

pytestmark = pytest.mark.django_db


@pytest.fixture
def flight(club, director_user):
    from tests.tournaments.builders import make_event

    event = make_event(club, director_user)
    return tournaments.add_flight(actor=director_user, event=event, name="Main")


def test_a_director_enters_the_clubs_players_but_not_strangers(api_as, club, director_user, flight):
    member, stranger = MembershipFactory(club=club).player, PlayerFactory()
    url = f"/api/v1/events/{club.slug}/{flight.event.slug}/flights/{flight.slug}/entries/"
    assert api_as(director_user).post(url, {"player": member.pk}, format="json").status_code == 201
    refused = api_as(director_user).post(url, {"player": stranger.pk}, format="json")
    assert refused.status_code == 403 and "Invite anyone else" in refused.json()["detail"]
    assert api_as(stranger.user).post(url, {}, format="json").status_code == 201  # their own registration


def test_a_strangers_own_entry_lets_the_clubs_director_decide_for_the_overall_pool(club, director_user, flight):
    from games.matchplay import services as matchplay
    from games.models.matches import Match

    member = MembershipFactory(club=club).player
    visitor, uninvolved = PlayerFactory(), PlayerFactory()
    with pytest.raises(PermissionDenied):
        tournaments.register(actor=director_user, flight=flight, player=visitor)
    tournaments.register(actor=visitor.user, flight=flight, player=visitor)

    def decided(a, b):
        match = Match.objects.create(
            player_a=a, player_b=b, length=5, context="tournament", club=club, created_by=director_user
        )
        matchplay.submit_report(actor=director_user, match=match, method="final_score", scores=(5, 1), as_director=True)

    decided(visitor, member)
    assert player_ratings(player_ids=[visitor.pk])[visitor.pk] > 1500
    decided(uninvolved, member)  # never entered, never joined: the director acts on a stranger
    assert player_ratings(player_ids=[uninvolved.pk])[uninvolved.pk] == 1500
