"""Check-in before round 1 of every format: the flight page of a round flight lists who is here (the director
ticks a player in or undoes it in one tap), pairing round 1 with players not checked in by a deadline asks the
director first (page and API: 409 `no_shows_need_confirmation` naming them, nobody withdrawn until confirmed),
and a player's "Check in" on the home and event page names the event and flight and is gone once it runs."""

import datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone, translation

from base.api import Conflict
from tests.tournaments.builders import drawn_event, make_event, members
from tests.tournaments.rounds_builders import swiss_event
from tournaments import services
from tournaments.models import BracketChange, Entry, EntryStatus, Pairing

pytestmark = pytest.mark.django_db

FORMATS = [
    {"format": "swiss", "rounds": 2},
    {"format": "round_robin"},
    {"format": "triple_elimination"},
    {"format": "groups", "group_size": 2, "advance": 1},
]


def _deadline_flight(club, director, n, here, **settings):
    """A round flight of n players with a check-in deadline in an hour; the first `here` checked in."""
    settings.setdefault("format", "swiss")
    event, flight = swiss_event(
        club, director, n, check_in_deadline=timezone.now() + datetime.timedelta(hours=1), **settings
    )
    entries = list(flight.entries.select_related("player").order_by("pk"))
    for entry in entries[:here]:
        services.check_in(actor=director, entry=entry)
    return event, flight, entries


def _url(name, event, flight, *args):
    return reverse(f"tournaments:{name}", args=[event.club.slug, event.slug, flight.slug, *args])


def _api_rounds(event, flight):
    return f"/api/v1/events/{event.club.slug}/{event.slug}/flights/{flight.slug}/rounds/"


def _nothing_changed(flight):
    assert not Entry.objects.filter(flight=flight, status=EntryStatus.WITHDRAWN).exists()
    assert not Pairing.objects.filter(flight=flight).exists()
    assert not BracketChange.objects.filter(flight=flight, kind="no_show").exists()
    flight.refresh_from_db()
    assert flight.current_round == 0


# --- the service and the API -------------------------------------------------------------------------------------


@pytest.mark.parametrize("settings", FORMATS, ids=lambda s: s["format"])
def test_round_one_names_the_no_shows_and_withdraws_nobody_until_confirmed(club, director_user, settings):
    _, flight, entries = _deadline_flight(club, director_user, 6, 4, **settings)
    with pytest.raises(Conflict) as asked:
        services.start_round(actor=director_user, flight=flight)
    assert asked.value.get_codes() == "no_shows_need_confirmation"
    assert asked.value.extra["no_shows"] == [{"id": e.pk, "name": e.player.name} for e in entries[4:]]
    assert all(e.player.name in str(asked.value.detail) for e in entries[4:])
    _nothing_changed(flight)
    assert services.start_round(actor=director_user, flight=flight, confirm_no_shows=True)
    statuses = dict(Entry.objects.filter(flight=flight).values_list("pk", "status"))
    assert [statuses[e.pk] for e in entries] == ["checked_in"] * 4 + ["withdrawn"] * 2


def test_round_one_with_everyone_checked_in_or_without_a_deadline_asks_nothing(club, director_user):
    _, everyone_here, _entries = _deadline_flight(club, director_user, 4, 4)
    assert services.start_round(actor=director_user, flight=everyone_here)
    _, no_deadline = swiss_event(club, director_user, 4)
    assert services.start_round(actor=director_user, flight=no_deadline)
    assert not Entry.objects.filter(flight=no_deadline, status=EntryStatus.WITHDRAWN).exists()


def test_the_api_answers_409_with_the_no_shows_then_pairs_when_confirmed(club, director_user, api_as):
    event, flight, entries = _deadline_flight(club, director_user, 5, 3)
    api = api_as(director_user)
    refused = api.post(_api_rounds(event, flight), {}, format="json")
    assert refused.status_code == 409
    body = refused.json()
    assert body["code"] == "no_shows_need_confirmation" and body["field"] is None
    assert body["no_shows"] == [{"id": e.pk, "name": e.player.name} for e in entries[3:]]
    _nothing_changed(flight)
    paired = api.post(_api_rounds(event, flight), {"confirm_no_shows": True}, format="json")
    assert paired.status_code == 200 and len(paired.json()) == 2  # three here: one table and a bye
    assert set(Entry.objects.filter(flight=flight, status="withdrawn").values_list("pk", flat=True)) == {
        e.pk for e in entries[3:]
    }


def test_an_empty_post_still_pairs_a_flight_without_no_shows(club, director_user, api_as):
    event, flight = swiss_event(club, director_user, 4)
    response = api_as(director_user).post(_api_rounds(event, flight))
    assert response.status_code == 200 and len(response.json()) == 2


def test_a_director_undoes_a_check_in_before_round_one_but_not_after(club, director_user, api_as):
    event, flight, entries = _deadline_flight(club, director_user, 4, 4)
    url = f"/api/v1/events/{club.slug}/{event.slug}/flights/{flight.slug}/entries/{entries[0].pk}/check-in/"
    player = api_as(entries[0].player.user)
    assert player.delete(url).status_code == 403  # the player taps in, but only a director takes it back
    undone = api_as(director_user).delete(url)
    assert undone.status_code == 200 and undone.json()["status"] == "registered"
    services.check_in(actor=director_user, entry=entries[0])
    services.start_round(actor=director_user, flight=flight)
    after = api_as(director_user).delete(url)
    assert after.status_code == 409 and after.json()["code"] == "check_in_used"
    assert Entry.objects.get(pk=entries[0].pk).status == EntryStatus.CHECKED_IN


# --- the flight page ---------------------------------------------------------------------------------------------


def test_before_round_one_the_page_shows_who_is_here_and_the_director_ticks_in_one_tap(client, club, director_user):
    event, flight, entries = _deadline_flight(club, director_user, 3, 2)
    absent = entries[2]
    client.force_login(absent.player.user)  # a player sees the list, without the director's buttons
    page = client.get(flight.get_absolute_url()).content.decode()
    assert "2 of 3 checked in" in page and "not yet" in page and page.count("✓ checked in") == 2
    assert _url("entry-check-in", event, flight, absent.pk) not in page
    assert "Standings" not in page  # nobody has played: no table of nine zeros with the absent in it
    client.force_login(director_user)
    page = client.get(flight.get_absolute_url()).content.decode()
    assert _url("entry-check-in", event, flight, absent.pk) in page
    assert _url("entry-undo-check-in", event, flight, entries[0].pk) in page
    assert "1 player is not checked in" in page
    client.post(_url("entry-check-in", event, flight, absent.pk))
    assert "3 of 3 checked in" in client.get(flight.get_absolute_url()).content.decode()
    client.post(_url("entry-undo-check-in", event, flight, entries[0].pk))
    page = client.get(flight.get_absolute_url()).content.decode()
    assert "2 of 3 checked in" in page
    assert Entry.objects.get(pk=entries[0].pk).status == EntryStatus.REGISTERED


def test_pair_round_one_asks_first_listing_the_absent_then_withdraws_them(client, club, director_user):
    event, flight, entries = _deadline_flight(club, director_user, 5, 4)
    absent = entries[4]
    client.force_login(director_user)
    asked = client.post(_url("flight-start-round", event, flight))
    assert asked.status_code == 200
    page = asked.content.decode()
    assert absent.player.name in page and "Withdraw them and pair round 1" in page
    assert not any(e.player.name in page for e in entries[:4])
    _nothing_changed(flight)
    done = client.post(_url("flight-start-round", event, flight), {"confirm_no_shows": "1"})
    assert done.status_code == 302
    assert Entry.objects.get(pk=absent.pk).status == EntryStatus.WITHDRAWN
    assert Pairing.objects.filter(flight=flight, round=1).count() == 2


def test_the_knockout_list_counts_the_checked_in_and_undoes_a_tick_before_the_draw(client, club, director_user):
    event = make_event(club, director_user)
    main = services.add_flight(actor=director_user, event=event, name="Main")
    entries = [services.register(actor=director_user, flight=main, player=p) for p in members(club, 3)]
    services.check_in(actor=director_user, entry=entries[0])
    client.force_login(director_user)
    page = client.get(main.get_absolute_url()).content.decode()
    assert "1 of 3 checked in" in page and _url("entry-undo-check-in", event, main, entries[0].pk) in page
    client.post(_url("entry-undo-check-in", event, main, entries[0].pk))
    assert "0 of 3 checked in" in client.get(main.get_absolute_url()).content.decode()


@pytest.mark.parametrize("view", ["flight page", "confirmation"])
def test_the_check_in_pages_cost_the_same_queries_for_4_and_24_entries(client, club, director_user, view):
    counts = []
    client.force_login(director_user)
    for n in (4, 24):
        event, flight, _entries = _deadline_flight(club, director_user, n, n // 2)
        with CaptureQueriesContext(connection) as captured:
            if view == "flight page":
                response = client.get(flight.get_absolute_url())
            else:
                response = client.post(_url("flight-start-round", event, flight))
        assert response.status_code == 200
        counts.append(len(captured))
    assert counts[0] == counts[1]


# --- the home and the event page ---------------------------------------------------------------------------------


def test_home_check_in_names_the_event_and_flight_and_is_gone_once_round_one_is_paired(client, club, director_user):
    event, flight = swiss_event(club, director_user, 4)
    other_event, other = swiss_event(club, director_user, 2)
    mine = flight.entries.select_related("player__user").first()
    services.register(actor=director_user, flight=other, player=mine.player)
    client.force_login(mine.player.user)
    home = client.get("/").content.decode()
    assert f"Check in — {event.name}, Swiss" in home and f"Check in — {other_event.name}, Swiss" in home
    assert f"Check in — {event.name}, Swiss" in client.get(event.get_absolute_url()).content.decode()
    services.start_round(actor=director_user, flight=flight)
    home = client.get("/").content.decode()
    assert f"Check in — {event.name}, Swiss" not in home and f"Check in — {other_event.name}, Swiss" in home
    assert _url("entry-check-in", event, flight, mine.pk) not in client.get(event.get_absolute_url()).content.decode()


def test_home_offers_no_check_in_for_a_released_knockout(client, club, director_user):
    event, flights = drawn_event(club, director_user, 4)
    entry = flights["main"].entries.select_related("player__user").first()
    client.force_login(entry.player.user)
    assert event.name in client.get("/").content.decode()
    assert _url("entry-check-in", event, flights["main"], entry.pk) not in client.get("/").content.decode()
    assert (
        _url("entry-check-in", event, flights["main"], entry.pk)
        not in client.get(event.get_absolute_url()).content.decode()
    )


def test_the_check_in_pages_read_in_german(client, club, director_user):
    event, flight, entries = _deadline_flight(club, director_user, 3, 2)
    client.force_login(director_user)
    de = {"headers": {"accept-language": "de"}}
    with translation.override("en"):
        page = client.get(flight.get_absolute_url(), **de).content.decode()
        asked = client.post(_url("flight-start-round", event, flight), **de).content.decode()
        client.force_login(entries[2].player.user)
        home = client.get("/", **de).content.decode()
    assert "2 von 3 eingecheckt" in page and "noch nicht" in page and "Zurücknehmen" in page
    assert "Zurückziehen und Runde 1 paaren" in asked and "Dieser Spieler hat nicht eingecheckt" in asked
    assert f"Einchecken — {event.name}, Swiss" in home


def test_the_director_sets_the_check_in_deadline_on_a_round_flights_page(client, club, director_user):
    event, flight = swiss_event(club, director_user, 3)
    client.force_login(director_user)
    page = client.get(flight.get_absolute_url()).content.decode()
    assert "Check-in deadline and clock" in page and _url("flight-day-settings", event, flight) in page
    when = timezone.localtime() + datetime.timedelta(hours=2)
    client.post(
        _url("flight-day-settings", event, flight),
        {"check_in_deadline": when.strftime("%Y-%m-%dT%H:%M"), "clock_rule": "none"},
    )
    flight.refresh_from_db()
    assert flight.check_in_deadline is not None
    assert "round 1 pairs only the players checked in" in client.get(flight.get_absolute_url()).content.decode()


def test_the_home_page_costs_the_same_queries_for_one_and_four_check_ins(client, club, director_user):
    player = members(club, 1)[0]
    client.force_login(player.user)
    counts = []
    for _ in range(2):
        for _more in range(1 if not counts else 3):
            _event, flight = swiss_event(club, director_user, 1)
            services.register(actor=director_user, flight=flight, player=player)
        with CaptureQueriesContext(connection) as captured:
            home = client.get("/").content.decode()
        counts.append(len(captured))
    assert home.count("Check in — ") == 4
    assert counts[0] == counts[1]
