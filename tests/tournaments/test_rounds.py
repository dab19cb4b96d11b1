"""Swiss and triple elimination flights through the services: pairing, results from match play, the end of the
flight with places, withdrawals, late entries, a director's re-pairing and corrections after later rounds."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from base.api import Conflict
from base.errors import Invalid as ValidationError
from tests.tournaments.builders import make_event, members, play_all
from tests.tournaments.rounds_builders import open_tables, play_round, report, swiss_event
from tournaments import selectors, services
from tournaments.core.errors import BracketError
from tournaments.models import Entry, Pairing, RoundSeat
from tournaments.selectors import rounds as round_selectors

pytestmark = pytest.mark.django_db


def test_a_swiss_pairs_each_round_from_the_results_and_ends_with_places(club, director_user):
    _, flight = swiss_event(club, director_user, 7, rounds=3)
    pairings = services.start_round(actor=director_user, flight=flight)
    assert len(pairings) == 4 and pairings[-1].entry_b_id is None and pairings[-1].result == "bye"
    assert RoundSeat.objects.filter(flight=flight, round=1).count() == 7
    for _ in range(3):
        play_round(director_user, flight)
    flight.refresh_from_db()
    assert flight.status == "finished" and flight.current_round == 3
    pairs = [
        frozenset((p.entry_a_id, p.entry_b_id)) for p in Pairing.objects.filter(flight=flight, entry_b__isnull=False)
    ]
    assert len(pairs) == len(set(pairs))  # no rematch in three rounds of seven
    byes = [p.entry_a_id for p in Pairing.objects.filter(flight=flight, entry_b__isnull=True)]
    assert len(byes) == 3 and len(set(byes)) == 3
    table = round_selectors.flight_standings(flight=flight)
    places = dict(Entry.objects.filter(flight=flight).values_list("pk", "place"))
    assert [places[row.entry.pk] for row in table] == [row.line.rank for row in table]
    assert table[0].line.wins == 3 and places[table[0].entry.pk] == 1
    placements = selectors.flight_placements(flight=flight)
    assert all(p.place is not None for p in placements)


def test_the_next_round_waits_for_the_director_when_the_flight_does_not_pair_itself(club, director_user):
    _, flight = swiss_event(club, director_user, 4, rounds=2, auto_pair=False)
    services.start_round(actor=director_user, flight=flight)
    first = open_tables(flight)[0]
    report(director_user, first)
    with pytest.raises(Conflict) as caught:
        services.start_round(actor=director_user, flight=flight)
    assert caught.value.get_codes() == "round_unfinished"
    play_round(director_user, flight)
    assert flight.current_round == 1
    assert len(services.start_round(actor=director_user, flight=flight)) == 2
    play_round(director_user, flight)
    assert flight.status == "finished"  # the last round's last result ends the flight either way


def test_until_one_unbeaten_stops_when_one_player_has_not_lost(club, director_user):
    _, flight = swiss_event(club, director_user, 8, rounds=None, until_one_unbeaten=True)
    services.start_round(actor=director_user, flight=flight)
    while flight.status != "finished":
        play_round(director_user, flight)
    assert flight.current_round >= 3  # at best 8 -> 4 -> 2 -> 1 unbeaten; it stops at the first round with one
    rows = round_selectors.flight_standings(flight=flight)
    assert sum(1 for r in rows if r.line.losses == 0) == 1


def test_impossible_settings_are_refused_with_what_works(club, director_user):
    event = make_event(club, director_user)
    for kwargs, field in [
        ({"format": "swiss"}, "rounds"),
        ({"format": "swiss", "rounds": 0}, "rounds"),
        ({"format": "swiss", "rounds": 3, "tiebreaks": ["luck"]}, None),
        ({"format": "swiss", "rounds": 3, "cut_size": 1}, "cut_size"),
        ({"format": "chess"}, "format"),
        ({"rounds": 3}, "rounds"),  # a knockout takes no rounds: refused on the field, naming Swiss
    ]:
        with pytest.raises((ValidationError, BracketError)) as caught:
            services.add_flight(actor=director_user, event=event, name="X", **kwargs)
        if field:
            assert field in caught.value.message_dict
    _, flight = swiss_event(club, director_user, 4, rounds=5)
    with pytest.raises(BracketError) as refused:
        services.start_round(actor=director_user, flight=flight)
    assert refused.value.code == "too_many_rounds" and "at most 3" in str(refused.value)


def test_triple_elimination_ends_with_one_player_under_three_losses(club, director_user):
    _, flight = swiss_event(club, director_user, 6, format="triple_elimination")
    services.start_round(actor=director_user, flight=flight)
    rounds = 0
    while flight.status != "finished":
        play_round(director_user, flight, choose=lambda p: p.table % 2)
        rounds += 1
        assert rounds < 20
    rows = round_selectors.flight_standings(flight=flight)
    assert sum(1 for r in rows if r.line.losses < 3) == 1
    places = dict(Entry.objects.filter(flight=flight).values_list("pk", "place"))
    champion = next(r.entry.pk for r in rows if r.line.losses < 3)
    assert places[champion] == 1 and sorted(places.values())[1] == 2
    for pairing in Pairing.objects.filter(flight=flight, round__gt=1, entry_b__isnull=False):
        before = [r for r in Pairing.objects.filter(flight=flight, round__lt=pairing.round) if r.result != "bye"]
        losses = {
            e: sum(1 for r in before if e in (r.entry_a_id, r.entry_b_id) and r.winner_id != e)
            for e in (pairing.entry_a_id, pairing.entry_b_id)
        }
        assert max(losses.values()) < 3


def test_a_dropped_player_is_not_paired_again_and_the_director_chooses_how_the_open_table_counts(club, director_user):
    _, flight = swiss_event(club, director_user, 6, rounds=3)
    services.start_round(actor=director_user, flight=flight)
    first, second, third = open_tables(flight)
    services.drop(actor=director_user, entry=first.entry_a, score_remaining=True)
    services.drop(actor=director_user, entry=second.entry_a, score_remaining=False)
    first.refresh_from_db()
    second.refresh_from_db()
    assert (first.result, first.winner_id) == ("forfeit", first.entry_b_id)
    assert second.result == "not_scored"
    report(director_user, third)
    flight.refresh_from_db()
    assert flight.current_round == 2
    seated = set(RoundSeat.objects.filter(flight=flight, round=2).values_list("entry", flat=True))
    assert first.entry_a_id not in seated and second.entry_a_id not in seated and len(seated) == 4
    rows = {r.entry.pk: r.line for r in round_selectors.flight_standings(flight=flight)}
    assert rows[second.entry_b_id].wins == 0 and rows[second.entry_b_id].losses == 0


def test_a_late_entry_joins_the_next_round_of_a_swiss_with_no_wins(club, director_user):
    _, flight = swiss_event(club, director_user, 4, rounds=3)
    services.start_round(actor=director_user, flight=flight)
    late = members(club, 1)[0]
    entry = services.register(actor=director_user, flight=flight, player=late)
    assert entry.is_late
    play_round(director_user, flight)
    seated = set(RoundSeat.objects.filter(flight=flight, round=2).values_list("entry", flat=True))
    assert entry.pk in seated


def test_a_round_robin_takes_no_late_entry_once_started(club, director_user):
    _, flight = swiss_event(club, director_user, 4, format="triple_elimination")
    flight.format = "round_robin"
    flight.current_round = 1
    flight.save()
    with pytest.raises(Conflict):
        services.register(actor=director_user, flight=flight, player=members(club, 1)[0])


def test_the_director_re_pairs_a_round_with_a_warning_on_rematches(club, director_user):
    _, flight = swiss_event(club, director_user, 4, rounds=3)
    services.start_round(actor=director_user, flight=flight)
    r1 = open_tables(flight)
    play_round(director_user, flight)
    r2 = open_tables(flight)
    rematch = [[r1[0].entry_a_id, r1[0].entry_b_id], [r1[1].entry_a_id, r1[1].entry_b_id]]
    preview = services.edit_pairings_preview(actor=director_user, flight=flight, pairs=rematch)
    assert len(preview.rematches) == 2
    with pytest.raises(Conflict) as caught:
        services.edit_pairings(actor=director_user, flight=flight, pairs=rematch)
    assert caught.value.get_codes() == "rematch_needs_confirmation"
    assert [p.pk for p in open_tables(flight)] == [p.pk for p in r2]  # nothing changed
    services.edit_pairings(actor=director_user, flight=flight, pairs=rematch, confirm=True)
    now = open_tables(flight)
    assert {frozenset((p.entry_a_id, p.entry_b_id)) for p in now} == {frozenset(p) for p in rematch}
    for old in r2:
        old.match.refresh_from_db()
        assert old.match.outcome == "annulled"
    with pytest.raises(ValidationError):
        services.edit_pairings(actor=director_user, flight=flight, pairs=[[r1[0].entry_a_id, r1[0].entry_a_id]])


def test_a_correction_after_the_next_round_was_paired_needs_the_director_and_shows_what_changes(club, director_user):
    _, flight = swiss_event(club, director_user, 4, rounds=3)
    services.start_round(actor=director_user, flight=flight)
    first = open_tables(flight)[0]
    play_round(director_user, flight)
    first.refresh_from_db()
    with pytest.raises(Conflict) as caught:
        report(director_user, first, 1)
    assert caught.value.get_codes() == "later_round_paired"
    preview = services.correction_preview(actor=director_user, pairing=first, winner_side=1)
    assert preview.later_rounds == [2]
    before = {r.entry.pk: r.line.wins for r in preview.before}
    after = {r.entry.pk: r.line.wins for r in preview.after}
    assert after[first.entry_b_id] == before[first.entry_b_id] + 1
    r2 = [p.pk for p in open_tables(flight)]
    services.correct_result(
        actor=director_user, pairing=first, winner_side=1, scores=(1, first.match.length), comment="wrong slip"
    )
    first.refresh_from_db()
    assert first.winner_id == first.entry_b_id
    assert [p.pk for p in open_tables(flight)] == r2  # the round already paired stays


def test_a_top_four_cut_feeds_a_knockout_seeded_by_the_standings_and_decides_the_top_places(club, director_user):
    event, flight = swiss_event(club, director_user, 8, rounds=3, cut_size=4)
    cut = services.add_flight(actor=director_user, event=event, name="Top 4", source=flight, feed_rule="cut")
    services.start_round(actor=director_user, flight=flight)
    for _ in range(3):
        play_round(director_user, flight)
    table = round_selectors.flight_standings(flight=flight)
    seeds = dict(Entry.objects.filter(flight=cut).values_list("player_id", "seed"))
    assert seeds == {row.entry.player_id: rank for rank, row in enumerate(table[:4], start=1)}
    event.refresh_from_db()
    assert event.status == "running"  # the cut is still to play
    cut.refresh_from_db()
    assert cut.draw_status == "released" and cut.status == "running"  # drawn by the seeds at once
    play_all(director_user, [cut], choose=lambda slot: 1)  # the lower seed wins every match
    places = {p.player_id: p.place for p in selectors.flight_placements(flight=flight)}
    assert places[table[0].entry.player_id] != 1  # the Swiss leader lost the semi-final
    assert sorted(places.values())[:4] == [1, 2, 3, 3]
    assert {places[row.entry.player_id] for row in table[4:]} == {row.line.rank for row in table[4:]}
    event.refresh_from_db()
    assert event.status == "finished"


@pytest.mark.parametrize("fmt", ["swiss", "triple_elimination"])
def test_queries_per_reported_result_do_not_grow_with_the_field(club, director_user, fmt):
    counts = []
    for n in (8, 256):
        _, flight = swiss_event(club, director_user, n, format=fmt, **({"rounds": 3} if fmt == "swiss" else {}))
        services.start_round(actor=director_user, flight=flight)
        first, second = open_tables(flight)[:2]
        report(director_user, first)  # the first result of a flight warms what is read once per flight
        connection.queries_log.clear()  # the log keeps 9,000 queries: a full one would count nothing
        with CaptureQueriesContext(connection) as captured:
            report(director_user, second)
        counts.append(len(captured))
    assert counts[0] == counts[1] and counts[0] > 0, counts
