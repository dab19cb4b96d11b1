"""A capped flight's waiting list (tournaments.services.waiting): joining when full, offers of a freed place in
list order, accepting, declining, expiry by the sweep, a director's move-up with its reason, closing the list, and
the cap's refusals. The property test plays any interleaving and checks the flight never overfills and the list
never skips anyone."""

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
from tournaments import selectors, services
from tournaments.models import OPEN_SPOT, EntryStatus, SpotStatus, WaitingMove, WaitingSpot

pytestmark = pytest.mark.django_db


@pytest.fixture
def capped():
    club = ClubFactory()
    director = MembershipFactory(club=club, role="director").player.user
    event = make_event(club, director)
    flight = services.add_flight(actor=director, event=event, name="Main", entry_fee=20)
    services.set_cap(actor=director, flight=flight, cap=2, offer_hours=12)
    flight.refresh_from_db()
    players = members(club, 6)
    return director, flight, players


@pytest.fixture
def capped_pairs():
    """A doubles flight capped at 2 pairs: six captains, each with their partner."""
    club = ClubFactory()
    director = MembershipFactory(club=club, role="director").player.user
    event = make_event(club, director)
    flight = services.add_flight(actor=director, event=event, name="Doubles", team_kind="doubles", entry_fee=20)
    services.set_cap(actor=director, flight=flight, cap=2, offer_hours=12)
    flight.refresh_from_db()
    everyone = members(club, 12)
    captains, partners = everyone[:6], everyone[6:]
    return director, flight, captains, dict(zip((c.pk for c in captains), partners, strict=True))


def sign_up(actor, flight, player, partner=None):
    """What the page does: enter, or join the waiting list when the flight is full (a pair: captain first)."""
    team = [player, partner] if partner is not None else None
    try:
        if team:
            return services.register_team(actor=actor, flight=flight, players=team)
        return services.register(actor=actor, flight=flight, player=player)
    except Conflict as refusal:
        if refusal.code != "flight_full":
            raise
        return services.join_waiting_list(actor=actor, flight=flight, player=player, players=team)


def spot_of(flight, player):
    return WaitingSpot.objects.filter(flight=flight, player=player).latest("pk")


def test_a_full_flight_refuses_an_entry_and_the_waiting_list_keeps_order(capped):
    director, flight, (a, b, c, d, *_rest) = capped
    sign_up(director, flight, a)
    sign_up(director, flight, b)
    with pytest.raises(Conflict) as refused:
        services.register(actor=director, flight=flight, player=c)
    assert refused.value.code == "flight_full"
    spot_c, spot_d = sign_up(director, flight, c), sign_up(director, flight, d)
    assert [selectors.own_spot(flight=flight, player=p).place for p in (c, d)] == [1, 2]
    assert spot_c.status == spot_d.status == SpotStatus.WAITING
    assert services.join_waiting_list(actor=director, flight=flight, player=c).pk == spot_c.pk  # joining again


def test_a_withdrawal_offers_the_place_to_the_next_who_is_told_and_accepts(capped):
    director, flight, (a, b, c, d, *_rest) = capped
    entry_a = sign_up(director, flight, a)
    sign_up(director, flight, b)
    sign_up(director, flight, c)
    sign_up(director, flight, d)
    services.withdraw(actor=director, entry=entry_a)
    spot = spot_of(flight, c)
    assert spot.status == SpotStatus.OFFERED
    assert spot.offer_expires_at - spot.offered_at == timedelta(hours=12)
    assert spot_of(flight, d).status == SpotStatus.WAITING
    told = Notification.objects.get(kind="place_offered", recipient=c.user)
    with override("en"):
        from notifications import kinds

        assert "12 hours" in kinds.personal(told.kind, told.params)
    entry = services.accept_place(actor=c.user, spot=spot)
    assert entry.player == c and entry.status == EntryStatus.REGISTERED
    assert services.accept_place(actor=c.user, spot=spot).pk == entry.pk  # accepted twice: taken once
    assert flight.entries.count() == 2


def test_a_decline_passes_the_offer_on_and_an_expired_offer_is_passed_on_when_refused(capped):
    director, flight, (a, b, c, d, e, _f) = capped
    entry_a = sign_up(director, flight, a)
    sign_up(director, flight, b)
    for p in (c, d, e):
        sign_up(director, flight, p)
    services.withdraw(actor=director, entry=entry_a)
    services.decline_place(actor=c.user, spot=spot_of(flight, c))
    assert spot_of(flight, c).status == SpotStatus.DECLINED
    assert spot_of(flight, d).status == SpotStatus.OFFERED
    WaitingSpot.objects.filter(pk=spot_of(flight, d).pk).update(offer_expires_at=timezone.now() - timedelta(1))
    with pytest.raises(Conflict) as late:
        services.accept_place(actor=d.user, spot=spot_of(flight, d))
    assert late.value.code == "offer_expired"
    # The refusal says the place went to the next on the list: it has (it waited for the sweep, the refusal's
    # transaction having undone the passing on).
    assert spot_of(flight, d).status == SpotStatus.EXPIRED
    assert spot_of(flight, e).status == SpotStatus.OFFERED
    assert services.sweep_offers() == 0


@pytest.mark.parametrize("key", ["", "late-accept-1"])
def test_an_expired_offer_accepted_through_the_api_is_refused_and_the_place_has_gone_on(capped, api_as, key):
    """With an Idempotency-Key the request's work runs in one transaction (base.idempotency): a refusal raised
    through it undid the passing on its message announced."""
    director, flight, (a, b, c, d, *_rest) = capped
    entry_a = sign_up(director, flight, a)
    for p in (b, c, d):
        sign_up(director, flight, p)
    services.withdraw(actor=director, entry=entry_a)
    WaitingSpot.objects.filter(pk=spot_of(flight, c).pk).update(offer_expires_at=timezone.now() - timedelta(1))
    base = f"/api/v1/events/{flight.event.club.slug}/{flight.event.slug}/flights/{flight.slug}/waiting-list/"
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
    with override("en"):
        late = api_as(c.user).post(base + f"{spot_of(flight, c).pk}/accept/", format="json", **headers)
    assert (late.status_code, late.json()["code"]) == (409, "offer_expired")
    assert "went to the next on the list" in late.json()["detail"]
    assert spot_of(flight, c).status == SpotStatus.EXPIRED
    assert spot_of(flight, d).status == SpotStatus.OFFERED
    assert not flight.entries.filter(player=c).exists()


def test_a_cap_below_the_entries_is_refused_saying_what_works_and_a_raise_offers_places(capped):
    director, flight, (a, b, c, d, *_rest) = capped
    for p in (a, b, c, d):
        sign_up(director, flight, p)
    with override("en"), pytest.raises(Invalid) as low:
        services.set_cap(actor=director, flight=flight, cap=1)
    assert "a cap of at least 2 works" in low.value.detail
    services.set_cap(actor=director, flight=flight, cap=3)
    assert spot_of(flight, c).status == SpotStatus.OFFERED
    assert spot_of(flight, d).status == SpotStatus.WAITING
    with override("en"), pytest.raises(Invalid) as held:
        services.set_cap(actor=director, flight=flight, cap=2)
    assert "1 places are offered" in held.value.detail


def test_a_director_moves_a_player_up_with_a_reason_and_closes_the_list(capped):
    director, flight, (a, b, c, d, e, _f) = capped
    entry_a = sign_up(director, flight, a)
    sign_up(director, flight, b)
    for p in (c, d, e):
        sign_up(director, flight, p)
    with pytest.raises(Invalid):
        services.move_up(actor=director, spot=spot_of(flight, e), to_place=1, reason=" ")
    services.move_up(actor=director, spot=spot_of(flight, e), to_place=1, reason="Club champion")
    assert [s.player for s in selectors.waiting_list(flight=flight).spots] == [e, c, d]
    move = WaitingMove.objects.get()
    assert (move.from_place, move.to_place, move.reason, move.moved_by) == (3, 1, "Club champion", director)
    services.withdraw(actor=director, entry=entry_a)
    assert spot_of(flight, e).status == SpotStatus.OFFERED
    services.close_waiting_list(actor=director, flight=flight)
    assert spot_of(flight, c).status == spot_of(flight, d).status == SpotStatus.CLOSED
    assert spot_of(flight, e).status == SpotStatus.OFFERED  # an offer made stands
    with pytest.raises(Conflict) as closed:
        services.join_waiting_list(actor=director, flight=flight, player=_f)
    assert closed.value.code in ("list_closed", "not_full")


def test_only_the_player_or_a_director_answers_a_spot(capped):
    from django.core.exceptions import PermissionDenied

    director, flight, (a, b, c, d, *_rest) = capped
    for p in (a, b, c):
        sign_up(director, flight, p)
    with pytest.raises(PermissionDenied):
        services.decline_place(actor=d.user, spot=spot_of(flight, c))
    with pytest.raises(PermissionDenied):
        services.move_up(actor=c.user, spot=spot_of(flight, c), to_place=1, reason="me")


def test_a_jackpot_has_no_cap():
    club = ClubFactory()
    director = MembershipFactory(club=club, role="director").player.user
    event = make_event(club, director)
    jackpot = services.add_flight(actor=director, event=event, name="Jackpot", kind="jackpot", pod_size=4)
    with pytest.raises(Invalid) as refused:
        services.set_cap(actor=director, flight=jackpot, cap=8)
    assert refused.value.field == "cap"


# --- any interleaving -----------------------------------------------------------------------------------------

PLAYERS = 6
steps = st.lists(
    st.one_of(
        st.tuples(st.just("sign_up"), st.integers(0, PLAYERS - 1)),
        st.tuples(st.just("withdraw"), st.integers(0, PLAYERS - 1)),
        st.tuples(st.just("accept"), st.integers(0, PLAYERS - 1)),
        st.tuples(st.just("decline"), st.integers(0, PLAYERS - 1)),
        st.tuples(st.just("expire"), st.integers(0, PLAYERS - 1)),
        st.tuples(st.just("raise"), st.integers(1, 2)),
        st.tuples(st.just("move"), st.integers(0, PLAYERS - 1)),
    ),
    max_size=24,
)


def _open(flight):
    return list(WaitingSpot.objects.filter(flight=flight, status__in=OPEN_SPOT).order_by("position"))


ANSWERS = ("withdraw", "accept", "decline", "expire")


def play_answer(director, flight, player, kind: str, spot) -> None:
    """One of the ANSWERS as a script plays it: the player's entry withdrawn, or their open spot (None: none)
    accepted, declined, or its offer run out and swept on."""
    if kind == "withdraw":
        entry = flight.entries.filter(player=player).exclude(status=EntryStatus.WITHDRAWN).first()
        if entry is not None:
            services.withdraw(actor=director, entry=entry)
    elif kind == "accept" and spot is not None:
        services.accept_place(actor=director, spot=spot)
    elif kind == "decline" and spot is not None:
        services.decline_place(actor=director, spot=spot)
    elif kind == "expire" and spot is not None and spot.status == SpotStatus.OFFERED:
        WaitingSpot.objects.filter(pk=spot.pk).update(offer_expires_at=timezone.now() - timedelta(seconds=1))
        services.sweep_offers()


def _play(director, flight, players, step, queue: list[int], partners=None) -> None:
    """One step; a refusal is part of the game (the state must stay right after it too). With `partners` (a
    captain's partner) the flight is played by pairs and each sign-up is the captain's pair."""
    kind, arg = step
    player = players[arg % len(players)]
    spot = WaitingSpot.objects.filter(flight=flight, player=player, status__in=OPEN_SPOT).first()
    if kind == "sign_up":
        result = sign_up(director, flight, player, (partners or {}).get(player.pk))
        if isinstance(result, WaitingSpot) and result.pk not in queue:
            queue.append(result.pk)
    elif kind in ANSWERS:
        play_answer(director, flight, player, kind, spot)
    elif kind == "raise":
        flight.refresh_from_db()
        services.set_cap(actor=director, flight=flight, cap=flight.cap + arg)
    elif kind == "move" and spot is not None and spot.status == SpotStatus.WAITING:
        order = [s.pk for s in _open(flight)]
        if order.index(spot.pk) > 0:
            services.move_up(actor=director, spot=spot, to_place=1, reason="a reason")
            queue.remove(spot.pk)
            first_open = next(pk for pk in queue if pk in order)
            queue.insert(queue.index(first_open), spot.pk)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(script=steps)
def test_any_interleaving_never_overfills_and_never_skips_anyone(capped, script):
    director, flight, players = capped
    _check_interleaving(director, flight, players, script)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(script=steps)
def test_any_interleaving_of_pairs_never_overfills_and_never_skips_anyone(capped_pairs, script):
    director, flight, captains, partners = capped_pairs
    _check_interleaving(director, flight, captains, script, partners)


def _check_interleaving(director, flight, players, script, partners=None) -> None:
    with transaction.atomic():
        queue: list[int] = []  # the spots in the order they joined, moved only as the recorded move-ups say
        for step in script:
            before = {s.pk: s.status for s in _open(flight)}
            try:
                with transaction.atomic():
                    _play(director, flight, players, step, queue, partners)
            except (Conflict, Invalid):
                pass
            flight.refresh_from_db()
            places = selectors.flight_places(flight=flight)
            open_spots = _open(flight)
            # never overfilled: the entries and the open offers fit the cap
            assert places.entered + places.offered <= flight.cap
            # no place stays free while someone waits
            if places.free:
                assert not [s for s in open_spots if s.status == SpotStatus.WAITING]
            # the list's order is the joining order, but for the recorded move-ups
            assert [s.pk for s in open_spots] == [pk for pk in queue if pk in {s.pk for s in open_spots}]
            # nobody skipped: the new offers are the first of those who were waiting, in the list's order
            was_waiting = [s for s in open_spots if before.get(s.pk, SpotStatus.WAITING) == SpotStatus.WAITING]
            newly = [s.pk for s in was_waiting if s.status == SpotStatus.OFFERED]
            assert newly == [s.pk for s in was_waiting[: len(newly)]]
            if partners:  # every pair entry has both its players, every pair waiting too
                entered = flight.entries.exclude(status=EntryStatus.WITHDRAWN)
                assert all(e.members.count() == 2 for e in entered)
                assert all(s.members.count() == 2 for s in open_spots)
        transaction.set_rollback(True)


def test_a_pair_waits_is_offered_the_place_and_accepting_enters_it_with_its_players(capped_pairs):
    director, flight, (a, b, c, d, *_rest), partner = capped_pairs
    entry_a = sign_up(director, flight, a, partner[a.pk])
    sign_up(director, flight, b, partner[b.pk])
    with pytest.raises(Conflict) as full:
        services.register_team(actor=director, flight=flight, players=[c, partner[c.pk]])
    assert full.value.code == "flight_full"
    spot = services.join_waiting_list(actor=director, flight=flight, players=[c, partner[c.pk]], team_name="The Primes")
    assert (spot.status, spot.team_name) == (SpotStatus.WAITING, "The Primes")
    assert [m.player for m in spot.members.order_by("order")] == [c, partner[c.pk]]
    services.withdraw(actor=director, entry=entry_a)
    spot.refresh_from_db()
    assert spot.status == SpotStatus.OFFERED
    assert Notification.objects.filter(kind="place_offered", recipient=c.user).exists()
    entry = services.accept_place(actor=c.user, spot=spot)
    assert (entry.player, entry.name) == (c, "The Primes")
    assert [m.player for m in entry.members.order_by("order")] == [c, partner[c.pk]]
    assert services.accept_place(actor=c.user, spot=spot).pk == entry.pk  # accepted twice: taken once
    assert flight.entries.exclude(status=EntryStatus.WITHDRAWN).count() == 2


def test_a_pair_with_a_player_already_entered_or_waiting_is_refused_saying_so(capped_pairs):
    director, flight, (a, b, c, d, e, _f), partner = capped_pairs
    sign_up(director, flight, a, partner[a.pk])
    sign_up(director, flight, b, partner[b.pk])
    sign_up(director, flight, c, partner[c.pk])
    with override("en"):
        with pytest.raises(Conflict) as entered:
            services.join_waiting_list(actor=director, flight=flight, players=[d, partner[a.pk]])
        assert entered.value.code == "already_entered"
        assert f"{partner[a.pk]} already plays for another entry of Doubles" in entered.value.detail
        with pytest.raises(Conflict) as waiting:
            services.join_waiting_list(actor=director, flight=flight, players=[d, partner[c.pk]])
        assert waiting.value.code == "already_waiting"
        assert f"{partner[c.pk]} already waits on the list of Doubles" in waiting.value.detail
        with pytest.raises(Invalid) as alone:
            services.join_waiting_list(actor=director, flight=flight, player=e)
        assert alone.value.field == "players"
    assert WaitingSpot.objects.filter(flight=flight, status__in=OPEN_SPOT).count() == 1


def test_a_player_puts_only_themself_on_a_pairs_list(capped_pairs):
    from django.core.exceptions import PermissionDenied

    director, flight, (a, b, c, *_rest), partner = capped_pairs
    sign_up(director, flight, a, partner[a.pk])
    sign_up(director, flight, b, partner[b.pk])
    with pytest.raises(PermissionDenied):  # as a pair entry: nobody is put on a pair without their say
        services.join_waiting_list(actor=c.user, flight=flight, players=[c, partner[c.pk]])


# --- the API and the pages ------------------------------------------------------------------------------------


def test_the_waiting_list_api(capped, api_as):
    director, flight, (a, b, c, d, *_rest) = capped
    base = f"/api/v1/events/{flight.event.club.slug}/{flight.event.slug}/flights/{flight.slug}/"
    boss = api_as(director)
    assert boss.put(base + "cap/", {"cap": 2, "offer_hours": 6}, format="json").json()["offer_hours"] == 6
    for p in (a, b):
        assert api_as(p.user).post(base + "entries/", {}, format="json").status_code == 201
    full = api_as(c.user).post(base + "entries/", {}, format="json")
    assert (full.status_code, full.json()["code"]) == (409, "flight_full")
    joined = api_as(c.user).post(base + "waiting-list/", {}, format="json", HTTP_IDEMPOTENCY_KEY="join-c")
    assert (joined.status_code, joined.json()["place"], joined.json()["status"]) == (201, 1, "waiting")
    api_as(d.user).post(base + "waiting-list/", {}, format="json")
    mine = api_as(d.user).get(base + "waiting-list/").json()
    assert [s["player"] for s in mine["spots"]] == [d.name] and mine["spots"][0]["place"] == 2
    assert [s["player"] for s in boss.get(base + "waiting-list/").json()["spots"]] == [c.name, d.name]
    spot_d = mine["spots"][0]["id"]
    refused = api_as(c.user).post(base + f"waiting-list/{spot_d}/move/", {"to_place": 1, "reason": "x"}, format="json")
    assert refused.status_code == 403
    moved = boss.post(base + f"waiting-list/{spot_d}/move/", {"to_place": 1, "reason": "Champion"}, format="json")
    assert moved.json()["place"] == 1
    low = boss.put(base + "cap/", {"cap": 1}, format="json")
    assert (low.status_code, low.json()["field"]) == (400, "cap")
    assert boss.put(base + "cap/", {"cap": 3}, format="json").status_code == 200
    accepted = api_as(d.user).post(base + f"waiting-list/{spot_d}/accept/", format="json")
    assert accepted.status_code == 201
    spot_c = spot_of(flight, c).pk
    assert api_as(c.user).post(base + f"waiting-list/{spot_c}/decline/", format="json").json()["status"] == "left"
    assert boss.post(base + "waiting-list/close/", format="json").json()["waiting_closed"] is True


def test_the_waiting_list_page_and_the_flight_page(capped, client):
    director, flight, (a, b, c, *_rest) = capped
    sign_up(director, flight, a)
    sign_up(director, flight, b)
    client.force_login(c.user)
    event = flight.event
    register = f"/events/{event.club.slug}/{event.slug}/{flight.slug}/register/"
    with override("en"):
        page = client.post(register, follow=True)
        assert "you are number 1 on its waiting list" in page.content.decode()
        flight_page = client.get(flight.get_absolute_url()).content.decode()
        assert "You are number 1 on the waiting list." in flight_page
        home = client.get("/").content.decode()
        assert "My waiting lists" in home


def test_a_player_dropped_from_a_swiss_frees_the_place_for_the_next_on_the_list(api_as):
    """The rounds' drop (API and page), not only a withdrawal, offers the freed place on (waiting.place_freed)."""
    club = ClubFactory()
    director = MembershipFactory(club=club, role="director").player.user
    event = make_event(club, director)
    flight = services.add_flight(actor=director, event=event, name="Swiss", format="swiss", rounds=3)
    services.set_cap(actor=director, flight=flight, cap=4, offer_hours=12)
    flight.refresh_from_db()
    players = members(club, 6)
    for player in players[:4]:
        services.register(actor=director, flight=flight, player=player)
    waiting_first = services.join_waiting_list(actor=director, flight=flight, player=players[4])
    services.join_waiting_list(actor=director, flight=flight, player=players[5])
    services.start_round(actor=director, flight=flight)
    dropped = flight.entries.get(player=players[0])
    answer = api_as(director).post(
        f"/api/v1/events/{event.club.slug}/{event.slug}/flights/{flight.slug}/entries/{dropped.pk}/drop/",
        {"score_remaining": True},
        format="json",
    )
    assert answer.status_code == 200, answer.content
    waiting_first.refresh_from_db()
    assert waiting_first.status == SpotStatus.OFFERED
    assert spot_of(flight, players[5]).status == SpotStatus.WAITING
    assert Notification.objects.filter(kind="place_offered", recipient=players[4].user).exists()
    entry = services.accept_place(actor=players[4].user, spot=waiting_first)
    assert entry.is_late and entry.status != EntryStatus.WITHDRAWN


def test_the_waiting_list_api_takes_a_pair(capped_pairs, api_as):
    director, flight, (a, b, c, d, *_rest), partner = capped_pairs
    entry_a = sign_up(director, flight, a, partner[a.pk])
    sign_up(director, flight, b, partner[b.pk])
    base = f"/api/v1/events/{flight.event.club.slug}/{flight.event.slug}/flights/{flight.slug}/waiting-list/"
    boss = api_as(director)
    pair = {"players": [c.pk, partner[c.pk].pk], "team_name": "The Primes"}
    joined = boss.post(base, pair, format="json", HTTP_IDEMPOTENCY_KEY="pair-c")
    assert joined.status_code == 201, joined.content
    assert (joined.json()["team_name"], joined.json()["members"]) == ("The Primes", [c.name, partner[c.pk].name])
    mine = api_as(c.user).get(base).json()["spots"]
    assert [(s["team_name"], s["place"]) for s in mine] == [("The Primes", 1)]
    alone = boss.post(base, {"player": d.pk}, format="json")
    assert (alone.status_code, alone.json()["field"]) == (400, "players")
    taken = boss.post(base, {"players": [d.pk, partner[c.pk].pk]}, format="json")
    assert (taken.status_code, taken.json()["code"]) == (409, "already_waiting")
    refused = api_as(d.user).post(base, {"players": [d.pk, partner[d.pk].pk]}, format="json")
    assert refused.status_code == 403  # a player puts only themself on a list, as on an entry
    services.withdraw(actor=director, entry=entry_a)
    accepted = api_as(c.user).post(base + f"{mine[0]['id']}/accept/", format="json")
    assert accepted.status_code == 201, accepted.content
    entry = flight.entries.get(pk=accepted.json()["id"])
    assert [m.player for m in entry.members.order_by("order")] == [c, partner[c.pk]]


def test_the_desk_form_puts_a_pair_on_the_list_of_a_full_flight_and_the_list_page_shows_it(capped_pairs, client):
    from django.urls import reverse

    director, flight, (a, b, c, *_rest), partner = capped_pairs
    sign_up(director, flight, a, partner[a.pk])
    sign_up(director, flight, b, partner[b.pk])
    event = flight.event
    client.force_login(director)
    url = reverse("tournaments:flight-register", args=[event.club.slug, event.slug, flight.slug])
    with override("en"):
        names = f"{c.name}\n{partner[c.pk].name}"
        page = client.post(url, {"names": names, "team_name": "The Primes"}, follow=True).content.decode()
        assert "Doubles is full: The Primes is number 1 on its waiting list." in page
        listing = client.get(f"/events/{event.club.slug}/{event.slug}/{flight.slug}/waiting-list/").content.decode()
    assert "1. The Primes" in listing and f"({c.name}, {partner[c.pk].name})" in listing
    spot = WaitingSpot.objects.get(flight=flight, status=SpotStatus.WAITING)
    assert [m.player for m in spot.members.order_by("order")] == [c, partner[c.pk]]
