"""The rating page, the overall list and a ladder page ask the database a fixed number of times, whatever the
number of rated matches, players or challenges."""

import pytest

from ratings.services import ladders as ladder_services
from tests.clubs.factories import MembershipFactory
from tests.ratings.builders import played

pytestmark = pytest.mark.django_db

# session and user included; the rating page also reads the analysed matches (one query, whatever their number)
QUERIES = {"rating": 10, "list": 4, "ladder": 9}


@pytest.mark.parametrize("matches", [2, 12])
def test_rating_page_queries_do_not_grow_with_rated_matches(client, club, director_user, matches,
                                                            django_assert_max_num_queries):  # fmt: skip
    a = MembershipFactory(club=club).player
    opponents = [MembershipFactory(club=club).player for _ in range(matches)]
    for day, opponent in enumerate(opponents):
        played(director_user, club, a, opponent, day=day)
    client.force_login(a.user)
    with django_assert_max_num_queries(QUERIES["rating"]):
        response = client.get(f"/players/{a.pk}/rating/?club={club.slug}")
    assert response.content.decode().count('class="explain"') == matches
    with django_assert_max_num_queries(QUERIES["list"]):
        response = client.get("/ratings/")
    assert response.content.decode().count("/rating/") >= matches + 1


@pytest.mark.parametrize("players", [4, 16])
def test_ladder_page_queries_do_not_grow_with_positions_or_challenges(client, club, director_user, players,
                                                                      django_assert_max_num_queries):  # fmt: skip
    ladder = ladder_services.create_ladder(actor=director_user, club=club, name="Club ladder")
    members = [MembershipFactory(club=club).player for _ in range(players)]
    for member in members:
        ladder_services.join_ladder(actor=member.user, ladder=ladder)
    for challenger, defender in zip(members[1::2], members[::2], strict=False):
        ladder_services.challenge(actor=challenger.user, ladder=ladder, defender=defender)
    client.force_login(members[-1].user)
    with django_assert_max_num_queries(QUERIES["ladder"]):
        response = client.get(f"/clubs/{club.slug}/ladders/club-ladder/")
    assert response.content.decode().count("→") == players // 2
