"""Knockout options through the services: a grand-final reset, a third-place match, seeding the top N, a
director's swap in a draft draw, re-entry limits, jackpot pods filled from a waiting list, satellites."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from base.api import Conflict
from tests.refusals import ValidationError
from tournaments import selectors, services
from tournaments.core.errors import BracketError
from tournaments.models import Entry, Flight, Slot

from .builders import drawn_event, make_event, members, play_all, ready_slots, win
from .test_queries import only_our_flight_callbacks  # noqa: F401 (a fixture)

pytestmark = pytest.mark.django_db


def _side_of_losers(slot) -> int:
    """In the first grand final side 1 is the losers' side's player: let them win it."""
    return 1 if slot.section == "g" and slot.round == 1 else 0


def test_reset_final_is_played_when_the_losers_side_wins_the_first(club, director_user):
    event, flights = drawn_event(club, director_user, 4, kind="double_elimination", grand_final_reset=True)
    de = flights["main"]
    play_all(director_user, [de], choose=_side_of_losers)
    first, second = Slot.objects.get(flight=de, section="g", round=1), Slot.objects.get(flight=de, section="g", round=2)
    assert first.winner_id == first.entry_b_id
    assert second.result == "played" and second.match is not None  # the winners' finalist lost once: a second final
    assert {second.entry_a_id, second.entry_b_id} == {first.entry_a_id, first.entry_b_id}
    de.refresh_from_db()
    assert de.status == "finished"
    places = sorted(p.place for p in selectors.flight_placements(flight=de))
    assert places == [1, 2, 3, 4]


def test_no_second_final_when_the_winners_side_wins_the_first(club, director_user):
    event, flights = drawn_event(club, director_user, 5, kind="double_elimination", grand_final_reset=True)
    de = flights["main"]
    play_all(director_user, [de])
    first, second = Slot.objects.get(flight=de, section="g", round=1), Slot.objects.get(flight=de, section="g", round=2)
    assert first.winner_id == first.entry_a_id
    assert second.result == "empty" and second.match is None  # not needed
    de.refresh_from_db()
    assert de.status == "finished"
    assert Entry.objects.get(pk=first.entry_a_id).place == 1
    assert Entry.objects.get(pk=first.entry_b_id).place == 2


def test_third_place_match_places_the_semi_final_losers_and_holds_the_flight_open(club, director_user):
    event, flights = drawn_event(
        club, director_user, 8, third_place=True, round_lengths={"1": 3, "3": 9}, final_length=11
    )
    main = flights["main"]
    play_all(director_user, [main], choose=lambda slot: 1 if slot.section == "t" else 0)
    third = Slot.objects.select_related("match").get(flight=main, section="t")
    assert third.result == "played"
    assert third.match.length == 9  # the final round's length, not round 1's, and not the final's own
    assert Entry.objects.get(pk=third.entry_b_id).place == 3
    assert Entry.objects.get(pk=third.entry_a_id).place == 4
    assert sorted(p.place for p in selectors.flight_placements(flight=main)) == [1, 2, 3, 4, 5, 5, 5, 5]
    main.refresh_from_db()
    assert main.status == "finished"


def test_the_flight_is_finished_only_when_the_final_and_the_third_place_match_are_decided(club, director_user):
    event, flights = drawn_event(club, director_user, 4, third_place=True)
    main = flights["main"]
    for slot in ready_slots(main):
        win(director_user, slot, 0)  # the semi-finals
    final = next(s for s in ready_slots(main) if s.section == "w")
    win(director_user, final, 0)
    main.refresh_from_db()
    assert main.status == "running"  # the third-place match is still to play
    third = ready_slots(main)[0]
    assert third.section == "t"
    win(director_user, third, 1)
    main.refresh_from_db()
    assert main.status == "finished"
    assert Entry.objects.get(pk=third.entry_b_id).place == 3


@pytest.mark.parametrize(
    ("kind", "options", "field"),
    [
        ("main", {"grand_final_reset": True}, "grand_final_reset"),
        ("double_elimination", {"third_place": True}, "third_place"),
        ("main", {"seed_top_n": 4}, "seed_top_n"),  # needs seeding by rating
        ("jackpot", {}, "pod_size"),
        ("jackpot", {"pod_size": 6}, "pod_size"),
        ("main", {"pod_size": 8}, "pod_size"),
    ],
)
def test_impossible_options_are_refused_with_what_would_work(club, director_user, kind, options, field):
    event = make_event(club, director_user)
    with pytest.raises(ValidationError) as refused:
        services.add_flight(actor=director_user, event=event, name="X", kind=kind, **options)
    assert field in refused.value.message_dict


def test_seed_top_n_seeds_only_the_best(club, director_user, monkeypatch):
    event = make_event(club, director_user)
    main = services.add_flight(actor=director_user, event=event, name="Main", seeding="rating", seed_top_n=2)
    players = members(club, 8)
    ratings = {p.pk: 2000 - i * 50 for i, p in enumerate(players)}
    monkeypatch.setattr("tournaments.services.draws.player_ratings", lambda player_ids: ratings)
    for player in players:
        services.register(actor=director_user, flight=main, player=player)
    services.draw_flight(actor=director_user, flight=main, seed=3)
    line = dict(Entry.objects.filter(flight=main).values_list("player_id", "draw_position"))
    assert line[players[0].pk] == 0 and line[players[1].pk] == 4  # seeds 1 and 2 in opposite halves
    services.draw_flight(actor=director_user, flight=main, seed=4)
    again = dict(Entry.objects.filter(flight=main).values_list("player_id", "draw_position"))
    assert again[players[0].pk] == 0 and again[players[1].pk] == 4
    assert any(again[p.pk] != line[p.pk] for p in players[2:])  # the rest is drawn at random
    assert sorted(Entry.objects.filter(flight=main, seed__isnull=False).values_list("seed", flat=True)) == [1, 2]


def _draft(club, director, n):
    """An event whose main of n players is drawn as a draft (seed 1); returns (event, main)."""
    event = make_event(club, director)
    main = services.add_flight(actor=director, event=event, name="Main")
    for player in members(club, n):
        services.register(actor=director, flight=main, player=player)
    services.draw_flight(actor=director, flight=main, seed=1)
    return event, main


def test_director_swaps_two_positions_in_a_draft_draw_and_not_after_confirming(club, director_user):
    _event, main = _draft(club, director_user, 6)
    before = dict(Entry.objects.filter(flight=main).values_list("draw_position", "pk"))
    taken = sorted(before)
    services.swap_draft_positions(actor=director_user, flight=main, a=taken[0], b=taken[-1])
    after = dict(Entry.objects.filter(flight=main).values_list("draw_position", "pk"))
    assert after[taken[0]] == before[taken[-1]] and after[taken[-1]] == before[taken[0]]
    bye, other_bye = (p for p in range(8) if p not in before)
    with pytest.raises(BracketError) as refused:  # a bye's opponent into the other bye: two byes would meet
        services.swap_draft_positions(actor=director_user, flight=main, a=bye ^ 1, b=other_bye)
    assert refused.value.code == "swap_two_byes"
    services.confirm_draw(actor=director_user, flight=main)
    with pytest.raises(Conflict):
        services.swap_draft_positions(actor=director_user, flight=main, a=taken[0], b=taken[1])


def test_reentry_limits_count_and_round(club, director_user):
    event, flights = drawn_event(club, director_user, 6, reentry_fee=5, max_reentries=2)
    main = flights["main"]
    slot = ready_slots(main)[0]
    win(director_user, slot, 0)
    loser = slot.entry_b.player
    services.update_flight(actor=director_user, flight=main, max_reentries=0)
    with pytest.raises(Conflict) as refused:
        services.reenter(actor=director_user, flight=main, player=loser)
    assert refused.value.get_codes() == "already_reentered"
    services.update_flight(actor=director_user, flight=main, max_reentries=2, reentry_until_round=2)
    entry = services.reenter(actor=director_user, flight=main, player=loser)
    assert (entry.is_reentry, entry.reentry_number, entry.fee) == (True, 1, 5)
    for slot in ready_slots(main):
        win(director_user, slot, 0)  # round 1 done
    win(director_user, next(s for s in ready_slots(main) if s.round == 2), 0)  # round 2 has begun
    other = Entry.objects.filter(flight=main, place__isnull=False, reentry_number=0).exclude(player=loser).first()
    with pytest.raises(Conflict) as refused:
        services.reenter(actor=director_user, flight=main, player=other.player)
    assert refused.value.get_codes() == "reentry_closed"


def _jackpot(club, director_user, pod_size=4, **kwargs):
    event = make_event(club, director_user)
    jackpot = services.add_flight(
        actor=director_user, event=event, name="Jackpot", kind="jackpot", pod_size=pod_size, entry_fee=20, **kwargs
    )
    return event, jackpot


def test_jackpot_pods_fill_from_the_waiting_list_and_each_pays_its_own_pool(club, director_user):
    event, jackpot = _jackpot(club, director_user)
    players = members(club, 9)
    entries = [services.register(actor=director_user, flight=jackpot, player=p) for p in players]
    pods = list(Flight.objects.filter(source=jackpot).order_by("pk"))
    assert [p.slug for p in pods] == ["jackpot-pod-1", "jackpot-pod-2"]
    assert [p.entries.count() for p in pods] == [4, 4]
    assert jackpot.entries.count() == 1  # the ninth waits
    assert entries[3].flight == pods[0] and entries[8].flight == jackpot
    assert all(p.draw_status == "released" and len(ready_slots(p)) == 2 for p in pods)
    play_all(director_user, [pods[0]])
    prizes = {row.flight.pk: row.payout for row in selectors.prize_list(event=event)}
    assert prizes[pods[0].pk].pool == 8000 and prizes[pods[0].pk].lines[0].holders  # 4 × 20.00, to its winner
    assert prizes[pods[1].pk].pool == 8000 and not prizes[pods[1].pk].lines[0].holders
    with pytest.raises(Conflict):
        services.register(actor=director_user, flight=jackpot, player=players[8])  # waiting already
    pods[0].refresh_from_db()
    event.refresh_from_db()
    assert pods[0].status == "finished" and event.status != "finished"  # the jackpot keeps taking sign-ups


def test_a_satellite_winner_gets_a_free_entry_to_the_main(club, director_user):
    event = make_event(club, director_user)
    main = services.add_flight(actor=director_user, event=event, name="Main", entry_fee=50)
    satellite = services.add_flight(
        actor=director_user, event=event, name="Satellite", kind="jackpot", pod_size=4, awards_entry_to=main
    )
    for player in members(club, 4):
        services.register(actor=director_user, flight=satellite, player=player)
    pod = Flight.objects.get(source=satellite)
    play_all(director_user, [pod])
    winner = Entry.objects.get(flight=pod, place=1)
    awarded = Entry.objects.get(flight=main, player=winner.player)
    assert (awarded.is_satellite, awarded.fee) == (True, 0)


def _one_result(director, flight) -> int:
    slot = ready_slots(flight)[0]
    with CaptureQueriesContext(connection) as captured:
        win(director, slot, 0)
    return len(captured)


@pytest.mark.usefixtures("only_our_flight_callbacks")
def test_queries_per_result_are_constant_with_the_options(club, director_user):
    """A result in a flight with a reset final or a third-place match, and in a pod, costs the same from 8 to
    256 entrants (pods: from a pod of 4 to one of 16)."""
    counts = {}
    for n in (8, 256):
        _e, flights = drawn_event(club, director_user, n, third_place=True)
        win(director_user, ready_slots(flights["main"])[0], 0)
        counts[("third", n)] = _one_result(director_user, flights["main"])
        _e, flights = drawn_event(club, director_user, n, kind="double_elimination", grand_final_reset=True)
        win(director_user, ready_slots(flights["main"])[0], 0)
        counts[("reset", n)] = _one_result(director_user, flights["main"])
    for size in (4, 16):
        _e, jackpot = _jackpot(club, director_user, pod_size=size)
        for player in members(club, size):
            services.register(actor=director_user, flight=jackpot, player=player)
        pod = Flight.objects.get(source=jackpot)
        win(director_user, ready_slots(pod)[0], 0)
        counts[("pod", size)] = _one_result(director_user, pod)
    print("queries per result:", counts)
    assert counts[("third", 8)] == counts[("third", 256)]
    assert counts[("reset", 8)] == counts[("reset", 256)]
    assert counts[("pod", 4)] == counts[("pod", 16)]


def test_bracket_page_shows_the_third_place_match_and_a_second_final_not_needed(club, director_user, client):
    _event, flights = drawn_event(club, director_user, 4, third_place=True)
    page = client.get(flights["main"].get_absolute_url()).content.decode()
    assert "Third-place match" in page
    _event, flights = drawn_event(club, director_user, 4, kind="double_elimination", grand_final_reset=True)
    play_all(director_user, [flights["main"]])
    page = client.get(flights["main"].get_absolute_url()).content.decode()
    assert "Grand final, second match (if needed)" in page and "not needed" in page


def test_director_swaps_places_on_the_draft_page(club, director_user, client):
    event, main = _draft(club, director_user, 4)
    before = dict(Entry.objects.filter(flight=main).values_list("draw_position", "player__name"))
    client.force_login(director_user)
    page = client.get(main.get_absolute_url()).content.decode()
    assert "Swap" in page
    url = f"/events/{club.slug}/{event.slug}/{main.slug}/draw/swap/"
    client.post(url, {"a": 1, "b": 4})
    after = dict(Entry.objects.filter(flight=main).values_list("draw_position", "player__name"))
    assert (after[0], after[3]) == (before[3], before[0])


def test_jackpot_page_lists_its_pods_and_offers_no_draw(club, director_user, client):
    event, jackpot = _jackpot(club, director_user)
    for player in members(club, 5):
        services.register(actor=director_user, flight=jackpot, player=player)
    client.force_login(director_user)
    page = client.get(jackpot.get_absolute_url()).content.decode()
    assert "Jackpot, pod 1" in page and "Pods of 4" in page
    assert "draw/draw/" not in page  # pods are drawn as they fill; the waiting list is never drawn


def test_the_options_through_the_api(club, director_user, api_as):
    api = api_as(director_user)
    event = make_event(club, director_user)
    url = f"/api/v1/events/{club.slug}/{event.slug}/flights/"
    refused = api.post(url, {"name": "Main", "grand_final_reset": True}, format="json")
    assert refused.status_code == 400 and "grand_final_reset" in str(refused.json())
    assert api.post(url, {"name": "J", "kind": "jackpot", "pod_size": 5}, format="json").status_code == 400
    main = api.post(url, {"name": "Main", "third_place": True, "max_reentries": 3}, format="json")
    assert main.status_code == 201 and main.json()["third_place"] and main.json()["max_reentries"] == 3
    jackpot = api.post(
        url, {"name": "Jackpot", "kind": "jackpot", "pod_size": 4, "awards_entry_to": "main"}, format="json"
    )
    assert jackpot.status_code == 201 and jackpot.json()["awards_entry_to"] == "main"
    assert api.post(url, {"name": "S", "awards_entry_to": "nope"}, format="json").status_code == 400
    for player in members(club, 4):
        assert api.post(url + "main/entries/", {"player": player.pk}, format="json").status_code == 201
    api.post(url + "main/draw/", {"seed": 5}, format="json")
    line = {e["draw_position"]: e["id"] for e in api.get(url + "main/").json()["entries"]}
    swapped = api.post(url + "main/draw/swap/", {"a": 0, "b": 3}, format="json")
    assert swapped.status_code == 200
    after = {e["draw_position"]: e["id"] for e in swapped.json()["entries"]}
    assert (after[0], after[3]) == (line[3], line[0])
    assert api.post(url + "main/draw/swap/", {"a": 0, "b": 9}, format="json").status_code == 400  # no place 9
    assert api.post(url + "main/draw/swap/", {"a": 0, "b": 2**63}, format="json").status_code == 400
    api.post(url + "main/draw/confirm/")
    patched = api.patch(url + "main/", {"third_place": False}, format="json")
    assert patched.status_code == 409  # the bracket's shape is fixed once the draw is confirmed
    assert api.patch(url + "main/", {"max_reentries": 0}, format="json").json()["max_reentries"] == 0
