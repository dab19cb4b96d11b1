import pytest

from tests.clubs.factories import MembershipFactory
from tests.games.matchplay.factories import MatchFactory


@pytest.fixture
def match(club):
    """A 5-point club-night match between two members of `club`."""
    a = MembershipFactory(club=club).player
    b = MembershipFactory(club=club).player
    return MatchFactory(club=club, player_a=a, player_b=b)


@pytest.fixture
def user_a(match):
    return match.player_a.user


@pytest.fixture
def user_b(match):
    return match.player_b.user
