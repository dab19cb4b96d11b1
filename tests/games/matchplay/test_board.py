"""At the board, on a phone: whoever must confirm a result is told (home page, menu badge, a banner on the
match), the report forms step aside while a version waits, a finished match shows its final score, every
dispute lands on somebody's list, and the personal pages cost the same few queries whatever the history."""

import re

import pytest
from django.urls import reverse

from games.matchplay import services
from games.models.matches import MatchContext, MatchStatus
from tests.clubs.factories import PlayerFactory
from tests.games.matchplay.factories import MatchFactory

pytestmark = pytest.mark.django_db

HOME = "/"


def detail(match):
    return reverse("games:match-detail", kwargs={"pk": match.pk})


def html_of(client, user, url):
    client.force_login(user)
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


def report(match, user, scores=(5, 2)):
    return services.submit_report(actor=user, match=match, method="final_score", scores=scores)[0]


def test_the_opponent_is_told_on_home_page_menu_and_match_and_the_reporter_waits(client, match, user_a, user_b):
    report(match, user_a)
    home = html_of(client, user_b, HOME)
    assert f"{match.player_a.name} reported" in home and "5–2" in home
    assert reverse("games:match-confirm", kwargs={"pk": match.pk, "version": 1}) in home
    assert "1 to confirm" in html_of(client, user_b, reverse("games:match-list"))  # the menu badge, on any page
    page = html_of(client, user_b, detail(match))
    assert page.index("action-banner") < page.index('class="scoreboard"')  # at the top, not in a table's last column
    assert 'name="score_a"' not in page  # no report form while a version waits
    reporter = html_of(client, user_a, detail(match))
    assert "You reported" in reporter and 'name="score_a"' not in reporter
    # The cards show the score that waits (not 0–0 and "5 away"), and no game is entered meanwhile.
    assert re.findall(r'<strong class="points">([^<]*)</strong>', reporter) == ["5", "2"]
    assert "away" not in reporter and "Add game" not in reporter
    reporter_home = html_of(client, user_a, HOME)
    assert "to confirm" not in reporter_home and "Result reported: waiting for confirmation" in reporter_home
    client.force_login(user_b)
    client.post(reverse("games:match-confirm", kwargs={"pk": match.pk, "version": 1}))
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    assert "to confirm" not in html_of(client, user_b, HOME)


def test_a_disputed_club_match_says_a_director_decides_and_offers_no_confirm(
    client, match, user_a, user_b, director_user
):
    report(match, user_a)
    client.force_login(user_b)
    response = client.post(
        reverse("games:match-dispute", kwargs={"pk": match.pk, "version": 1}), {"comment": "It was 5-4"}, follow=True
    )
    assert "a director will decide" in response.content.decode()
    for user in (user_a, user_b):
        page = html_of(client, user, detail(match))
        assert "disputed" in page and "waiting for confirmation" not in page
        assert reverse("games:match-confirm", kwargs={"pk": match.pk, "version": 1}) not in page
        assert f"A director of {match.club.name} decides" in html_of(client, user, HOME)
    assert "to confirm" not in html_of(client, user_b, HOME)
    queue = html_of(client, director_user, reverse("games:match-queue"))
    assert detail(match) in queue and "1 to decide" in queue  # the director's menu counts the dispute
    assert "1 to decide" not in html_of(client, user_a, reverse("games:match-list"))
    director_page = html_of(client, director_user, detail(match))
    assert reverse("games:match-confirm", kwargs={"pk": match.pk, "version": 1}) in director_page
    client.post(reverse("games:match-confirm", kwargs={"pk": match.pk, "version": 1}))
    assert "1 to decide" not in html_of(client, director_user, reverse("games:match-list"))


def test_a_disputed_casual_match_without_a_club_goes_back_to_both_players(client):
    match = MatchFactory(context=MatchContext.CASUAL, club=None)
    user_a, user_b = match.player_a.user, match.player_b.user
    report(match, user_a)
    client.force_login(user_b)
    response = client.post(
        reverse("games:match-dispute", kwargs={"pk": match.pk, "version": 1}), {"comment": "I won"}, follow=True
    )
    assert "goes back to both of you" in response.content.decode()
    for user in (user_a, user_b):
        home = html_of(client, user, HOME)
        assert "went back to both players" in home and "I won" in home
        assert f"Disputed by {match.player_b.name}" in home  # the player's name, not the login
        assert 'name="score_a"' in html_of(client, user, detail(match))  # both may report again
    report(match, user_b, scores=(3, 5))
    services.confirm_report(actor=user_a, match=match, version=2)
    assert "went back to both players" not in html_of(client, user_a, HOME)


def test_a_finished_match_shows_its_final_score_and_one_correction(client, match, user_a, user_b, director_user):
    match.length = 7
    match.save()
    report(match, user_a, scores=(7, 5))
    services.confirm_report(actor=user_b, match=match, version=1)
    page = html_of(client, user_a, detail(match))
    points = re.findall(r'<strong class="points">([^<]*)</strong>', page)
    assert points == ["7", "5"]
    assert "away" not in page and "Confirmed result" in page
    assert "Take back the last game" not in page and "Add game" not in page
    assert page.count("Correct the result") == 1 and "Report the result" not in page
    assert html_of(client, director_user, detail(match)).count("Correct the result") == 1
    later = MatchFactory(club=match.club, player_a=match.player_a, player_b=PlayerFactory())
    services.record_game(actor=director_user, match=later, winner_side=0)  # a later match started: players can't
    assert "Correct the result" not in html_of(client, user_a, detail(match))


def test_my_matches_lists_open_matches_first_with_dates(client, match, user_a, director_user):
    finished = MatchFactory(club=match.club, player_a=match.player_a)
    services.submit_report(actor=director_user, match=finished, method="final_score", scores=(5, 1), as_director=True)
    page = html_of(client, user_a, reverse("games:my-matches"))
    assert page.index(detail(match)) < page.index(detail(finished))  # the open one first, although older
    assert 'data-label="Date"' in page


def test_personal_pages_cost_the_same_few_queries_whatever_the_history(client, django_assert_max_num_queries):
    me = PlayerFactory()
    for n in range(40):
        opponent = PlayerFactory()
        m = MatchFactory(player_a=me, player_b=opponent, context=MatchContext.CASUAL, club=None)
        if n % 2:
            report(m, opponent.user)  # waiting for me
        else:
            report(m, me.user)
            services.confirm_report(actor=opponent.user, match=m, version=1)
    client.force_login(me.user)
    for url in (HOME, reverse("games:my-matches")):
        with django_assert_max_num_queries(10):
            assert client.get(url).status_code == 200
    assert "20 to confirm" in client.get(HOME).content.decode()


def test_visitors_keep_the_clubs_home(client, club):
    page = client.get(HOME).content.decode()
    assert club.name in page and "Results waiting for you" not in page


def test_a_player_is_not_offered_club_night_in_the_new_match_form(client, member_user, director_user):
    page = html_of(client, member_user, reverse("games:match-create"))
    assert "Club night" not in page and 'name="club"' not in page
    director_page = html_of(client, director_user, reverse("games:match-create"))
    assert "Club night" in director_page and 'name="club"' in director_page
