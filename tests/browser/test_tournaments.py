import re

import pytest

from tests.clubs.factories import ClubFactory, MembershipFactory
from tests.tournaments.builders import drawn_event, make_event, members, ready_slots
from tournaments import services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_player_opens_the_public_bracket_reports_a_win_and_sees_it_move_on(live_server, page):
    club = ClubFactory()
    director = MembershipFactory(club=club, role="director").player.user
    event, flights = drawn_event(club, director, 8, length=3)
    slot = ready_slots(flights["main"])[0]
    winner, loser = slot.entry_a.player, slot.entry_b.player

    # anyone can read the bracket on a phone
    page.goto(f"{live_server.url}{flights['main'].get_absolute_url()}")
    assert page.locator("h1").inner_text().endswith("Main")
    assert page.get_by_text(winner.name, exact=True).first.is_visible()

    # the winner signs in, opens the match from the bracket and reports the final score
    page.goto(f"{live_server.url}/accounts/login/?next={flights['main'].get_absolute_url()}")
    page.fill("#id_username", winner.user.username)
    page.fill("#id_password", "pw-for-tests")
    page.click("button[type=submit]")
    page.wait_for_url(f"**{flights['main'].get_absolute_url()}")
    page.locator(f"#slot-{slot.pk} a.match-link").click()
    page.wait_for_url(f"**/matches/{slot.match_id}/")
    page.goto(f"{live_server.url}/matches/{slot.match_id}/report/")
    page.select_option("select[name=method]", "final_score")
    page.fill("input[name=score_a]", "3")
    page.fill("input[name=score_b]", "1")
    with page.expect_navigation():
        page.locator("form.report-form button[type=submit]").click()

    # the loser confirms; the bracket shows the winner in round 2
    from games.matchplay import services as match_services

    report = slot.match.reports.order_by("-version").first()
    match_services.confirm_report(actor=loser.user, match=slot.match, version=report.version)
    page.goto(f"{live_server.url}{flights['main'].get_absolute_url()}")
    round_two = page.locator(".round").nth(1)
    assert winner.name in round_two.inner_text()
    assert page.locator(f"#slot-{slot.pk} .side.won").inner_text().startswith(winner.name)


def test_a_director_enters_fourteen_players_then_draws_and_releases_in_nine_actions(live_server, page):
    """Fourteen entries used to take 42 clicks and 14 reloads: now a multi-select and a pasted list of names,
    a count, and the players already entered are not offered again. The draw is then made, confirmed and
    released from the flight's page, the release only after a page saying what it changes."""
    club = ClubFactory()
    director = MembershipFactory(club=club, role="director").player.user
    event = make_event(club, director)
    services.add_flight(actor=director, event=event, name="Main")
    players = members(club, 14)
    page.goto(f"{live_server.url}/accounts/login/?next={event.get_absolute_url()}")
    page.fill("#id_username", director.username)
    page.fill("#id_password", "pw-for-tests")
    page.click("button[type=submit]")
    page.wait_for_url(f"**{event.get_absolute_url()}")

    actions = 0
    page.locator("#register-main summary").click()
    actions += 1
    page.select_option("#id_players_main", [str(p.pk) for p in players[:10]])  # ten picked at once
    actions += 1
    page.fill("#id_names_main", "\n".join(p.name for p in players[10:]))  # four pasted from a list
    actions += 1
    page.get_by_role("button", name="Enter them in Main").click()
    actions += 1
    page.get_by_text("14 players entered in Main").wait_for()
    assert actions <= 5
    assert "Main: 14 players entered" in page.locator("#register-main summary").inner_text()
    assert page.locator("#register-main").get_attribute("open") is not None  # still open for the next batch
    offered = page.locator("#id_players_main option").all_inner_texts()
    assert not set(offered) & {p.name for p in players}
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert event.flights.get(slug="main").entries.count() == 14

    page.get_by_role("link", name="Main", exact=True).first.click()
    actions += 1
    page.get_by_role("button", name="Draw", exact=True).click()
    actions += 1
    page.get_by_role("button", name="Confirm draw").click()
    actions += 1
    page.get_by_role("button", name="Release draw").click()
    actions += 1
    assert page.locator("h1").inner_text() == "Release the draw of Main?"  # the confirmation, nothing changed yet
    assert "first-round matches are created" in page.locator(".cascade").inner_text()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert event.flights.get(slug="main").draw_status == "confirmed"
    page.get_by_role("button", name="Yes, release the draw").click()
    actions += 1
    page.get_by_text("Draw released.").wait_for()
    assert actions <= 9
    assert event.flights.get(slug="main").draw_status == "released"
    assert page.locator(".round").first.is_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_the_bracket_draws_lines_between_rounds_and_prints_sixteen_players_on_one_page(live_server, browser):
    club = ClubFactory()
    director = MembershipFactory(club=club, role="director").player.user
    event, flights = drawn_event(club, director, 16, length=3)
    main = flights["main"]
    context = browser.new_context(viewport={"width": 1366, "height": 900})
    page = context.new_page()
    page.goto(f"{live_server.url}{main.get_absolute_url()}")
    assert page.locator(".bracket.tree").count() == 1
    rounds = page.locator(".bracket.tree .round")
    assert rounds.count() == 4
    line = page.evaluate(
        "getComputedStyle(document.querySelector('.tree .round .cell'), '::after').borderTopStyle"
    )
    assert line == "solid"  # the connector out of a first-round match

    def centre(locator):
        box = locator.bounding_box()
        return box["y"] + box["height"] / 2

    first, second = rounds.nth(0).locator(".slot"), rounds.nth(1).locator(".slot")
    assert centre(first.nth(0)) < centre(second.nth(0)) < centre(first.nth(1))  # between its two feeders
    a, b = ready_slots(main)[0].entry_a.player.name, ready_slots(main)[0].entry_b.player.name
    assert f"winner of {a} / {b}" in second.nth(0).inner_text()  # an open place says who can fill it

    pdf = page.pdf(format="A4", landscape=True, print_background=False)
    pages = len(re.findall(rb"/Type\s*/Page[^s]", pdf))
    assert pages == 1
    page.emulate_media(media="print")
    sheet = page.locator(".sheet-date")
    assert sheet.is_visible() and str(event.starts_on.year) in sheet.inner_text()
    assert page.locator(".slot .score-line").first.is_visible()  # blank score lines to write on
    page.emulate_media(media="screen")
    page.goto(f"{live_server.url}{main.get_absolute_url()}?projector=1")
    assert page.locator(".site-header").is_hidden() and page.locator(".bracket.tree").is_visible()
    context.close()


def test_the_new_flight_page_shows_a_variants_settings_once_that_variant_is_chosen(live_server, page):
    """Five setting selects for every game crowded the phone form: each shows only with its own game, and the
    flight is created with the one chosen."""
    club = ClubFactory()
    director = MembershipFactory(club=club, role="director").player.user
    event = make_event(club, director)
    new = f"{event.get_absolute_url()}flights/new/"
    page.goto(f"{live_server.url}/accounts/login/?next={new}")
    page.fill("#id_username", director.username)
    page.fill("#id_password", "pw-for-tests")
    page.click("button[type=submit]")
    page.wait_for_url(f"**{new}")
    shown = ("#id_backward_hits", "#id_head_doubles", "#id_six_block")
    assert [page.is_visible(field) for field in shown] == [False, False, False]
    page.select_option("#id_variant", "backward")
    assert [page.is_visible(field) for field in shown] == [True, False, False]
    page.select_option("#id_variant", "long_nardy")
    assert [page.is_visible(field) for field in shown] == [False, True, True]
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.select_option("#id_head_doubles", "any")
    page.select_option("#id_variant", "standard")  # a change of mind: the hidden 'any double' is not sent on
    page.fill("#id_name", "Plain")
    page.click("form.flight-form button[type=submit]")
    page.wait_for_url(f"**{event.get_absolute_url()}")
    assert event.flights.get().head_doubles == "classic"
    page.goto(f"{live_server.url}{new}")
    page.select_option("#id_variant", "long_nardy")
    page.fill("#id_name", "Nardy")
    page.select_option("#id_head_doubles", "any")
    page.click("form.flight-form button[type=submit]")
    page.wait_for_url(f"**{event.get_absolute_url()}")
    flight = event.flights.get(name="Nardy")
    assert (flight.variant, flight.head_doubles, flight.six_block) == ("long_nardy", "any", "ahead")
    assert "Long nardy (two off the head on the first turn: any double)" in page.content()
