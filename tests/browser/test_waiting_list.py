"""A capped flight's waiting list on a 390-pixel phone: a player signs up for a full flight and sees their place,
gets the place a withdrawal frees and accepts it from the flight page; the director sees the list (and that the
event, capped across its flights, is full), moves a player up with a reason and closes the list."""

import datetime

import pytest
from playwright.sync_api import expect

from tests.browser.test_money import fits, sign_in
from tests.clubs.factories import ClubFactory, MembershipFactory
from tournaments import services
from tournaments.models import SpotStatus, WaitingSpot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_player_waits_gets_the_place_and_the_director_moves_one_up_and_closes_the_list(live_server, page):
    club = ClubFactory()
    director = MembershipFactory(club=club, role="director").player.user
    event = services.create_event(actor=director, club=club, name="Cup", starts_on=datetime.date(2026, 5, 1))
    flight = services.add_flight(actor=director, event=event, name="Main", entry_fee=20)
    services.set_cap(actor=director, flight=flight, cap=2, offer_hours=12)
    a, b, c, d, e = (MembershipFactory(club=club, player__name=f"Player {n}").player for n in "ABCDE")
    first = services.register(actor=director, flight=flight, player=a)
    services.register(actor=director, flight=flight, player=b)
    event_url = f"/events/{club.slug}/{event.slug}/"
    flight_url = flight.get_absolute_url()

    # the player signs up for the full flight: onto the waiting list, and sees their place
    sign_in(page, live_server, c.user, event_url)
    page.get_by_role("button", name="Enter myself (Player C)").click()
    expect(page.locator(".messages, .message, [role=status], [role=alert]").first).to_contain_text(
        "Main is full: you are number 1 on its waiting list."
    )
    fits(page)
    page.goto(live_server.url + flight_url)
    expect(page.locator(".my-waiting")).to_contain_text("You are number 1 on the waiting list.")
    fits(page)

    # two more wait behind; a withdrawal frees a place, which is offered to the player
    for player in (d, e):
        services.join_waiting_list(actor=director, flight=flight, player=player)
    services.withdraw(actor=director, entry=first)
    page.goto(live_server.url + flight_url)
    expect(page.locator(".my-waiting")).to_contain_text("A place in Main is free for you.")
    fits(page)
    page.get_by_role("button", name="Accept the place").click()
    expect(page.locator(".messages, .message, [role=status], [role=alert]").first).to_contain_text("You are entered.")
    assert flight.entries.filter(player=c).exists()

    # the event gets a cap across its flights, full with a second flight's entry: the list page says so too
    second = services.add_flight(actor=director, event=event, name="Second")
    services.register(actor=director, flight=second, player=MembershipFactory(club=club).player)
    services.set_event_cap(actor=director, event=event, cap=3)

    # the director sees the list, moves Player E up with a reason, and closes the list
    page.context.clear_cookies()
    list_url = f"/events/{club.slug}/{event.slug}/{flight.slug}/waiting-list/"
    sign_in(page, live_server, director, list_url)
    spots = page.locator(".waiting-list li")
    expect(spots).to_have_count(2)
    expect(spots.nth(0)).to_contain_text("1. Player D")
    expect(page.locator(".waiting-places")).to_contain_text("2 of 2 places taken")
    expect(page.locator(".waiting-places .event-places")).to_contain_text("Cup is full: 3 of 3")
    fits(page)
    row = spots.nth(1)
    row.get_by_label("Why Player E moves up").fill("Club champion")
    row.get_by_role("button", name="Move Player E up").click()
    expect(page.locator(".waiting-list li").nth(0)).to_contain_text("1. Player E")
    expect(page.locator(".waiting-moves")).to_contain_text("Player E: 2 → 1 · Club champion")
    fits(page)
    page.get_by_role("button", name="Close the waiting list").click()
    expect(page.locator(".waiting-places")).to_contain_text("The waiting list is closed.")
    expect(page.locator(".waiting-list li")).to_have_count(0)
    fits(page)
    assert set(WaitingSpot.objects.filter(flight=flight).values_list("status", flat=True)) == {
        SpotStatus.ACCEPTED,
        SpotStatus.CLOSED,
    }
