import re

import pytest
from playwright.sync_api import expect

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
    expect(page.get_by_text(winner.name, exact=True).first).to_be_visible()

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
    """Fourteen entries used to take 42 clicks and 14 reloads: now a pasted list of names, a preview and one
    confirmation, a count, and the players already entered are shown as such. The draw is then made, confirmed and
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
    page.fill("#id_names_main", "\n".join(p.name for p in players))  # fourteen pasted from a list
    actions += 1
    page.get_by_role("button", name="Check the list").click()
    actions += 1
    assert event.flights.get(slug="main").entries.count() == 0  # the preview enters nobody
    page.get_by_role("button", name="Enter these 14 players").click()
    actions += 1
    page.get_by_text("14 players entered in Main").wait_for()
    assert actions <= 5
    assert "Main: 14 players entered" in page.locator("#register-main summary").inner_text()
    assert page.locator("#register-main").get_attribute("open") is not None  # still open for the next batch
    assert page.locator("#id_members_main input:checked:disabled").count() == 14  # shown as entered
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
    expect(page.locator(".round").first).to_be_visible()
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
    line = page.evaluate("getComputedStyle(document.querySelector('.tree .round .cell'), '::after').borderTopStyle")
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
    expect(page.locator(".slot .score-line").first).to_be_visible()  # blank score lines to write on
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


def test_a_director_at_a_laptop_enters_nine_players_in_a_handful_of_clicks(live_server, browser):
    """Nine players used to take eleven clicks in a Ctrl-click list inside a closed box: now one is found with
    the filter box and ticked, eight are pasted, the preview names them all, and one button enters them."""
    club = ClubFactory()
    director = MembershipFactory(club=club, role="director").player.user
    event = make_event(club, director)
    services.add_flight(actor=director, event=event, name="Main")
    players = members(club, 20)
    zoe = MembershipFactory(club=club, player__name="Zoë Brandt").player
    context = browser.new_context(viewport={"width": 1366, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15000)
    page.goto(f"{live_server.url}/accounts/login/?next={event.get_absolute_url()}")
    page.fill("#id_username", director.username)
    page.fill("#id_password", "pw-for-tests")
    page.click("button[type=submit]")
    page.wait_for_url(f"**{event.get_absolute_url()}")

    clicks = 0
    page.fill("#id_filter_main", "zoe")  # typed: the list narrows to her, accents ignored
    clicks += 1
    visible = page.locator("#id_members_main li:visible")
    assert visible.count() == 1 and visible.inner_text().strip() == "Zoë Brandt"
    page.get_by_label("Zoë Brandt").check()
    clicks += 1
    page.fill("#id_names_main", ", ".join(p.name.upper() for p in players[:8]))
    clicks += 1
    page.get_by_role("button", name="Check the list").click()
    clicks += 1
    assert page.locator("ul.matched li").count() == 9
    assert event.flights.get(slug="main").entries.count() == 0
    page.get_by_role("button", name="Enter these 9 players").click()
    clicks += 1
    page.get_by_text("9 players entered in Main").wait_for()
    assert clicks <= 5
    entered = set(event.flights.get(slug="main").entries.values_list("player_id", flat=True))
    assert entered == {p.pk for p in players[:8]} | {zoe.pk}
    context.close()
