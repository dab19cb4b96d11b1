"""The pages: event list and creation, the public bracket (draft pairs, released bracket, print sheet), the
director's buttons, the dashboard, the override page, the prize list, a player's next match."""

import pytest
from django.urls import reverse
from django.utils import translation

from tests.clubs.factories import MembershipFactory
from tournaments import selectors, services

from .builders import drawn_event, make_event, members, ready_slots, win

pytestmark = pytest.mark.django_db


def test_director_creates_an_event_from_the_list(client, club, director_user):
    client.force_login(director_user)
    response = client.post(
        reverse("tournaments:event-list"),
        {"club": club.slug, "name": "Autumn Cup", "starts_on": "2026-10-01", "is_public": "on", "house_percent": "5"},
    )
    assert response.status_code == 302
    assert client.get(response.url).status_code == 200


def test_public_bracket_shows_the_draft_then_the_released_bracket(client, club, director_user):
    event = make_event(club, director_user)
    main = services.add_flight(actor=director_user, event=event, name="Main")
    for player in members(club, 5):
        services.register(actor=director_user, flight=main, player=player)
    client.force_login(director_user)
    url = main.get_absolute_url()
    client.post(reverse("tournaments:flight-draw", args=[club.slug, event.slug, "main", "draw"]))
    client.logout()
    page = client.get(url).content.decode()
    assert "Round 1 (draw not yet released)" in page and "bye" in page
    services.confirm_draw(actor=director_user, flight=main)
    services.release_draw(actor=director_user, flight=main)
    page = client.get(url).content.decode()
    assert "Final" in page and "Print draw sheet" in page and "@media print" not in page
    assert "tournaments/bracket" in page  # the stylesheet with the print rules


def test_dashboard_is_for_directors_and_lists_ready_matches(client, club, director_user, member_user):
    event, flights = drawn_event(club, director_user, 8)
    url = reverse("tournaments:dashboard", args=[club.slug, event.slug])
    client.force_login(member_user)
    assert client.get(url).status_code == 403
    client.force_login(director_user)
    page = client.get(url).content.decode()
    assert "Ready to play (4)" in page


def test_override_page_lists_the_matches_it_would_void(client, club, director_user):
    event, flights = drawn_event(club, director_user, 8)
    main = flights["main"]
    first, second = ready_slots(main)[:2]
    win(director_user, first, 0)
    win(director_user, second, 0)
    client.force_login(director_user)
    url = reverse("tournaments:slot-override", args=[club.slug, event.slug, "main", first.pk])
    page = client.get(url).content.decode()
    assert "Later matches that will be voided" in page and "w2.0" in page
    response = client.post(url, {"winner_side": 1, "outcome": "forfeit", "comment": "Scorer error"})
    assert response.status_code == 302
    first.refresh_from_db()
    assert first.winner_id == first.entry_b_id


def test_prize_list_and_next_match(client, club, director_user):
    event, flights = drawn_event(
        club, director_user, 4, entry_fee=10, payout_template=[{"place": 1, "percent": 70}, {"place": 2, "percent": 30}]
    )
    page = client.get(reverse("tournaments:prizes", args=[club.slug, event.slug])).content.decode()
    assert "40.00" in page and "28.00" in page and "12.00" in page
    slot = ready_slots(flights["main"])[0]
    player = slot.entry_a.player
    client.force_login(player.user)
    page = client.get(reverse("tournaments:next-match")).content.decode()
    assert slot.entry_b.player.name in page
    assert "Next tournament match" in client.get(player.get_absolute_url()).content.decode()


def test_players_enter_from_the_event_page(client, club, director_user):
    event = make_event(club, director_user)
    services.add_flight(actor=director_user, event=event, name="Main")
    member = MembershipFactory(club=club).player
    client.force_login(member.user)
    client.post(reverse("tournaments:flight-register", args=[club.slug, event.slug, "main"]))
    assert "Entered" in client.get(event.get_absolute_url()).content.decode()


def test_unknown_event_and_flight_are_404(client, club):
    assert client.get(reverse("tournaments:event-detail", args=[club.slug, "nope"])).status_code == 404
    assert client.get(reverse("tournaments:flight-bracket", args=[club.slug, "nope", "main"])).status_code == 404


def test_bracket_page_in_german(client, club, director_user):
    event, flights = drawn_event(club, director_user, 4)
    page = client.get(flights["main"].get_absolute_url(), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Auslosungsblatt drucken" in page and "Finale" in page and "Meldungen" in page


def test_director_adds_a_flight_with_payouts_and_re_entry_from_the_event_page(client, club, director_user):
    event = make_event(club, director_user)
    client.force_login(director_user)
    url = reverse("tournaments:flight-add", args=[club.slug, event.slug])
    client.post(
        url,
        {
            "name": "Main",
            "kind": "main",
            "feed_rounds": 1,
            "entry_fee": "20",
            "length": 7,
            "seeding": "random",
            "reentry_fee": "10",
            "payout_template": "1:70, 2:30",
        },
    )
    main = event.flights.get(slug="main")
    assert main.reentry_fee == 10 and main.payout_template[0]["percent"] == "70"
    bad = client.post(
        url,
        {
            "name": "Other",
            "kind": "main",
            "feed_rounds": 1,
            "entry_fee": "0",
            "length": 7,
            "seeding": "random",
            "payout_template": "1:70",
        },
        follow=True,
    )
    assert "100%" in bad.content.decode()
    for player in members(club, 3):
        services.register(actor=director_user, flight=main, player=player)
    services.draw_flight(actor=director_user, flight=main, seed=1)
    services.confirm_draw(actor=director_user, flight=main)
    services.release_draw(actor=director_user, flight=main)
    slot = ready_slots(main)[0]
    win(director_user, slot, 0)
    page = client.get(main.get_absolute_url()).content.decode()
    assert "Re-enter (10.00)" in page
    loser = slot.entry_b
    url = reverse("tournaments:entry-reenter", args=[club.slug, event.slug, "main", loser.pk])
    asked = client.post(url).content.decode()  # a re-entry reshapes the bracket: the page asks first
    assert f"{loser.player.name} re-enters Main?" in asked and "Takes the bye of" in asked
    assert not main.entries.filter(player=loser.player, is_reentry=True).exists()
    response = client.post(url, {"confirmed": "1"}, follow=True)
    assert f"{loser.player.name} re-entered." in response.content.decode()
    assert main.entries.filter(player=loser.player, is_reentry=True, fee=10).exists()


def test_director_closes_registration_and_finds_the_override_on_the_bracket(client, club, director_user):
    event, flights = drawn_event(club, director_user, 4)
    client.force_login(director_user)
    client.post(reverse("tournaments:event-registration", args=[club.slug, event.slug]))
    event.refresh_from_db()
    assert not event.registration_open
    slot = ready_slots(flights["main"])[0]
    win(director_user, slot, 0)
    page = client.get(flights["main"].get_absolute_url()).content.decode()
    assert reverse("tournaments:slot-override", args=[club.slug, event.slug, "main", slot.pk]) in page


def test_a_finished_event_offers_no_registration_and_refuses_to_reopen_it(client, club, director_user):
    """The end of the event closed its registration; the director's page offered "Open registration" as its
    first button all the same, and opening it took entries for an event whose draws are over."""
    event, flights = drawn_event(club, director_user, 2)
    win(director_user, ready_slots(flights["main"])[0], 0)
    event.refresh_from_db()
    assert event.status == "finished" and not event.registration_open
    client.force_login(director_user)
    page = client.get(event.get_absolute_url()).content.decode()
    assert "Open registration" not in page and "Close registration" not in page
    response = client.post(reverse("tournaments:event-registration", args=[club.slug, event.slug]), follow=True)
    assert "The event is finished: it takes no more entries." in response.content.decode()
    event.refresh_from_db()
    assert not event.registration_open
    with translation.override("de"):
        response = client.post(
            reverse("tournaments:event-registration", args=[club.slug, event.slug]),
            follow=True,
            headers={"accept-language": "de"},
        )
    assert "Das Turnier ist beendet" in response.content.decode()


def test_junk_form_posts_answer_with_a_message_not_a_500(client, club, director_user):
    event, flights = drawn_event(club, director_user, 4)
    client.force_login(director_user)
    base = [club.slug, event.slug]
    for name, args, data in [
        ("tournaments:flight-register", [*base, "main"], {"player": "abc"}),
        ("tournaments:flight-register", [*base, "main"], {"player": "99999999999"}),
        ("tournaments:flight-add", base, {"name": "", "kind": "x", "payout_template": "a:b:c"}),
        ("tournaments:flight-draw", [*base, "main", "draw"], {}),
        ("tournaments:event-list", [], {"club": "nope", "name": "", "starts_on": "x"}),
    ]:
        assert client.post(reverse(name, args=args), data).status_code in (200, 302), name


def test_the_event_page_shows_the_points_panel_with_the_link_to_the_events_points(client, club, director_user):
    event = make_event(club, director_user)
    page = client.get(reverse("tournaments:event-detail", args=[club.slug, event.slug])).content.decode()
    assert "This event awards no points yet." in page
    assert f'href="{reverse("points:event-points", args=[club.slug, event.slug])}"' in page


def test_the_bracket_reads_in_german_with_the_main_flight_and_the_random_seed_named_right(client, club, director_user):
    event = make_event(club, director_user)
    main = services.add_flight(actor=director_user, event=event, name="Main")
    for player in members(club, 4):
        services.register(actor=director_user, flight=main, player=player)
    services.draw_flight(actor=director_user, flight=main, seed=7)
    with translation.override("en"):  # the middleware switches this thread to German; leave it as it was
        page = client.get(main.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Hauptfeld" in page and "Hauptmenü" not in page.split("</nav>", 1)[1]
    assert "Startwert der Zufallsauslosung" in page


def test_a_director_enters_many_players_at_once_and_sees_the_count(client, club, director_user):
    event = make_event(club, director_user)
    services.add_flight(actor=director_user, event=event, name="Main")
    players = members(club, 5)
    client.force_login(director_user)
    url = reverse("tournaments:flight-register", args=[club.slug, event.slug, "main"])
    names = f"{players[2].name}\n  {players[3].name.upper()}  \n\n{players[4].name}"
    preview = client.post(url, {"players": [players[0].pk, players[1].pk], "names": names}).content.decode()
    assert "Enter these 5 players" in preview and event.flights.get(slug="main").entries.count() == 0
    response = client.post(url, {"players": [p.pk for p in players], "confirmed": "1"}, follow=True)
    page = response.content.decode()
    assert "5 players entered in Main" in page
    assert "Main: 5 players entered" in page  # the count, and the box stays open for the next batch
    assert 'id="register-main" open' in page
    listed = page[page.index('id="id_members_main"') :].split("</ul>")[0]
    assert all(f'value="{p.pk}" checked disabled>' in listed for p in players)  # shown as entered, not offered
    again = client.post(url, {"names": f"{players[0].name}\nNobody Known"}).content.decode()
    assert "Nobody Known" in again.split('class="unknown"')[1] and "Nobody on the list can be entered." in again
    assert event.flights.get(slug="main").entries.count() == 5


def test_a_late_entry_into_a_released_bracket_is_confirmed_first_naming_the_bye_it_takes(client, club, director_user):
    event, flights = drawn_event(club, director_user, 6)
    main = flights["main"]
    bye = main.slots.filter(round=1, result="bye").order_by("position").first()
    holder = (bye.entry_a or bye.entry_b).player
    late = members(club, 1)[0]
    client.force_login(director_user)
    url = reverse("tournaments:flight-register", args=[club.slug, event.slug, "main"])
    page = client.post(url, {"players": [late.pk]}).content.decode()
    assert "after the draw?" in page and "Enter this player" in page
    assert f"Takes the bye of {holder.name} in round 1" in page
    assert not main.entries.filter(player=late).exists()  # nothing changed before the confirmation
    done = client.post(url, {"players": [late.pk], "confirmed": "1"}, follow=True).content.decode()
    assert "1 player entered in Main" in done
    assert main.entries.filter(player=late, is_late=True).exists()


def test_releasing_a_draw_asks_first_and_names_the_byes(client, club, director_user):
    event = make_event(club, director_user)
    main = services.add_flight(actor=director_user, event=event, name="Main")
    for player in members(club, 5):
        services.register(actor=director_user, flight=main, player=player)
    services.draw_flight(actor=director_user, flight=main, seed=3)
    services.confirm_draw(actor=director_user, flight=main)
    client.force_login(director_user)
    url = reverse("tournaments:flight-draw", args=[club.slug, event.slug, "main", "release"])
    page = client.post(url).content.decode()
    main.refresh_from_db()
    assert main.draw_status == "confirmed"  # nothing released yet
    assert "Release the draw of Main?" in page and "1 first-round match is created" in page
    byes = [(a or b).player.name for a, b in selectors.draft_pairs(flight=main) if bool(a) != bool(b)]
    assert len(byes) == 3 and all(name in page.split("Byes move on at once:")[1].split("</li>")[0] for name in byes)
    client.post(url, {"confirmed": "1"})
    main.refresh_from_db()
    assert main.draw_status == "released"


def test_a_refused_fed_flight_says_which_flight_to_feed_from(client, club, director_user):
    event = make_event(club, director_user)
    main = services.add_flight(actor=director_user, event=event, name="Main")
    services.add_flight(actor=director_user, event=event, name="Consolation", kind="consolation", source=main)
    client.force_login(director_user)
    form = {"name": "Last Chance", "kind": "last_chance", "source": "main", "feed_rule": "first_played"}
    form |= {"feed_rounds": 1, "entry_fee": "0", "length": 5, "seeding": "random"}
    url = reverse("tournaments:flight-add", args=[club.slug, event.slug])
    page = client.post(url, form, follow=True).content.decode()
    assert "Main already feeds Consolation: its losers go there. Feed this flight from Consolation instead" in page


def test_the_prize_list_shows_every_flights_pool(client, club, director_user):
    template = [{"place": 1, "percent": 75}, {"flight": "consolation", "place": 1, "percent": 25}]
    event, flights = drawn_event(club, director_user, 4, entry_fee=10, payout_template=template, consolation={})
    pool = services.add_flight(
        actor=director_user, event=event, name="Side pool", kind="side_pool", source=flights["main"], entry_fee=5
    )
    services.register(actor=director_user, flight=pool, player=flights["main"].entries.first().player)
    page = client.get(reverse("tournaments:prizes", args=[club.slug, event.slug])).content.decode()
    sections = page.split('<section class="prize">')[1:]
    assert [s.split("</h2>")[0].split("<h2>")[1] for s in sections] == ["Main", "Consolation", "Side pool"]
    assert "Its places are paid from the pool of Main." in sections[1]
    assert "5.00" in sections[2] and "No payout template: this pool is not shared out yet." in sections[2]


def test_withdrawing_from_a_released_bracket_names_the_walkover_first(client, club, director_user):
    event, flights = drawn_event(club, director_user, 8)
    main = flights["main"]
    slot = ready_slots(main)[0]
    client.force_login(director_user)
    url = reverse("tournaments:entry-withdraw", args=[club.slug, event.slug, "main", slot.entry_a_id])
    asked = client.post(url).content.decode()
    assert f"Withdraw {slot.entry_a.player.name} from Main?" in asked
    assert f"{slot.entry_b.player.name} wins the round 1 match by walkover." in asked
    assert main.entries.get(pk=slot.entry_a_id).status != "withdrawn"  # nothing changed yet
    assert "Withdrawn." in client.post(url, {"confirmed": "1"}, follow=True).content.decode()
    assert main.entries.get(pk=slot.entry_a_id).status == "withdrawn"


def test_the_prize_list_writes_money_as_the_reader_does(client, club, director_user):
    event, _ = drawn_event(club, director_user, 4, entry_fee=10, payout_template=[{"place": 1, "percent": 100}])
    url = reverse("tournaments:prizes", args=[club.slug, event.slug])
    with translation.override("en"):  # the request activates German; leave the thread as it was for later tests
        german = client.get(url, headers={"accept-language": "de"}).content.decode()
    assert "40,00" in german and "40.00" not in german
    assert "40.00" in client.get(url, headers={"accept-language": "en"}).content.decode()


def test_a_side_pool_offers_only_the_players_of_its_flight(client, club, director_user):
    event, flights = drawn_event(club, director_user, 4)
    services.add_flight(actor=director_user, event=event, name="Side pool", kind="side_pool", source=flights["main"])
    outsider = members(club, 1)[0]
    client.force_login(director_user)
    page = client.get(event.get_absolute_url()).content.decode()
    offered = page[page.index('id="id_members_side-pool"') :].split("</ul>")[0]
    assert all(f'value="{e.player_id}"' in offered for e in flights["main"].entries.all())
    assert f'value="{outsider.pk}"' not in offered


def test_open_places_in_the_bracket_say_who_can_still_fill_them(client, club, director_user):
    event, flights = drawn_event(club, director_user, 8)
    main = flights["main"]
    first = ready_slots(main)[0]
    page = client.get(main.get_absolute_url()).content.decode()
    assert f"winner of {first.entry_a.player.name} / {first.entry_b.player.name}" in page  # a semi-final's side
    assert page.count("one of 4 players") == 2  # each side of the final: four players can still arrive
