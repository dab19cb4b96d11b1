"""Web pages: the scoresheet at the board, the report form, confirm/dispute, my matches, the director's list."""

import pytest
from django.urls import reverse
from django.utils import translation

from games.matchplay import services
from games.models.matches import Match, MatchStatus
from tests.games.matchplay.factories import MatchFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def browser(client):
    def sign_in(user):
        client.force_login(user)
        return client

    return sign_in


def detail(match):
    return reverse("games:match-detail", kwargs={"pk": match.pk})


def test_scoresheet_adds_games_and_shows_the_crawford_game_plainly(browser, match, user_a):
    page = browser(user_a)
    page.post(reverse("games:match-add-game", kwargs={"pk": match.pk}), {"winner_side": 0, "kind": "gammon", "cube": 2})
    html = page.get(detail(match)).content.decode()
    assert "Crawford game: no doubling in this game" in html
    assert "Cube: 1 (Crawford game)" in html
    page.post(reverse("games:match-add-game", kwargs={"pk": match.pk}), {"winner_side": 1, "kind": "single", "cube": 1})
    html = page.get(detail(match)).content.decode()
    assert "Post-Crawford: the cube is back in play." in html


def test_cube_in_the_crawford_game_is_refused_with_the_reason(browser, match, user_a):
    page = browser(user_a)
    add = reverse("games:match-add-game", kwargs={"pk": match.pk})
    page.post(add, {"winner_side": 0, "kind": "gammon", "cube": 2})
    response = page.post(add, {"winner_side": 1, "kind": "single", "cube": 4}, follow=True)
    assert "Game 2 is the Crawford game" in response.content.decode()
    assert match.games.count() == 1


def test_report_from_scoresheet_then_opponent_confirms(browser, match, user_a, user_b):
    page = browser(user_a)
    add = reverse("games:match-add-game", kwargs={"pk": match.pk})
    page.post(add, {"winner_side": 0, "kind": "single", "cube": 8})
    assert "Report 8–0 from the scoresheet" in page.get(detail(match)).content.decode()
    page.post(reverse("games:match-report", kwargs={"pk": match.pk}), {"method": "games", "idempotency_key": "x1"})
    page.post(reverse("games:match-report", kwargs={"pk": match.pk}), {"method": "games", "idempotency_key": "x1"})
    assert match.reports.count() == 1 and match.reports.get().source == "web"
    opponent = browser(user_b)
    html = opponent.get(detail(match)).content.decode()
    assert "waiting for confirmation" in html and "Confirm" in html
    opponent.post(reverse("games:match-confirm", kwargs={"pk": match.pk, "version": 1}))
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED and match.score_a == 8


def test_report_form_page_refuses_an_unreachable_score(browser, match, user_a):
    url = reverse("games:match-report", kwargs={"pk": match.pk})
    page = browser(user_a)
    assert page.get(url).status_code == 200
    response = page.post(url, {"method": "final_score", "score_a": 3, "score_b": 2})
    assert response.status_code == 200 and "one player must reach 5" in response.content.decode()
    response = page.post(url, {"method": "final_score", "score_a": 21, "score_b": 0})
    assert "would have been worth 17 to 21 points" in response.content.decode()
    with translation.override("en"):  # the request switches this thread to German; leave it as it was
        german = page.post(url, {"method": "final_score", "score_a": 21, "score_b": 0}, HTTP_ACCEPT_LANGUAGE="de")
    assert "am nächsten kommen also 16 oder 24" in german.content.decode()
    assert not match.reports.exists()


def test_outsider_gets_403_on_report_and_dispute_is_listed_for_the_director(
    browser, match, user_a, user_b, outsider_user, director_user
):
    assert browser(outsider_user).get(reverse("games:match-report", kwargs={"pk": match.pk})).status_code == 403
    services.submit_report(actor=user_a, match=match, method="final_score", scores=(5, 0))
    browser(user_b).post(
        reverse("games:match-dispute", kwargs={"pk": match.pk, "version": 1}), {"comment": "It was 5-4"}
    )
    html = browser(director_user).get(reverse("games:match-queue")).content.decode()
    assert "Disputed" in html and match.player_a.name in html
    assert "It was 5-4" in browser(director_user).get(detail(match)).content.decode()


def test_anonymous_sees_public_matches_only(client, match):
    private = MatchFactory(club=match.club, is_public=False)
    html = client.get(reverse("games:match-list")).content.decode()
    assert match.player_a.name in html and private.player_a.name not in html
    assert client.get(detail(private)).status_code == 404


def test_my_matches_lists_the_players_matches(browser, match, user_a):
    other = MatchFactory(club=match.club)
    html = browser(user_a).get(reverse("games:my-matches")).content.decode()
    assert match.player_b.name in html and other.player_a.name not in html


def test_player_panel_lists_recent_matches(rf, match, user_a):
    from games.matchplay.views import player_panel

    request = rf.get("/")
    request.user = user_a
    assert match.player_b.name in player_panel(request, match.player_a)


def test_list_and_scoresheet_pages_keep_their_query_counts(client, match, user_a, django_assert_max_num_queries):
    for _ in range(20):
        MatchFactory(club=match.club)
    for n in range(3):
        services.record_game(actor=user_a, match=match, winner_side=n % 2)
    for score_b in (1, 2, 3):
        services.submit_report(actor=user_a, match=match, method="final_score", scores=(5, score_b))
    client.force_login(user_a)
    with django_assert_max_num_queries(4):
        assert client.get(reverse("games:match-list")).status_code == 200
    with django_assert_max_num_queries(9):  # 8, and the two players' ratings for the chances (ratings' panel)
        assert client.get(detail(match)).status_code == 200


def test_scoresheet_speaks_german(browser, match, user_a):
    page = browser(user_a)
    page.post(reverse("games:match-add-game", kwargs={"pk": match.pk}), {"winner_side": 0, "kind": "single", "cube": 4})
    html = page.get(detail(match), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Crawford-Spiel: in diesem Spiel wird nicht gedoppelt" in html and "Spiel eintragen" in html


def test_director_records_lateness_on_the_scoresheet(browser, match, director_user):
    page = browser(director_user)
    assert "Record lateness" in page.get(detail(match)).content.decode()
    page.post(reverse("games:match-lateness", kwargs={"pk": match.pk}), {"late_side": 0, "minutes_late": 7})
    match.refresh_from_db()
    assert match.penalty_a == 1
    assert "1 penalty point" in page.get(detail(match)).content.decode()


def test_player_creates_a_casual_match_on_the_web(browser, club, member_user):
    from tests.clubs.factories import MembershipFactory

    other = MembershipFactory(club=club).player
    page = browser(member_user)
    assert page.get(reverse("games:match-create")).status_code == 200
    response = page.post(
        reverse("games:match-create"),
        {
            "player_a": member_user.player.pk,
            "player_b": other.pk,
            "length": 3,
            "context": "casual",
            "crawford_rule": "on",
        },
    )
    from games.models.matches import Match

    match = Match.objects.get()
    assert response.status_code == 302 and match.length == 3 and match.crawford_rule and match.created_by == member_user


def test_player_cannot_create_a_club_night_match_on_the_web(browser, club, member_user):
    from tests.clubs.factories import MembershipFactory

    other = MembershipFactory(club=club).player
    response = browser(member_user).post(
        reverse("games:match-create"),
        {"player_a": member_user.player.pk, "player_b": other.pk, "length": 3, "context": "club_night"},
    )
    # The form does not offer a player "Club night" at all; a posted one comes back as a choice the form does
    # not have (not a bare 403 page), and no match is made.
    html = response.content.decode()
    assert response.status_code == 200 and "Select a valid choice" in html and "Club night" not in html
    assert not Match.objects.filter(player_b=other).exists()
