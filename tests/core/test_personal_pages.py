"""A player's own pages — home, "my matches", their rating page and their player page — ask the database at most
ten times, however long the player's history: invitations to casual matches, casual matches waiting for them and
confirmed, rated club nights, tournament entries in several events, a ladder, chouette tables. Each page is built
for a short history and a long one; both must stay within the bound, and each page must show the history (so a
page that stopped listing it cannot pass by asking less). The long history has a dozen of each thing, more than
the bound, so one query per match, entry or table would fail it."""

import pytest
from django.urls import reverse

from chouette import services as chouette_services
from games.matchplay import services as match_services
from games.models.matches import MatchContext
from ratings.services import ladders
from tests.clubs.factories import MembershipFactory
from tests.games.matchplay.factories import MatchFactory
from tests.ratings.builders import played
from tests.tournaments.builders import make_event, members
from tournaments import services as tournaments

pytestmark = pytest.mark.django_db

# The player's page is the most: session, user, player, matches (two), entries, their payments (the fees they owe and
# paid), Calcutta holdings, ratings, chouette totals, memberships; none grows with the history.
MOST_QUERIES = 11


def _history(club, director, me, size: int) -> None:
    """`size` of everything a player accumulates over seasons."""
    for n in range(size):
        opponent = MembershipFactory(club=club).player
        waiting = MatchFactory(player_a=me, player_b=opponent, context=MatchContext.CASUAL, club=None)
        match_services.submit_report(actor=opponent.user, match=waiting, method="final_score", scores=(1, 5))
        match_services.create_match(actor=opponent.user, player_a=opponent, player_b=me, length=3)  # an invitation
        played(director, club, me if n % 2 else opponent, opponent if n % 2 else me, day=n)
        event = make_event(club, director)
        flight = tournaments.add_flight(actor=director, event=event, name="Main")
        for player in [me, *members(club, 3)]:
            tournaments.register(actor=director, flight=flight, player=player)
        tournaments.draw_flight(actor=director, flight=flight, seed=n)
        tournaments.confirm_draw(actor=director, flight=flight)
        tournaments.release_draw(actor=director, flight=flight)
        others = [MembershipFactory(club=club).player for _ in range(2)]
        seated = [me, *others]
        session = chouette_services.create_session(
            actor=director, club=club, players=seated, order=[p.pk for p in seated]
        )
        chouette_services.record_game(actor=director, session=session, game={"winner": "team"})
    ladder = ladders.create_ladder(actor=director, club=club, name=f"Ladder {size}")
    ladders.join_ladder(actor=me.user, ladder=ladder)


def _queries(client, url, django_assert_max_num_queries) -> str:
    with django_assert_max_num_queries(MOST_QUERIES):
        response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.parametrize("size", [1, 12])
def test_a_players_own_pages_stay_within_ten_queries_whatever_the_history(client, club, director_user, size,
                                                                          django_assert_max_num_queries):  # fmt: skip
    me = MembershipFactory(club=club).player
    _history(club, director_user, me, size)
    client.force_login(me.user)
    home = _queries(client, "/", django_assert_max_num_queries)
    assert f"{size} to confirm" in home
    assert home.count("invites you to a match") == size
    mine = _queries(client, reverse("games:my-matches"), django_assert_max_num_queries)
    assert mine.count("/matches/") >= 2 * size  # the waiting and the played matches are all listed
    assert mine.count("invites you to a match") == size
    rating = _queries(client, f"/players/{me.pk}/rating/?club={club.slug}", django_assert_max_num_queries)
    assert rating.count('class="explain"') == size
    _queries(client, f"/players/{me.pk}/", django_assert_max_num_queries)
