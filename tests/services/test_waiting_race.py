"""Waiting-list offers answered at the same instant, on PostgreSQL. An offer accepted twice at once (two phones,
or the player and a director) makes one entry; two players accepting the last place at once never overfill the
flight; two sign-ups to different flights of an event with one place left enter one player, and the other waits.
Every answer runs under the event's and the flight's row locks (tournaments.services.waiting, `lock_places`); the
controls take the lock away and show the race then happens."""

from datetime import timedelta

import pytest
from django.utils import timezone

from tests.clubs.factories import ClubFactory, MembershipFactory
from tests.services.concurrency import post_at_once, run_at_once, then_meet, then_wait
from tests.tournaments.builders import make_event, members
from tournaments import services
from tournaments.models import Entry, Flight, SpotStatus, WaitingSpot
from tournaments.services import entries as entries_services
from tournaments.services import waiting as waiting_services
from tournaments.services.common import lock_flight

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def offered():
    """A flight capped at 2, full, with c and d waiting; one withdrawal offered c the freed place."""
    club = ClubFactory()
    director = MembershipFactory(club=club, role="director").player.user
    event = make_event(club, director)
    flight = services.add_flight(actor=director, event=event, name="Main", entry_fee=20)
    services.set_cap(actor=director, flight=flight, cap=2)
    a, b, c, d = members(club, 4)
    first = services.register(actor=director, flight=flight, player=a)
    services.register(actor=director, flight=flight, player=b)
    for player in (c, d):
        services.join_waiting_list(actor=director, flight=flight, player=player)
    services.withdraw(actor=director, entry=first)
    base = f"/api/v1/events/{club.slug}/{event.slug}/flights/{flight.slug}/waiting-list/"
    return director, flight, (c, d), base


def _unlocked(flight):
    return Flight.objects.select_related("event__club").get(pk=flight.pk)


def test_an_offer_accepted_twice_at_once_is_taken_once(offered, monkeypatch):
    director, flight, (c, _d), base = offered
    spot = WaitingSpot.objects.get(flight=flight, player=c, status=SpotStatus.OFFERED)
    monkeypatch.setattr(waiting_services, "lock_places", then_wait(waiting_services.lock_places))
    url = f"{base}{spot.pk}/accept/"
    answers = post_at_once((c.user, url, {}), (director, url, {}))
    assert [status for status, _body in answers] == [201, 201]
    assert answers[0][1]["id"] == answers[1][1]["id"]  # the same entry, made once
    assert Entry.objects.filter(flight=flight, player=c).count() == 1
    assert Entry.objects.filter(flight=flight).count() == 2


def test_control_without_the_lock_the_second_accept_collides(offered, monkeypatch):
    director, flight, (c, _d), base = offered
    spot = WaitingSpot.objects.get(flight=flight, player=c, status=SpotStatus.OFFERED)
    monkeypatch.setattr(waiting_services, "lock_places", then_meet(_unlocked))
    url = f"{base}{spot.pk}/accept/"
    try:
        statuses = sorted(status for status, _body in post_at_once((c.user, url, {}), (director, url, {})))
    except Exception:  # noqa: BLE001 - the database's error raised through the test client
        statuses = ["raised"]
    # both read the offer open and made the entry: the unique index refuses the second (a 409 or an error), where
    # under the lock the second answers the entry the first made
    assert statuses != [201, 201]
    assert Entry.objects.filter(flight=flight, player=c).count() == 1


def _two_offers_for_one_place(flight, d):
    """d offered a place too, beyond what the cap leaves (as if a stale offer stood): the accept's own check under
    the lock is then all that keeps the flight to its cap."""
    now = timezone.now()
    WaitingSpot.objects.filter(flight=flight, player=d).update(
        status=SpotStatus.OFFERED, offered_at=now, offer_expires_at=now + timedelta(hours=1)
    )


def test_two_players_accepting_the_last_place_at_once_never_overfill(offered, monkeypatch):
    _director, flight, (c, d), base = offered
    _two_offers_for_one_place(flight, d)
    spots = {s.player_id: s.pk for s in WaitingSpot.objects.filter(flight=flight, status=SpotStatus.OFFERED)}
    monkeypatch.setattr(waiting_services, "lock_places", then_wait(waiting_services.lock_places))
    answers = post_at_once(*((p.user, f"{base}{spots[p.pk]}/accept/", {}) for p in (c, d)))
    assert sorted(status for status, _body in answers) == [201, 409]
    assert next(body for status, body in answers if status == 409)["code"] == "flight_full"
    assert Entry.objects.filter(flight=flight).count() == 2  # the cap


def test_control_without_the_lock_both_take_the_last_place(offered, monkeypatch):
    _director, flight, (c, d), base = offered
    _two_offers_for_one_place(flight, d)
    spots = {s.player_id: s.pk for s in WaitingSpot.objects.filter(flight=flight, status=SpotStatus.OFFERED)}
    monkeypatch.setattr(waiting_services, "lock_places", then_meet(_unlocked))
    answers = post_at_once(*((p.user, f"{base}{spots[p.pk]}/accept/", {}) for p in (c, d)))
    assert [status for status, _body in answers] == [201, 201]
    assert Entry.objects.filter(flight=flight).count() == 3  # overfilled: what the lock prevents


@pytest.fixture
def full_pairs():
    """A doubles flight capped at 1 pair, full; c, d and their shared partner x want to wait."""
    club = ClubFactory()
    director = MembershipFactory(club=club, role="director").player.user
    event = make_event(club, director)
    flight = services.add_flight(actor=director, event=event, name="Doubles", team_kind="doubles")
    services.set_cap(actor=director, flight=flight, cap=1)
    a, b, c, d, x = members(club, 5)
    services.register_team(actor=director, flight=flight, players=[a, b])
    base = f"/api/v1/events/{club.slug}/{event.slug}/flights/{flight.slug}/waiting-list/"
    return director, flight, (c, d, x), base


def test_two_pairs_with_one_player_joining_at_once_put_that_player_on_the_list_once(full_pairs, monkeypatch):
    director, flight, (c, d, x), base = full_pairs
    monkeypatch.setattr(waiting_services, "lock_places", then_wait(waiting_services.lock_places))
    answers = post_at_once((director, base, {"players": [c.pk, x.pk]}), (director, base, {"players": [d.pk, x.pk]}))
    assert sorted(status for status, _body in answers) == [201, 409]
    assert next(body for status, body in answers if status == 409)["code"] == "already_waiting"
    assert WaitingSpot.objects.filter(flight=flight, members__player=x).count() == 1


def test_control_without_the_lock_both_pairs_join_with_the_same_player(full_pairs, monkeypatch):
    director, flight, (c, d, x), base = full_pairs
    monkeypatch.setattr(waiting_services, "lock_places", then_meet(_unlocked))
    try:
        answers = post_at_once((director, base, {"players": [c.pk, x.pk]}), (director, base, {"players": [d.pk, x.pk]}))
        codes = [body.get("code") if isinstance(body, dict) else None for _status, body in answers]
    except Exception:  # noqa: BLE001 - the database's error raised through the test client (the list's position)
        codes = ["raised"]
    # both read x free and the same end of the list: the rule naming x refuses neither (the second fails on the
    # list's unique position instead, or both join), where under the lock the second is refused with its reason
    assert "already_waiting" not in codes


@pytest.fixture
def one_place_left():
    """An event capped at 3 across Main and Second, with 2 entered: one place left; c and d want it."""
    club = ClubFactory()
    director = MembershipFactory(club=club, role="director").player.user
    event = make_event(club, director)
    main = services.add_flight(actor=director, event=event, name="Main")
    second = services.add_flight(actor=director, event=event, name="Second")
    services.set_event_cap(actor=director, event=event, cap=3)
    a, b, c, d = members(club, 4)
    services.register(actor=director, flight=main, player=a)
    services.register(actor=director, flight=second, player=b)
    return director, event, (main, second), (c, d)


def _sign_ups_at_once(director, flights, players) -> list:
    return run_at_once(
        *(
            (lambda f=flight, p=player: services.sign_up(actor=director, flight=f, player=p))
            for flight, player in zip(flights, players, strict=True)
        )
    )


def test_two_sign_ups_to_different_flights_for_the_events_last_place_enter_one_the_other_waits(
    one_place_left, monkeypatch
):
    director, event, flights, players = one_place_left
    monkeypatch.setattr(entries_services, "lock_places", then_wait(entries_services.lock_places))
    results = _sign_ups_at_once(director, flights, players)
    assert sorted(type(r).__name__ for r in results) == ["Entry", "WaitingSpot"]
    assert Entry.objects.filter(flight__event=event).count() == 3  # the event's cap
    assert WaitingSpot.objects.get(flight__event=event).status == SpotStatus.WAITING


def test_control_without_the_event_lock_both_take_the_events_last_place(one_place_left, monkeypatch):
    director, event, flights, players = one_place_left
    monkeypatch.setattr(entries_services, "lock_places", lock_flight)  # each flight's lock alone
    # Both have found room before either writes: meeting after the lock instead let a busy machine's slower
    # sign-up find room only after the other's entry had committed (READ COMMITTED), and hid the race (CI).
    monkeypatch.setattr(waiting_services, "refuse_if_full", then_meet(waiting_services.refuse_if_full))
    results = _sign_ups_at_once(director, flights, players)
    assert [type(r).__name__ for r in results] == ["Entry", "Entry"]
    assert Entry.objects.filter(flight__event=event).count() == 4  # past the cap: what the event lock prevents
