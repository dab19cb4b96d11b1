"""Pages: rating page with chart and explained rows, leaderboard (constant queries), head-to-head, ladder."""

import datetime

import pytest
from django.utils import translation

from clubs.models import Membership
from ratings.models import ClubSeason, PointsAward
from tests.clubs.factories import ClubFactory, MembershipFactory, PlayerFactory
from tests.ratings.builders import event_of, played

pytestmark = pytest.mark.django_db


@pytest.fixture
def history(club, director_user):
    a, b, c = (MembershipFactory(club=club, player__name=n).player for n in ("Anna", "Bernd", "Clara"))
    played(director_user, club, a, b, day=1, length=7)
    played(director_user, club, b, a, day=2, length=5)
    played(director_user, club, a, c, day=3, length=3)
    return a, b, c


def test_rating_page_shows_the_chart_and_each_rated_match_explained(client, club, history):
    a, b, _c = history
    body = client.get(f"/players/{a.pk}/rating/").content.decode()
    assert "<svg" in body and "<polyline" in body
    assert body.count('class="explain"') == 3
    assert "Bernd" in body and "Clara" in body
    assert "the underdog's chance was 0.5000" in body  # first match: equal ratings
    club_page = client.get(f"/players/{a.pk}/rating/?club={club.slug}").content.decode()
    assert club.name in club_page


def test_rating_page_of_a_player_without_matches_says_so(client, club):
    player = MembershipFactory(club=club).player
    body = client.get(f"/players/{player.pk}/rating/").content.decode()
    assert "No rated matches yet" in body and "1500.00" in body


def test_private_club_and_unknown_pages_answer_404_not_500(client, history):
    a, _b, _c = history
    hidden = ClubFactory(is_public=False)
    assert client.get(f"/players/{a.pk}/rating/?club={hidden.slug}").status_code == 404
    assert client.get("/players/999999/rating/").status_code == 404
    assert client.get(f"/clubs/{hidden.slug}/leaderboard/").status_code == 404
    assert client.get(f"/players/{a.pk}/vs/999999/").status_code == 404


def test_head_to_head_counts_wins_between_the_two(client, history):
    a, b, _c = history
    body = client.get(f"/players/{a.pk}/vs/{b.pk}/").content.decode()
    assert "<strong>1 : 1</strong>" in body


def test_player_and_club_pages_get_the_rating_panels(client, club, history):
    a, _b, _c = history
    assert f"/players/{a.pk}/rating/" in client.get(f"/players/{a.pk}/").content.decode()
    club_page = client.get(f"/clubs/{club.slug}/").content.decode()
    assert f"/clubs/{club.slug}/leaderboard/" in club_page and "Anna" in club_page


def test_leaderboard_by_season_and_scheme(client, club, history):
    a, b, c = history
    today = datetime.date.today()
    season = ClubSeason.objects.create(club=club, name="This year", starts_on=today.replace(month=1, day=1),
                                       ends_on=today.replace(month=12, day=31))  # fmt: skip
    PointsAward.objects.create(
        event=event_of(club), club=club, player=c, scheme="abt", awarded_on=today, place=1, points=12.5
    )
    PointsAward.objects.create(
        event=event_of(club), club=club, player=b, scheme="usbgf", awarded_on=today, place=1, points=3.0
    )
    body = client.get(f"/clubs/{club.slug}/leaderboard/?scheme=abt").content.decode()
    assert body.index("Clara") < body.index("Anna") and "12.50" in body
    body = client.get(f"/clubs/{club.slug}/leaderboard/?scheme=usbgf&season={season.pk}").content.decode()
    assert body.index("Bernd") < body.index("Clara")
    assert client.get(f"/clubs/{club.slug}/leaderboard/?season=abc").status_code == 404
    by_rating = client.get(f"/clubs/{club.slug}/leaderboard/?order=rating&scheme=nonsense").content.decode()
    assert by_rating.index("Anna") < by_rating.index("Bernd")


def _add_players(club, director, n):
    players = [MembershipFactory(club=club).player for _ in range(n)]
    for i in range(0, n - 1, 2):
        played(director, club, players[i], players[i + 1], day=i)
    for player in players[:n:3]:
        PointsAward.objects.create(
            event=event_of(club),
            club=club,
            player=player,
            scheme="gammonpoints",
            awarded_on=datetime.date.today(),
            place=1,
            points=2,
        )
    return players


@pytest.mark.parametrize("players", [5, 50])
def test_leaderboard_query_count_does_not_grow_with_players(client, club, director_user, players,
                                                            django_assert_max_num_queries):  # fmt: skip
    _add_players(club, director_user, players)
    ClubSeason.objects.create(club=club, name="All", starts_on=datetime.date(2000, 1, 1),
                              ends_on=datetime.date(2100, 1, 1))  # fmt: skip
    season = ClubSeason.objects.get(club=club)
    with django_assert_max_num_queries(8):  # club, seasons, members, ratings, wins, losses, points, events
        response = client.get(f"/clubs/{club.slug}/leaderboard/?season={season.pk}&scheme=gammonpoints")
    assert response.status_code == 200
    assert response.content.decode().count("<tr>") == Membership.objects.filter(club=club).count() + 1


def test_ladder_page_join_and_challenge(client, club, director_user):
    from ratings.services import ladders as ladder_services

    ladder = ladder_services.create_ladder(actor=director_user, club=club, name="Club ladder")
    members = [MembershipFactory(club=club).player for _ in range(5)]
    for member in members:
        ladder_services.join_ladder(actor=member.user, ladder=ladder)
    newcomer = MembershipFactory(club=club).player
    client.force_login(newcomer.user)
    response = client.post(f"/clubs/{club.slug}/ladders/club-ladder/join/", follow=True)
    assert "You are on the ladder." in response.content.decode()
    page = client.get(f"/clubs/{club.slug}/ladders/club-ladder/").content.decode()
    challengeable = page.split('id="defender"')[1].split("</select>")[0]
    assert challengeable.count("<option") == 3  # up to three places above
    response = client.post(f"/clubs/{club.slug}/ladders/club-ladder/challenge/", {"defender": members[0].pk},
                           follow=True)  # fmt: skip
    assert "at most 3 places above" in response.content.decode()
    client.post(f"/clubs/{club.slug}/ladders/club-ladder/challenge/", {"defender": members[2].pk})
    client.force_login(members[3].user)
    response = client.post(f"/clubs/{club.slug}/ladders/club-ladder/challenge/", {"defender": members[2].pk},
                           follow=True)  # fmt: skip
    assert "already has an open challenge" in response.content.decode()
    assert client.post(f"/clubs/{club.slug}/ladders/club-ladder/challenge/", {"defender": "x"}).status_code == 302
    outsider = PlayerFactory()
    client.force_login(outsider.user)
    response = client.post(f"/clubs/{club.slug}/ladders/club-ladder/join/", follow=True)
    assert "Only members of the club" in response.content.decode()


def test_overall_ratings_list_and_points_across_clubs(client, club, history):
    a, b, _c = history
    other = ClubFactory()
    PointsAward.objects.create(event=event_of(club), club=club, player=b, scheme="gammonpoints",
                               awarded_on=datetime.date.today(), place=1, points=20.0)  # fmt: skip
    PointsAward.objects.create(event=event_of(other), club=other, player=b, scheme="gammonpoints",
                               awarded_on=datetime.date.today(), place=2, points=5.5)  # fmt: skip
    PointsAward.objects.create(event=event_of(other), club=other, player=a, scheme="abt",
                               awarded_on=datetime.date.today(), place=1, points=99.0)  # fmt: skip
    body = client.get("/ratings/").content.decode()
    assert body.index("Anna") < body.index("Clara")
    points = body.split('class="overall-points"')[1]
    assert "25.50" in points and "99.00" not in points and "Bernd" in points
    assert "99.00" in client.get("/ratings/?scheme=abt").content.decode().split('class="overall-points"')[1]
    assert client.get("/ratings/?scheme=<x>").status_code == 200


def test_pages_speak_german(client, club, history):
    a, _b, _c = history
    with translation.override("en"):  # the requests activate German; leave the thread as it was for later tests
        client.post("/i18n/setlang/", {"language": "de", "next": "/"})
        body = client.get(f"/clubs/{club.slug}/leaderboard/").content.decode()
        rating = client.get(f"/players/{a.pk}/rating/").content.decode()
    assert "Rangliste von" in body and "Siegquote" in body
    assert "Gewertete Matches" in rating and "die Chance der schwächer gewerteten Seite war" in rating


def test_directors_add_seasons_and_choose_an_event_scheme_on_the_pages(client, club, director_user, member_user):
    from tournaments.models import Entry, Flight

    event = event_of(club, on=datetime.date(2026, 3, 1), slug="spring-cup")
    main = Flight.objects.create(event=event, name="Main", slug="main", kind="main")
    for place in [1, 2, 3, 3, 5, 5, 5, 5]:
        Entry.objects.create(flight=main, player=MembershipFactory(club=club).player, place=place)
    url = f"/clubs/{club.slug}/events/spring-cup/points/"
    client.force_login(member_user)
    assert client.post(url, {"scheme": "abt"}).status_code == 403
    assert "Choose the points scheme" not in client.get(url).content.decode()
    client.force_login(director_user)
    response = client.post(url, {"scheme": "abt", "division_factor": "0.5"}, follow=True)
    body = response.content.decode()
    assert "Points scheme saved" in body and "ABT factor pools" in body
    assert PointsAward.objects.get(event=event, place=1).points == pytest.approx(4 * 32 / 96)
    assert (
        "Give the weights as numbers"
        in client.post(url, {"scheme": "abt", "event_weight": "x"}, follow=True).content.decode()
    )
    assert "Choose gammonpoints" in client.post(url, {"scheme": "elo"}, follow=True).content.decode()
    board = client.get(f"/clubs/{club.slug}/leaderboard/").content.decode()
    assert "spring-cup/points/" in board and "Add a season" in board
    added = client.post(f"/clubs/{club.slug}/seasons/add/", {"name": "2026", "starts_on": "2026-01-01",
                                                             "ends_on": "2026-12-31"}, follow=True)  # fmt: skip
    assert "Season added." in added.content.decode()
    wrong = client.post(f"/clubs/{club.slug}/seasons/add/", {"name": "x", "starts_on": "soon", "ends_on": ""},
                        follow=True)  # fmt: skip
    assert "Give both days as dates" in wrong.content.decode()
    assert client.get(f"/clubs/{club.slug}/events/nope/points/").status_code == 404
    client.logout()
    assert client.post(f"/clubs/{club.slug}/seasons/add/", {"name": "y", "starts_on": "2026-01-01",
                                                            "ends_on": "2026-12-31"}).status_code == 302  # fmt: skip
    assert ClubSeason.objects.filter(club=club).count() == 1


def test_a_private_clubs_pool_is_not_shown_to_outsiders(client, director_user):
    hidden = ClubFactory(is_public=False, name="Secret Society")
    public = ClubFactory()
    a = MembershipFactory(club=hidden).player
    MembershipFactory(club=public, player=a)
    b = MembershipFactory(club=hidden).player
    MembershipFactory(club=hidden, player=director_user.player, role="director")
    played(director_user, hidden, a, b)
    assert "Secret Society" not in client.get(f"/players/{a.pk}/").content.decode()
    page = client.get(f"/players/{a.pk}/rating/").content.decode()
    assert "Secret Society" not in page and "No rated matches yet." in page  # the match itself stays hidden
    client.force_login(b.user)
    assert "Secret Society" in client.get(f"/players/{a.pk}/rating/").content.decode()


def test_event_panel_for_pages_that_collect_event_panels(rf, club, director_user):
    from base import panels
    from points import services as points_services

    event = event_of(club, slug="summer-cup")
    request = rf.get("/")
    request.user = director_user
    assert "This event awards no points yet." in "".join(panels.collect("event", request, event))
    points_services.set_event_scheme(actor=director_user, event=event, scheme="abt")
    html = "".join(panels.collect("event", request, event))
    assert "ABT factor pools" in html and f"/clubs/{club.slug}/events/summer-cup/points/" in html


def test_signed_out_ladder_buttons_lead_to_sign_in_and_back_to_the_ladder(client, club, director_user):
    from ratings.services import ladders as ladder_services

    ladder_services.create_ladder(actor=director_user, club=club, name="Club ladder")
    for action in ("join", "challenge"):
        response = client.post(f"/clubs/{club.slug}/ladders/club-ladder/{action}/")
        assert response.status_code == 302
        assert response["Location"] == f"/accounts/login/?next=/clubs/{club.slug}/ladders/club-ladder/"
