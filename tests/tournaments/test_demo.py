import pytest
from django.core.management import call_command
from django.test import Client
from django.utils.translation import override

from base.management.commands.load_demo import DemoContext
from games.models.matches import Match
from ratings.services.pools import overall_pool, rateable_matches
from tournaments import demo, selectors
from tournaments.models import Call, Event, Slot, TeamBoard

pytestmark = pytest.mark.django_db


def test_demo_has_a_finished_event_with_three_flights_and_one_in_progress():
    call_command("load_demo")
    finished = Event.objects.get(slug=demo.FINISHED)
    running = Event.objects.get(slug=demo.RUNNING)
    assert finished.status == "finished" and running.status == "running"
    assert not finished.registration_open  # a finished event takes no more entries
    assert [f.kind for f in finished.flights.order_by("order")] == ["main", "consolation", "last_chance"]
    for flight in finished.flights.all():
        places = [p.place for p in selectors.flight_placements(flight=flight)]
        assert places.count(1) == 1 and None not in places
    assert Slot.objects.filter(flight__event=running, result="ready").exists()
    # the running event is a live day: boards with auto-call, and its ready matches are already on boards
    assert running.auto_call and running.boards.count() == 4
    assert Call.objects.filter(board__event=running, freed_at__isnull=True).exists()
    # and a jackpot: one pod of four released, two players on the waiting list
    jackpot = running.flights.get(slug="jackpot")
    pod = running.flights.get(source=jackpot)
    assert (pod.entries.count(), pod.draw_status, jackpot.entries.count()) == (4, "released", 2)
    counts = (Event.objects.count(), Slot.objects.count())
    context = DemoContext(password="x")
    from clubs.models import Club

    club = Club.objects.get(slug="bc-berlin")
    context.club = club
    context.director = Event.objects.get(slug=demo.FINISHED).directors.first()
    context.players = [m.player for m in club.memberships.filter(role="player").order_by("pk")][:16]
    demo.load(context)  # a re-run creates nothing and still names the events
    assert (Event.objects.count(), Slot.objects.count()) == counts
    assert context.finished_event == finished and context.running_event == running


def test_demo_has_a_finished_swiss_night_with_a_top_eight_cut():
    call_command("load_demo")
    event = Event.objects.get(slug=demo.SWISS)
    assert event.status == "finished"
    swiss, top = event.flights.order_by("order")
    assert (swiss.format, swiss.current_round, top.feed_rule) == ("swiss", 4, "cut")
    assert top.entries.count() == 8
    places = sorted(p.place for p in selectors.flight_placements(flight=swiss))
    assert places[0] == 1 and places.count(1) == 1 and None not in places and len(places) == 16


def finished_flight(slug):
    """The one flight of a finished demo event, with one champion and every entry placed."""
    event = Event.objects.get(slug=slug)
    assert event.status == "finished"
    (flight,) = event.flights.all()
    places = sorted(p.place for p in selectors.flight_placements(flight=flight))
    assert places[0] == 1 and places.count(1) == 1 and None not in places
    return flight


def test_demo_has_a_finished_doubles_cup_and_nations_cup():
    call_command("load_demo")
    doubles = finished_flight(demo.DOUBLES)
    assert (doubles.team_kind, doubles.team_size, doubles.entries.count()) == ("doubles", 2, 8)
    assert all(entry.members.count() == 2 and " & " in entry.name for entry in doubles.entries.all())
    played = Match.objects.filter(tournament_slot__flight=doubles)
    assert played.count() == 7 and all(m.winner_id for m in played)
    assert not rateable_matches(overall_pool()).filter(pk__in=played).exists()  # a pair's result rates no one
    teams = finished_flight(demo.NATIONS)
    assert (teams.team_kind, teams.team_size, teams.entries.count()) == ("team", 3, 4)
    assert sorted(e.name for e in teams.entries.all()) == ["East", "North", "South", "West"]
    assert TeamBoard.objects.filter(flight=teams).count() == 9  # three team matches of three boards


def test_demo_prizes_handed_over_are_their_places_amounts_and_a_capped_flight_has_a_waiting_list():
    from tournaments.models import SpotStatus, WaitingMove, WaitingSpot

    call_command("load_demo")
    paid = [
        (w.amount, w.paid)
        for event in Event.objects.all()
        for prizes in selectors.prize_list(event=event)
        if prizes.table is not None
        for award in prizes.table.awards
        for w in award.winners
        if w.paid is not None
    ]
    assert paid and all(amount == handed for amount, handed in paid)  # e.g. 156.50 paid as 156.50, not 161.00
    main = Event.objects.get(slug=demo.CAPPED).flights.get(slug="main")
    places = selectors.flight_places(flight=main)
    assert (places.cap, places.entered, places.offered) == (8, 7, 1)
    spots = selectors.waiting_list(flight=main).spots
    assert [s.status for s in spots] == [SpotStatus.OFFERED, SpotStatus.WAITING, SpotStatus.WAITING]
    assert (
        WaitingSpot.objects.filter(flight=main).count() == 3 and WaitingMove.objects.filter(spot__flight=main).exists()
    )
    event = main.event
    assert (event.cap, selectors.event_places(event=event).full) == (10, True)  # full with the Amateurs' two
    assert WaitingSpot.objects.get(flight__slug="amateurs", flight__event=event).status == SpotStatus.WAITING
    with override("en"):
        page = Client().get(event.get_absolute_url()).content.decode()
    assert "at most 10 entries across the flights" in page


def test_the_demos_calcutta_settlement_shows_transfer_codes_and_the_club_has_its_account(client):
    """The demo's settled Calcutta: its settlement page shows the director a GiroCode for each open settle-up
    (owners paid from the pool, and owners who owe the club paying into the club's own account)."""
    from django.contrib.auth.models import User

    from calcutta.models import Calcutta
    from clubs.models import BankAccount, Club

    call_command("load_demo")
    club = Club.objects.get(slug="bc-berlin")
    assert BankAccount.objects.filter(club=club).exists()
    client.force_login(User.objects.get(username="director"))
    calcutta = Calcutta.objects.get()
    page = client.get(f"/calcuttas/{calcutta.pk}/settlement/").content.decode()
    assert page.count('class="paycode-qr"') >= 1
