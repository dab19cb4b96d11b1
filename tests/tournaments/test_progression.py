"""The bracket moves with confirmed results: winners advance, losers go where the feed rule sends them, byes,
walkovers and double forfeits propagate, places are stored, the event finishes."""

import pytest

from games.matchplay import services as match_services
from games.models.matches import Match
from tournaments import hooks, selectors, services
from tournaments.models import Entry, Slot

from .builders import drawn_event, play_all, ready_slots, started_second_round, win

pytestmark = pytest.mark.django_db


def test_release_creates_round_one_matches_and_moves_byes_on(club, director_user):
    event, flights = drawn_event(club, director_user, 6, consolation={})
    main = flights["main"]
    assert main.size == 8
    assert len(ready_slots(main)) == 2  # 6 players: two byes, two round-1 matches
    byes = Slot.objects.filter(flight=main, round=1, result="bye")
    assert byes.count() == 2
    match = ready_slots(main)[0].match
    assert (match.context, match.club, match.is_public, match.length) == ("tournament", club, True, 7)
    # bye holders wait in round 2 and have had one bye
    assert Entry.objects.filter(flight=main, had_bye=True).count() == 2


def test_winner_advances_loser_goes_to_consolation_and_places_are_stored(club, director_user):
    event, flights = drawn_event(club, director_user, 8, consolation={}, final_length=9)
    main, cons = flights["main"], flights["cons"]
    changed = []
    hooks.on_flight_results_changed(changed.append)
    try:
        first = ready_slots(main)[0]
        win(director_user, first, 0)
    finally:
        hooks.remove_flight_callback(changed.append)
    assert changed and changed[0].pk == main.pk
    first.refresh_from_db()
    assert first.result == "played" and first.winner_id == first.entry_a_id
    nxt = Slot.objects.get(flight=main, round=2, position=0)
    assert nxt.entry_a_id == first.entry_a_id
    fed = Entry.objects.get(flight=cons, player_id=first.entry_b.player_id)
    assert Slot.objects.get(flight=cons, round=1, position=0).entry_a_id == fed.pk
    play_all(director_user, [main, cons])
    event.refresh_from_db()
    assert event.status == "finished"
    places = sorted(p.place for p in selectors.flight_placements(flight=main))
    assert places == [1, 2, 3, 3, 5, 5, 5, 5]
    assert sorted(p.place for p in selectors.flight_placements(flight=cons)) == [1, 2, 3, 3]
    final = Slot.objects.get(flight=main, round=3)
    assert final.match.length == 9


def test_a_bye_holder_who_loses_their_first_played_match_feeds_the_consolation(club, director_user):
    event, flights = drawn_event(club, director_user, 6, consolation={})
    main, cons = flights["main"], flights["cons"]
    play_all(director_user, [main], choose=lambda slot: 1 if slot.round == 2 else 0)
    bye_holders = set(Entry.objects.filter(flight=main, had_bye=True).values_list("player_id", flat=True))
    r2_losers = set(Slot.objects.filter(flight=main, round=2).values_list("loser__player_id", flat=True))
    r1_losers = set(
        Slot.objects.filter(flight=main, round=1, result="played").values_list("loser__player_id", flat=True)
    )
    expected = r1_losers | (bye_holders & r2_losers)
    assert set(cons.entries.values_list("player_id", flat=True)) == expected


def test_walkover_and_double_forfeit_propagate(club, director_user):
    event, flights = drawn_event(club, director_user, 8, consolation={})
    main, cons = flights["main"], flights["cons"]
    a, b = ready_slots(main)[:2]
    win(director_user, a, 1, outcome="walkover")
    match_services.submit_report(
        actor=director_user, match=b.match, method="no_play", outcome="double_forfeit", as_director=True
    )
    r2 = Slot.objects.get(flight=main, round=2, position=0)
    # the walkover winner goes through; the double forfeit leaves nobody, so the walkover winner has a bye
    assert r2.result == "bye" and r2.winner_id == a.entry_b_id
    assert Slot.objects.get(flight=main, round=3, position=0).entry_a_id == a.entry_b_id
    assert not cons.entries.exists()  # nobody who failed to play is sent to the consolation
    a.refresh_from_db(), b.refresh_from_db()
    assert Entry.objects.get(pk=a.entry_a_id).place == 5
    assert Entry.objects.get(pk=b.entry_a_id).place == Entry.objects.get(pk=b.entry_b_id).place == 5


def test_progressive_consolation_takes_losers_of_the_first_two_rounds(club, director_user):
    event, flights = drawn_event(club, director_user, 16, consolation={"feed_rule": "progressive", "feed_rounds": 2})
    main, cons = flights["main"], flights["cons"]
    play_all(director_user, [main, cons])
    losers = set(Slot.objects.filter(flight=main, round__lte=2).values_list("loser__player_id", flat=True))
    assert set(cons.entries.values_list("player_id", flat=True)) == losers
    assert cons.entries.count() == 12
    assert cons.entries.filter(place=1).count() == 1


def test_fresh_draw_last_chance_waits_for_every_first_played_consolation_match(club, director_user):
    event, flights = drawn_event(
        club, director_user, 16, consolation={}, last_chance={"feed_rule": "fresh_draw", "length": 3}
    )
    main, cons, lc = flights["main"], flights["cons"], flights["lc"]
    play_all(director_user, [main])
    from base.api import Conflict

    with pytest.raises(Conflict):
        services.draw_flight(actor=director_user, flight=lc)
    play_all(director_user, [cons])
    assert lc.entries.count() == 4  # the four losers of consolation round 1
    services.draw_flight(actor=director_user, flight=lc, seed=3)
    services.confirm_draw(actor=director_user, flight=lc)
    services.release_draw(actor=director_user, flight=lc)
    lc.refresh_from_db()
    assert {s.match.length for s in ready_slots(lc)} == {3}
    play_all(director_user, [lc])
    event.refresh_from_db()
    assert event.status == "finished"
    assert lc.entries.filter(place=1).count() == 1


def test_linked_last_chance_is_laid_out_with_the_consolation(club, director_user):
    event, flights = drawn_event(club, director_user, 16, consolation={}, last_chance={"feed_rule": "first_played"})
    main, cons, lc = flights["main"], flights["cons"], flights["lc"]
    assert lc.slots.count() == 3  # 4 first-played consolation losers: semi-finals and a final
    play_all(director_user, [main, cons, lc])
    event.refresh_from_db()
    assert event.status == "finished"


def test_double_elimination_ends_with_one_winner(club, director_user):
    from tests.tournaments.builders import make_event, members

    event = make_event(club, director_user)
    de = services.add_flight(actor=director_user, event=event, name="DE", kind="double_elimination")
    for player in members(club, 5):
        services.register(actor=director_user, flight=de, player=player)
    services.draw_flight(actor=director_user, flight=de, seed=1)
    services.confirm_draw(actor=director_user, flight=de)
    services.release_draw(actor=director_user, flight=de)
    play_all(director_user, [de], choose=lambda slot: 1 if slot.section == "g" else 0)
    places = sorted(p.place for p in selectors.flight_placements(flight=de))
    assert places[0] == 1 and places[1] == 2 and None not in places
    event.refresh_from_db()
    assert event.status == "finished"


def test_correction_before_later_matches_start_reroutes_the_players(club, director_user):
    event, flights = drawn_event(club, director_user, 8, consolation={})
    main, cons = flights["main"], flights["cons"]
    first, second = ready_slots(main)[:2]
    win(director_user, first, 0)
    win(director_user, second, 0)
    r2 = Slot.objects.get(flight=main, round=2, position=0)
    old_match = r2.match
    assert old_match is not None
    win(director_user, Slot.objects.select_related("match").get(pk=first.pk), 1)  # corrected: B won
    r2.refresh_from_db()
    assert r2.entry_a_id == first.entry_b_id and r2.entry_b_id == second.entry_a_id
    assert r2.match_id != old_match.pk
    old_match.refresh_from_db()
    assert old_match.outcome == "annulled"
    assert set(cons.entries.values_list("player_id", flat=True)) == {first.entry_a.player_id, second.entry_b.player_id}


def test_after_a_later_match_started_only_the_override_changes_it_and_shows_the_cascade(club, director_user):
    event, flights = drawn_event(club, director_user, 8, consolation={})
    first, r2 = started_second_round(director_user, flights["main"])
    from base.api import Conflict

    with pytest.raises(Conflict):
        win(director_user, Slot.objects.select_related("match").get(pk=first.pk), 1)
    slot = Slot.objects.select_related("flight__event", "match").get(pk=first.pk)
    steps = services.override_preview(actor=director_user, slot=slot)
    assert [s.slot.pk for s in steps if s.started] == [r2.pk]
    services.override_result(actor=director_user, slot=slot, winner_side=1, outcome="forfeit", comment="Wrong score")
    r2.refresh_from_db()
    assert r2.entry_a_id == first.entry_b_id and r2.result == "ready"
    assert Match.objects.get(pk=steps[0].slot.match_id).outcome == "annulled"


def test_withdrawal_before_the_draw_removes_after_it_gives_a_walkover(club, director_user):
    from tests.tournaments.builders import make_event, members

    event = make_event(club, director_user)
    main = services.add_flight(actor=director_user, event=event, name="Main")
    entries = [services.register(actor=director_user, flight=main, player=p) for p in members(club, 5)]
    assert services.withdraw(actor=director_user, entry=entries[0]) is None
    assert main.entries.count() == 4
    services.draw_flight(actor=director_user, flight=main, seed=5)
    services.confirm_draw(actor=director_user, flight=main)
    services.release_draw(actor=director_user, flight=main)
    slot = ready_slots(main)[0]
    services.withdraw(actor=director_user, entry=slot.entry_a)
    slot.refresh_from_db()
    assert slot.result == "walkover" and slot.winner_id == slot.entry_b_id


def test_late_entry_takes_a_bye_so_nobody_gets_a_second_one(club, director_user):
    from tests.clubs.factories import MembershipFactory

    event, flights = drawn_event(club, director_user, 6)
    main = flights["main"]
    late = services.register(actor=director_user, flight=main, player=MembershipFactory(club=club).player)
    late.refresh_from_db()
    assert late.is_late and not late.had_bye
    slot = Slot.objects.get(flight=main, round=1, position=late.draw_position // 2)
    assert slot.result == "ready" and late.pk in (slot.entry_a_id, slot.entry_b_id)
    assert Slot.objects.filter(flight=main, round=1, result="bye").count() == 1
    assert Entry.objects.filter(flight=main, had_bye=True).count() == 1


def test_reentry_for_a_fee_places_the_player_again(club, director_user):
    import datetime

    from django.utils import timezone

    event, flights = drawn_event(
        club,
        director_user,
        6,
        entry_fee=20,
        reentry_fee=10,
        reentry_deadline=timezone.now() + datetime.timedelta(hours=1),
    )
    main = flights["main"]
    slot = ready_slots(main)[0]
    win(director_user, slot, 0)
    again = services.reenter(actor=director_user, flight=main, player=slot.entry_b.player)
    assert again.is_reentry and again.fee == 10 and again.draw_position is not None
    from base.api import Conflict

    with pytest.raises(Conflict):
        services.reenter(actor=director_user, flight=main, player=slot.entry_b.player)


def test_redraw_only_before_confirmation(club, director_user):
    from base.api import Conflict
    from tests.tournaments.builders import make_event, members

    event = make_event(club, director_user)
    main = services.add_flight(actor=director_user, event=event, name="Main")
    for player in members(club, 5):
        services.register(actor=director_user, flight=main, player=player)
    services.draw_flight(actor=director_user, flight=main, seed=11)
    first = dict(main.entries.values_list("player_id", "draw_position"))
    services.draw_flight(actor=director_user, flight=main, seed=11)
    assert dict(main.entries.values_list("player_id", "draw_position")) == first  # the stored seed reproduces it
    services.confirm_draw(actor=director_user, flight=main)
    with pytest.raises(Conflict):
        services.draw_flight(actor=director_user, flight=main)


def test_an_annulled_result_is_taken_back_and_the_pair_plays_again(club, director_user):
    event, flights = drawn_event(club, director_user, 8, consolation={})
    main, cons = flights["main"], flights["cons"]
    slot = ready_slots(main)[0]
    win(director_user, slot, 0)
    old = slot.match
    match_services.annul_match(actor=director_user, match=old, comment="Wrong board")
    slot.refresh_from_db()
    assert slot.result == "ready" and slot.match_id != old.pk
    assert Slot.objects.get(flight=main, round=2, position=0).entry_a_id is None
    assert not cons.entries.exists()


def test_players_correct_their_own_result_before_the_next_match_starts(club, director_user):
    event, flights = drawn_event(club, director_user, 8)
    main = flights["main"]
    slot = ready_slots(main)[0]
    a, b = slot.entry_a.player.user, slot.entry_b.player.user
    length = slot.match.length
    first, _ = match_services.submit_report(actor=a, match=slot.match, method="final_score", scores=(length, 0))
    match_services.confirm_report(actor=b, match=slot.match, version=first.version)
    fixed, _ = match_services.submit_report(actor=b, match=slot.match, method="final_score", scores=(0, length))
    match_services.confirm_report(actor=a, match=slot.match, version=fixed.version)
    assert Slot.objects.get(flight=main, round=2, position=0).entry_a_id == slot.entry_b_id
    assert Entry.objects.get(pk=slot.entry_a_id).place == 5


def test_results_changed_hook_hears_about_the_fed_flight_too(club, director_user):
    event, flights = drawn_event(club, director_user, 8, consolation={})
    heard = []
    hooks.on_flight_results_changed(heard.append)
    try:
        win(director_user, ready_slots(flights["main"])[0], 0)
    finally:
        hooks.remove_flight_callback(heard.append)
    assert {f.pk for f in heard} == {flights["main"].pk, flights["cons"].pk}


def test_a_withdrawn_player_waiting_for_an_opponent_gives_a_walkover_when_one_arrives(club, director_user):
    event, flights = drawn_event(club, director_user, 6)
    main = flights["main"]
    waiting = Slot.objects.filter(flight=main, round=2).exclude(entry_a=None, entry_b=None).first()
    bye_holder = waiting.entry_a or waiting.entry_b
    services.withdraw(actor=director_user, entry=bye_holder)
    feeder = Slot.objects.select_related("match").get(
        flight=main, round=1, position=waiting.position * 2 + (1 if waiting.entry_a_id == bye_holder.pk else 0)
    )
    win(director_user, feeder, 0)
    waiting.refresh_from_db()
    assert waiting.result == "walkover" and waiting.winner_id == feeder.entry_a_id


def test_match_lengths_by_round_and_for_the_final(club, director_user):
    event, flights = drawn_event(club, director_user, 8, length=5, round_lengths={"2": 7}, final_length=9)
    main = flights["main"]
    assert {s.match.length for s in ready_slots(main)} == {5}
    play_all(director_user, [main], choose=lambda slot: 0)
    lengths = dict(Slot.objects.filter(flight=main).values_list("round", "match__length").distinct())
    assert lengths == {1: 5, 2: 7, 3: 9}


def test_closed_registration_refuses_players_but_not_directors(club, director_user, member_user):
    from base.api import Conflict
    from tests.tournaments.builders import make_event

    event = make_event(club, director_user, registration_open=False)
    main = services.add_flight(actor=director_user, event=event, name="Main")
    with pytest.raises(Conflict):
        services.register(actor=member_user, flight=main)
    entry = services.register(actor=director_user, flight=main, player=member_user.player)
    assert services.check_in(actor=member_user, entry=entry).status == "checked_in"


def test_a_last_chance_with_fewer_than_two_players_does_not_hold_the_event_open(club, director_user):
    event, flights = drawn_event(club, director_user, 4, consolation={}, last_chance={"feed_rule": "fresh_draw"})
    play_all(director_user, [flights["main"], flights["cons"]])
    lc = flights["lc"]
    lc.refresh_from_db()
    event.refresh_from_db()
    assert lc.entries.count() == 1 and lc.entries.get().place == 1
    assert lc.status == "finished" and event.status == "finished"
