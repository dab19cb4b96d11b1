"""An event's cap across its flights (Event.cap, tournaments.services.waiting): a sign-up past it joins its flight's
waiting list, a place freed anywhere in the event goes to the earliest waiting player of a flight with room, a
flight's own cap still binds, a cap below the entries is refused naming the lowest that works, and the API and the
director's dashboard set it. The property test plays any interleaving over three flights and checks neither cap is
ever passed and nobody is skipped."""

from datetime import timedelta

import pytest
from django.db import transaction
from django.utils import timezone
from django.utils.translation import override
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from base.errors import Conflict, Invalid
from notifications.models import Notification
from tests.clubs.factories import ClubFactory, MembershipFactory
from tests.tournaments.builders import make_event, members
from tests.tournaments.test_waiting_list import ANSWERS, play_answer
from tournaments import selectors, services
from tournaments.models import OPEN_SPOT, EntryStatus, SpotStatus, WaitingSpot

pytestmark = pytest.mark.django_db


@pytest.fixture
def night():
    """A club night with two flights (Main and Second) and a jackpot, capped at 3 entries across the event."""
    club = ClubFactory()
    director = MembershipFactory(club=club, role="director").player.user
    event = make_event(club, director, name="Club night")
    main = services.add_flight(actor=director, event=event, name="Main")
    second = services.add_flight(actor=director, event=event, name="Second")
    services.set_event_cap(actor=director, event=event, cap=3)
    event.refresh_from_db()
    main.refresh_from_db()
    second.refresh_from_db()
    return director, event, main, second, members(club, 8)


def sign_up(director, flight, player):
    return services.sign_up(actor=director, flight=flight, player=player)


def status_of(flight, player):
    return WaitingSpot.objects.filter(flight=flight, player=player).latest("pk").status


def test_a_sign_up_past_the_event_cap_joins_its_flights_waiting_list_and_a_jackpot_does_not_count(night):
    director, event, main, second, (a, b, c, d, e, f, *_rest) = night
    sign_up(director, main, a)
    sign_up(director, main, b)
    sign_up(director, second, c)
    with override("en"), pytest.raises(Conflict) as full:
        services.register(actor=director, flight=second, player=d)
    assert full.value.code == "flight_full"
    assert "Club night is full (3 entries across its flights)" in full.value.detail
    assert isinstance(sign_up(director, second, d), WaitingSpot)
    assert isinstance(sign_up(director, main, e), WaitingSpot)
    assert [status_of(second, d), status_of(main, e)] == [SpotStatus.WAITING, SpotStatus.WAITING]
    jackpot = services.add_flight(actor=director, event=event, name="Jackpot", kind="jackpot", pod_size=4)
    services.register(actor=director, flight=jackpot, player=f)  # a jackpot is played besides: not counted
    assert jackpot.entries.filter(player=f).exists()
    assert selectors.event_places(event=event).entered == 3


def test_a_withdrawal_in_one_flight_offers_the_place_to_the_earliest_waiting_in_another(night):
    director, event, main, second, (a, b, c, d, e, *_rest) = night
    entry_a = sign_up(director, main, a)
    sign_up(director, main, b)
    sign_up(director, second, c)
    sign_up(director, second, d)  # waits first
    sign_up(director, main, e)  # waits second, on Main's own list
    services.withdraw(actor=director, entry=entry_a)
    assert status_of(second, d) == SpotStatus.OFFERED
    assert status_of(main, e) == SpotStatus.WAITING
    assert Notification.objects.filter(kind="place_offered", recipient=d.user).exists()
    entry = services.accept_place(actor=d.user, spot=WaitingSpot.objects.get(flight=second, player=d))
    assert (entry.flight, entry.player) == (second, d)
    assert selectors.event_places(event=event).entered == 3


def test_a_flights_own_cap_still_binds_inside_a_capped_event(night):
    director, event, main, second, (a, b, c, d, e, *_rest) = night
    services.set_cap(actor=director, flight=main, cap=2)
    main.refresh_from_db()
    sign_up(director, main, a)
    sign_up(director, main, b)
    assert isinstance(sign_up(director, main, c), WaitingSpot)  # Main is full, the event is not
    entry_d = sign_up(director, second, d)
    assert entry_d.flight == second and entry_d.status == EntryStatus.REGISTERED
    assert isinstance(sign_up(director, second, e), WaitingSpot)  # now the event is full
    services.withdraw(actor=director, entry=entry_d)
    assert status_of(main, c) == SpotStatus.WAITING  # first in line, but Main has no room of its own
    assert status_of(second, e) == SpotStatus.OFFERED


def test_an_event_cap_below_the_entries_is_refused_saying_what_works_and_a_raise_offers_places(night):
    director, event, main, second, (a, b, c, d, e, *_rest) = night
    for flight, player in ((main, a), (main, b), (second, c), (second, d), (main, e)):
        sign_up(director, flight, player)
    with override("en"), pytest.raises(Invalid) as low:
        services.set_event_cap(actor=director, event=event, cap=2)
    assert "an event cap of at least 3 works" in low.value.detail
    event.refresh_from_db()
    assert event.cap == 3  # nothing written
    services.set_event_cap(actor=director, event=event, cap=4)
    assert [status_of(second, d), status_of(main, e)] == [SpotStatus.OFFERED, SpotStatus.WAITING]
    with override("en"), pytest.raises(Invalid) as held:
        services.set_event_cap(actor=director, event=event, cap=3)
    assert "1 places are offered" in held.value.detail
    services.set_event_cap(actor=director, event=event, cap=None)  # no cap: everyone waiting is offered a place
    assert status_of(main, e) == SpotStatus.OFFERED


def test_an_expired_offer_passes_to_the_next_in_another_flight_and_a_player_may_not_set_the_cap(night):
    from django.core.exceptions import PermissionDenied

    director, event, main, second, (a, b, c, d, e, *_rest) = night
    entry_a = sign_up(director, main, a)
    for flight, player in ((main, b), (second, c), (main, d), (second, e)):
        sign_up(director, flight, player)
    services.withdraw(actor=director, entry=entry_a)
    assert status_of(main, d) == SpotStatus.OFFERED
    WaitingSpot.objects.filter(player=d).update(offer_expires_at=timezone.now() - timedelta(minutes=1))
    assert services.sweep_offers() == 1
    assert [status_of(main, d), status_of(second, e)] == [SpotStatus.EXPIRED, SpotStatus.OFFERED]
    with pytest.raises(PermissionDenied):
        services.set_event_cap(actor=a.user, event=event, cap=10)


def test_a_drop_from_a_swiss_offers_the_events_place_after_its_commit(
    night, api_as, django_capture_on_commit_callbacks
):
    """A drop holds its flight without the event (the lock order puts the event first): the place is handed on
    after the commit, in a transaction that locks the event first."""
    director, event, main, second, players = night
    swiss = services.add_flight(actor=director, event=event, name="Swiss", format="swiss", rounds=3)
    services.set_event_cap(actor=director, event=event, cap=4)
    for player in players[:4]:
        sign_up(director, swiss, player)
    waiting = sign_up(director, main, players[4])
    services.start_round(actor=director, flight=swiss)
    dropped = swiss.entries.get(player=players[0])
    with django_capture_on_commit_callbacks(execute=True):
        answer = api_as(director).post(
            f"/api/v1/events/{event.club.slug}/{event.slug}/flights/{swiss.slug}/entries/{dropped.pk}/drop/",
            {"score_remaining": True},
            format="json",
        )
    assert answer.status_code == 200, answer.content
    waiting.refresh_from_db()
    assert waiting.status == SpotStatus.OFFERED


# --- the API and the pages ------------------------------------------------------------------------------------


def test_the_event_cap_api_and_the_waiting_list_api_show_the_events_places(night, api_as):
    director, event, main, second, (a, b, c, d, *_rest) = night
    url = f"/api/v1/events/{event.club.slug}/{event.slug}/cap/"
    refused = api_as(a.user).put(url, {"cap": 10}, format="json")
    assert refused.status_code == 403
    for flight, player in ((main, a), (main, b), (second, c), (second, d)):
        sign_up(director, flight, player)
    boss = api_as(director)
    low = boss.put(url, {"cap": 2}, format="json")
    assert (low.status_code, low.json()["field"]) == (400, "cap")
    listed = api_as(d.user).get(f"/api/v1/events/{event.club.slug}/{event.slug}/flights/{second.slug}/waiting-list/")
    assert listed.json()["event"] == {"cap": 3, "entered": 3, "offered": 0, "full": True}
    assert listed.json()["spots"][0]["place"] == 1
    raised = boss.put(url, {"cap": 4}, format="json")
    assert raised.status_code == 200
    assert raised.json() == {"cap": 4, "places": {"cap": 4, "entered": 3, "offered": 1, "full": True}}
    assert boss.get(f"/api/v1/events/{event.club.slug}/{event.slug}/").json()["cap"] == 4


def test_the_dashboard_sets_the_event_cap_and_the_waiting_list_page_says_the_event_is_full(night, client):
    director, event, main, second, (a, b, c, d, *_rest) = night
    for flight, player in ((main, a), (main, b), (second, c)):
        sign_up(director, flight, player)
    client.force_login(director)
    with override("en"):
        low = client.post(f"/events/{event.club.slug}/{event.slug}/cap/", {"cap": "2"}, follow=True)
        assert "an event cap of at least 3 works" in low.content.decode()
        event.refresh_from_db()
        assert event.cap == 3
        dashboard = client.get(f"/events/{event.club.slug}/{event.slug}/dashboard/").content.decode()
        assert "event full: 3 of 3" in dashboard
        client.force_login(d.user)
        page = client.get(f"/events/{event.club.slug}/{event.slug}/{second.slug}/waiting-list/").content.decode()
        assert "Club night is full: 3 of 3" in page
        assert "Join the waiting list" in page
        client.force_login(director)
        client.post(f"/events/{event.club.slug}/{event.slug}/cap/", {"cap": ""}, follow=True)
    event.refresh_from_db()
    assert event.cap is None


# --- any interleaving -----------------------------------------------------------------------------------------

PLAYERS = 7
FLIGHTS = 3
sign_ups = st.tuples(st.just("sign_up"), st.integers(0, PLAYERS - 1), st.integers(0, FLIGHTS - 1))
steps = st.lists(
    st.one_of(
        sign_ups,
        sign_ups,  # as likely as all the answers together: the lists fill and the event is full early
        sign_ups,
        st.tuples(st.just("withdraw"), st.integers(0, PLAYERS - 1), st.integers(0, FLIGHTS - 1)),
        st.tuples(st.just("accept"), st.integers(0, PLAYERS - 1), st.integers(0, FLIGHTS - 1)),
        st.tuples(st.just("decline"), st.integers(0, PLAYERS - 1), st.integers(0, FLIGHTS - 1)),
        st.tuples(st.just("expire"), st.integers(0, PLAYERS - 1), st.integers(0, FLIGHTS - 1)),
        st.tuples(st.just("raise"), st.integers(1, 2), st.just(0)),
    ),
    max_size=24,
)


# Each script starts from a full event with someone waiting on every list: Flight 3 full by its own cap (one
# waiting there while the event had room), then the event full (one waiting on Flight 2, one on Flight 1).
FULL = [("sign_up", 0, 2), ("sign_up", 1, 2), ("sign_up", 2, 0), ("sign_up", 3, 1), ("sign_up", 4, 0)]


@pytest.fixture
def three_flights():
    """An event capped at 2 over three flights, the third with its own cap of 1."""
    club = ClubFactory()
    director = MembershipFactory(club=club, role="director").player.user
    event = make_event(club, director)
    flights = [services.add_flight(actor=director, event=event, name=f"Flight {n}") for n in (1, 2, 3)]
    services.set_cap(actor=director, flight=flights[2], cap=1)
    services.set_event_cap(actor=director, event=event, cap=2)
    event.refresh_from_db()
    return director, event, flights, members(club, PLAYERS)


def _play(director, event, flights, players, step) -> None:
    kind, arg, which = step
    flight, player = flights[which], players[arg % len(players)]
    spot = WaitingSpot.objects.filter(flight__event=event, player=player, status__in=OPEN_SPOT).order_by("pk").first()
    if kind == "sign_up":
        sign_up(director, flight, player)
    elif kind in ANSWERS:
        play_answer(director, flight, player, kind, spot)
    elif kind == "raise":
        event.refresh_from_db()
        services.set_event_cap(actor=director, event=event, cap=event.cap + arg)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(script=steps)
def test_any_interleaving_over_three_flights_never_passes_a_cap_and_never_skips_anyone(three_flights, script):
    director, event, flights, players = three_flights
    with transaction.atomic():
        for step in [*FULL, *script]:
            before = {s.pk: s.status for s in WaitingSpot.objects.filter(flight__event=event, status__in=OPEN_SPOT)}
            try:
                with transaction.atomic():
                    _play(director, event, flights, players, step)
            except (Conflict, Invalid):
                pass
            event.refresh_from_db()
            overall = selectors.event_places(event=event)
            assert overall.held <= event.cap  # the entries and the open offers fit the event's cap
            rooms = {}
            for flight in flights:
                flight.refresh_from_db()
                own = selectors.flight_places(flight=flight)
                if flight.cap is not None:
                    assert own.held <= flight.cap
                rooms[flight.pk] = own.free is None or own.free > 0
            waiting = list(
                WaitingSpot.objects.filter(flight__event=event, status=SpotStatus.WAITING).order_by("joined_at", "pk")
            )
            # no place of the event stays free while someone waits on a flight with room
            if overall.free:
                assert not [s for s in waiting if rooms[s.flight_id]]
            # nobody skipped: whoever was offered a place now joined before everyone still waiting on a list with
            # room (the lists keep their joining order here: no move-ups)
            newly = [
                s
                for s in WaitingSpot.objects.filter(pk__in=before, status=SpotStatus.OFFERED)
                if before[s.pk] == SpotStatus.WAITING
            ]
            for offered in newly:
                assert not [
                    s
                    for s in waiting
                    if (s.joined_at, s.pk) < (offered.joined_at, offered.pk)
                    and (rooms[s.flight_id] or s.flight_id == offered.flight_id)
                ]
        transaction.set_rollback(True)
