"""Round robin and groups → knockout flights through the services: the Berger schedule round by round, the
end with places from the standings, withdrawals scored as the director chose, groups with their own tables and
the qualifiers seeded cross-over into the knockout."""

from collections import Counter

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.refusals import ValidationError
from tests.tournaments.builders import play_all
from tests.tournaments.rounds_builders import open_tables, play_round, report, swiss_event
from tournaments import selectors, services
from tournaments.core.errors import BracketError
from tournaments.models import Entry, Pairing
from tournaments.selectors import robin as robin_selectors
from tournaments.selectors import rounds as round_selectors

pytestmark = pytest.mark.django_db


def _pairs(flight):
    return Counter(
        frozenset((p.entry_a_id, p.entry_b_id)) for p in Pairing.objects.filter(flight=flight, entry_b__isnull=False)
    )


def test_a_round_robin_plays_the_berger_table_round_by_round_and_ends_with_the_standings_as_places(club, director_user):
    _, flight = swiss_event(club, director_user, 5, format="round_robin")
    services.start_round(actor=director_user, flight=flight)
    numbers = dict(Entry.objects.filter(flight=flight).values_list("draw_position", "pk"))
    assert sorted(numbers) == [1, 2, 3, 4, 5]  # Berger numbers by lot
    first = Pairing.objects.filter(flight=flight, round=1).order_by("table")
    # The 6-player table without its number 6: 1 has the bye, 2-5 and 3-4 play.
    assert [(p.entry_a_id, p.entry_b_id) for p in first] == [
        (numbers[2], numbers[5]),
        (numbers[3], numbers[4]),
        (numbers[1], None),
    ]
    while flight.status != "finished":
        play_round(director_user, flight, choose=lambda p: 0 if p.entry_a_id < p.entry_b_id else 1)
    assert flight.current_round == 5
    pairs = _pairs(flight)
    assert len(pairs) == 10 and set(pairs.values()) == {1}  # every pair exactly once
    table = round_selectors.flight_standings(flight=flight)
    assert [row.line.wins for row in table] == [5, 4, 3, 2, 1]  # 4 games and the bye each
    places = dict(Entry.objects.filter(flight=flight).values_list("pk", "place"))
    assert [places[row.entry.pk] for row in table] == [1, 2, 3, 4, 5]


def test_a_double_round_robin_meets_every_pair_twice_once_on_each_side(club, director_user):
    _, flight = swiss_event(club, director_user, 4, format="round_robin", cycles=2)
    services.start_round(actor=director_user, flight=flight)
    while flight.status != "finished":
        play_round(director_user, flight)
    assert flight.current_round == 6
    sides = Counter(Pairing.objects.filter(flight=flight).values_list("entry_a", "entry_b"))
    assert len(sides) == 12 and set(sides.values()) == {1}


def test_a_withdrawal_scores_the_games_left_as_the_director_chose(club, director_user):
    _, flight = swiss_event(club, director_user, 6, format="round_robin")
    services.start_round(actor=director_user, flight=flight)
    first, second, third = open_tables(flight)
    forfeits, voided = first.entry_a, second.entry_a
    services.drop(actor=director_user, entry=forfeits, score_remaining=True)
    services.drop(actor=director_user, entry=voided, score_remaining=False)
    report(director_user, third)
    while flight.status != "finished":
        play_round(director_user, flight)
    rows = {r.entry.pk: r.line for r in round_selectors.flight_standings(flight=flight)}
    # Each of the other four met the forfeiting player once: a win each, without a game.
    others = [pk for pk in rows if pk not in (forfeits.pk, voided.pk)]
    assert sum(rows[pk].byes for pk in others) == 3  # round 1's table was a forfeit of a played match
    assert all(rows[pk].played + rows[pk].byes + rows[pk].losses >= 4 for pk in others)
    assert not Pairing.objects.filter(flight=flight, round__gt=1, entry_a=voided).exists()
    assert not Pairing.objects.filter(flight=flight, round__gt=1, entry_b=voided).exists()
    assert flight.current_round == 5


def test_groups_deal_the_field_play_their_tables_and_seed_the_knockout_cross_over(club, director_user):
    event, flight = swiss_event(club, director_user, 8, format="groups", group_size=4, advance=2)
    knockout = services.add_flight(
        actor=director_user, event=event, name="Knockout", source=flight, feed_rule="cut", slug="ko"
    )
    services.start_round(actor=director_user, flight=flight)
    groups = Counter(Entry.objects.filter(flight=flight).values_list("group", flat=True))
    assert groups == {1: 4, 2: 4}
    assert set(Pairing.objects.filter(flight=flight, round=1).values_list("group", flat=True)) == {1, 2}
    while flight.status != "finished":
        play_round(director_user, flight)
    assert flight.current_round == 3
    tables = robin_selectors.group_tables(flight=flight)
    assert [t.label for t in tables] == ["A", "B"]
    for table in tables:
        assert len(table.rows) == 4 and len(_pairs_in(flight, table.number)) == 6
    a1, a2 = (row.entry.player_id for row in tables[0].rows[:2])
    b1, b2 = (row.entry.player_id for row in tables[1].rows[:2])
    seeds = dict(Entry.objects.filter(flight=knockout).values_list("player_id", "seed"))
    assert seeds == {a1: 1, b1: 2, a2: 3, b2: 4}
    places = Counter(Entry.objects.filter(flight=flight).values_list("place", flat=True))
    assert places == {1: 2, 3: 2, 5: 2, 7: 2}
    knockout.refresh_from_db()
    assert knockout.draw_status == "released"  # drawn at once when the groups ended
    line = dict(Entry.objects.filter(flight=knockout).values_list("draw_position", "player_id"))
    assert {frozenset((line[0], line[1])), frozenset((line[2], line[3]))} == {
        frozenset((a1, b2)),
        frozenset((b1, a2)),
    }
    play_all(director_user, [knockout], choose=lambda slot: 1)  # the runners-up beat the group winners
    final = {p.player_id: p.place for p in selectors.flight_placements(flight=flight)}
    assert {final[b2], final[a2]} == {1, 2} and final[a1] == final[b1] == 3
    assert sorted(final.values()) == [1, 2, 3, 3, 5, 5, 7, 7]  # the others keep their place by group rank
    event.refresh_from_db()
    assert event.status == "finished"


def _pairs_in(flight, group):
    return {frozenset((p.entry_a_id, p.entry_b_id)) for p in Pairing.objects.filter(flight=flight, group=group)}


@pytest.mark.parametrize(
    "settings, field",
    [
        ({"format": "groups", "group_size": 1, "advance": 1}, "group_size"),
        ({"format": "groups", "group_size": 4, "advance": 4}, "advance"),
        ({"format": "groups"}, "group_size"),
        ({"format": "round_robin", "cycles": 3}, "cycles"),
        ({"format": "swiss", "rounds": 3, "cycles": 2}, "cycles"),
        ({"format": "round_robin", "group_size": 4}, "group_size"),
    ],
)
def test_impossible_settings_are_refused_naming_the_field(club, director_user, settings, field):
    with pytest.raises(ValidationError) as refused:
        swiss_event(club, director_user, 0, **settings)
    assert field in refused.value.message_dict


def test_groups_too_large_for_the_field_are_refused_at_the_first_round_saying_what_works(club, director_user):
    _, flight = swiss_event(club, director_user, 5, format="groups", group_size=8, advance=1)
    with pytest.raises(BracketError) as refused:
        services.start_round(actor=director_user, flight=flight)
    assert refused.value.code == "group_size_too_large" and "2 to 5" in refused.value.message


def _queries_for_one_result(club, director_user, n, **settings):
    _, flight = swiss_event(club, director_user, n, **settings)
    services.start_round(actor=director_user, flight=flight)
    tables = open_tables(flight)
    report(director_user, tables[0])  # the first result warms what is read once
    with CaptureQueriesContext(connection) as queries:
        report(director_user, tables[1])  # a result that does not end the round
    return len(queries)


@pytest.mark.parametrize(
    "settings",
    [
        {"format": "round_robin"},
        {"format": "round_robin", "cycles": 2},
        {"format": "groups", "group_size": 4, "advance": 2},
    ],
    ids=["round_robin", "double_round_robin", "groups"],
)
def test_a_reported_result_costs_the_same_queries_for_8_and_256_entrants(club, director_user, settings):
    small = _queries_for_one_result(club, director_user, 8, **settings)
    large = _queries_for_one_result(club, director_user, 256, **settings)
    print(f"queries per result ({settings['format']}): {small} with 8 entrants, {large} with 256")
    assert small == large


def test_three_groups_draw_their_knockout_at_once_byes_to_winners_and_no_group_meets_itself_in_round_1(
    club, director_user
):
    event, flight = swiss_event(club, director_user, 12, format="groups", group_size=4, advance=2)
    knockout = services.add_flight(
        actor=director_user, event=event, name="Knockout", source=flight, feed_rule="cut", slug="ko"
    )
    services.start_round(actor=director_user, flight=flight)
    while flight.status != "finished":
        play_round(director_user, flight)
    knockout.refresh_from_db()
    assert knockout.draw_status == "released" and knockout.size == 8
    group_of = dict(Entry.objects.filter(flight=flight).values_list("player_id", "group"))
    rank_one = {t.rows[0].entry.player_id for t in robin_selectors.group_tables(flight=flight)}
    for slot in knockout.slots.filter(round=1).select_related("entry_a", "entry_b"):
        players = [e.player_id for e in (slot.entry_a, slot.entry_b) if e is not None]
        if len(players) == 1:
            assert players[0] in rank_one  # the two byes go to group winners
        else:
            assert group_of[players[0]] != group_of[players[1]]
