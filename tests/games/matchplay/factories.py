import factory

from games.models.matches import Match, MatchContext
from tests.clubs.factories import ClubFactory, PlayerFactory


class MatchFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Match

    player_a = factory.SubFactory(PlayerFactory)
    player_b = factory.SubFactory(PlayerFactory)
    length = 5
    context = MatchContext.CLUB_NIGHT
    club = factory.SubFactory(ClubFactory)
