import pytest
from playwright.sync_api import expect

from tests.clubs.factories import MembershipFactory
from tests.ratings.builders import played

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_player_opens_the_rating_chart_and_the_club_leaderboard(live_server, page, club):
    director = MembershipFactory(club=club, role="director").player.user
    anna, bernd, clara = (MembershipFactory(club=club, player__name=n).player for n in ("Anna", "Bernd", "Clara"))
    for day, (winner, loser) in enumerate([(anna, bernd), (anna, clara), (bernd, anna), (anna, clara)]):
        played(director, club, winner, loser, day=day, length=7)
    page.goto(f"{live_server.url}/players/{anna.pk}/")
    page.click("text=Overall")  # the rating panel on the player page
    page.wait_for_url(f"**/players/{anna.pk}/rating/")
    chart = page.locator("figure.rating-chart svg")
    expect(chart).to_be_visible()
    assert page.locator("figure.rating-chart circle").count() == 4
    assert page.locator("table.rated-matches tr.explain").count() == 4
    box = chart.bounding_box()
    assert box is not None and box["width"] <= 390  # fits the phone
    page.goto(f"{live_server.url}/clubs/{club.slug}/")
    page.click("text=Leaderboard")
    page.wait_for_url(f"**/clubs/{club.slug}/leaderboard/")
    first = page.locator("table.leaderboard tbody tr").first
    assert "Anna" in first.inner_text()
    page.select_option("#order", "win_share")
    page.click("form.filters button")
    page.wait_for_url("**order=win_share**")
    assert "Anna" in page.locator("table.leaderboard tbody tr").first.inner_text()
