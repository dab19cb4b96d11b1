"""Chances on the bracket and the prize list: computed from the players' ratings once per flight version, shown
to every viewer, and moved by each result."""

import pytest
from django.utils import translation

from ratings.core.fibs import favourite_win_probability
from ratings.models import PlayerRating, RatingPool
from tournaments import selectors, services
from tournaments.models import Flight, Slot

from .builders import drawn_event, ready_slots, win

pytestmark = pytest.mark.django_db


@pytest.fixture
def bracket(club, director_user):
    event, flights = drawn_event(
        club,
        director_user,
        8,
        entry_fee=10,
        payout_template=[{"place": 1, "percent": 50}, {"place": 2, "percent": 30}, {"place": 3, "percent": 20}],
    )
    main = flights["main"]
    pool = RatingPool.objects.get_or_create(club=None, variant="standard")[0]
    strongest = main.entries.order_by("draw_position").first()
    PlayerRating.objects.create(pool=pool, player=strongest.player, rating=1900.0)
    return Flight.objects.select_related("event__club").get(pk=main.pk)


def test_every_entrant_has_chances_that_add_up_and_the_strongest_is_the_favourite(bracket):
    figures = selectors.flight_chances(flight=bracket)
    assert len(figures.entrants) == 8
    for e in figures.entrants:
        assert sum(e.places.values()) == pytest.approx(1.0)
    assert figures.entrants[0].rating == 1900.0  # ranked by the chance to win
    assert figures.entrants[0].first > 1 / 8 > figures.entrants[-1].first
    assert figures.holders == {1: 1, 2: 1, 3: 2, 5: 4}
    assert len(figures.matches) == 4  # the four round-1 matches are open


def test_a_result_moves_the_chances_and_the_loser_has_none_left(bracket, director_user):
    slot = ready_slots(bracket)[0]
    loser, winner = slot.entry_b_id, slot.entry_a_id
    before = selectors.flight_chances(flight=Flight.objects.get(pk=bracket.pk))
    win(director_user, slot, 0)
    after = selectors.flight_chances(flight=Flight.objects.get(pk=bracket.pk))
    assert after.of_entry(loser).places == {5: 1.0}
    assert after.of_entry(winner).first > before.of_entry(winner).first
    assert slot.pk not in after.matches


def test_the_bracket_page_shows_each_open_matchs_chances_and_says_what_they_assume(client, bracket):
    with translation.override("en"):
        html = client.get(bracket.get_absolute_url()).content.decode()
    assert html.count('class="match-chances"') == 4
    assert "50 % · 50 %" in html  # two unrated players (1500 each)
    assert "by the FIBS formula" in html
    assert "1900" in html


def test_the_prize_list_shows_expected_prizes_that_add_up_to_what_is_paid_out(client, bracket):
    prizes = {p.flight.pk: p for p in selectors.prize_list(event=bracket.event)}[bracket.pk]
    assert len(prizes.expected) == 8
    assert sum(cents for _name, cents in prizes.expected) == pytest.approx(prizes.payout.net, abs=8)
    with translation.override("en"):
        html = client.get(f"/events/{bracket.event.club.slug}/{bracket.event.slug}/prizes/").content.decode()
    assert "Expected prize of each entrant" in html


def test_no_chances_for_a_flight_before_anyone_entered_it(club, director_user):
    event, flights = drawn_event(club, director_user, 4)
    later = services.add_flight(actor=director_user, event=event, name="Later")
    assert selectors.flight_chances(flight=later) is None
    assert Slot.objects.filter(flight=flights["main"]).exists()


def test_an_open_matchs_page_shows_both_players_chances_and_a_finished_one_does_not(client, bracket, director_user):
    slot = ready_slots(bracket)[0]
    assert slot.entry_a.player == PlayerRating.objects.get(rating=1900.0).player  # first on the line
    client.force_login(director_user)
    with translation.override("en"):
        html = client.get(f"/matches/{slot.match_id}/").content.decode()
    assert 'class="match-chances-panel"' in html
    assert "by the FIBS formula" in html
    assert "(1900)" in html and "(1500)" in html
    chance = round(100 * favourite_win_probability(400, slot.match.length))
    assert f"{chance} % (1900)" in html
    win(director_user, slot, 0)
    with translation.override("en"):
        html = client.get(f"/matches/{slot.match_id}/").content.decode()
    assert 'class="match-chances-panel"' not in html


def test_a_round_robin_is_simulated_over_its_schedule_and_ends_certain(club, director_user):
    from tournaments.models import Entry

    from .rounds_builders import play_round, swiss_event

    _, flight = swiss_event(club, director_user, 5, format="round_robin")
    services.start_round(actor=director_user, flight=flight)
    play_round(director_user, flight)
    figures = selectors.flight_chances(flight=Flight.objects.get(pk=flight.pk))
    assert figures.method == "simulated" and len(figures.entrants) == 5
    for e in figures.entrants:
        assert sum(e.places.values()) == pytest.approx(1.0)
    while flight.status != "finished":
        play_round(director_user, flight, choose=lambda p: 0 if p.entry_a_id < p.entry_b_id else 1)
    final = selectors.flight_chances(flight=Flight.objects.get(pk=flight.pk))
    places = dict(Entry.objects.filter(flight=flight).values_list("pk", "place"))
    assert {e.entry_id: e.places for e in final.entrants} == {pk: {place: 1.0} for pk, place in places.items()}


def test_a_round_robins_page_shows_its_place_chances(client, club, director_user):
    from .rounds_builders import play_round, swiss_event

    _, flight = swiss_event(club, director_user, 4, format="round_robin")
    services.start_round(actor=director_user, flight=flight)
    play_round(director_user, flight)
    with translation.override("en"):
        html = client.get(Flight.objects.get(pk=flight.pk).get_absolute_url()).content.decode()
    assert 'class="place-chances' in html and "by the FIBS formula" in html
    assert "Place 4" in html  # a round robin has every place


# --- every format: simulated from the flight as it stands, certain once it is over ----------------------------


def _assert_adds_up(figures):
    assert figures is not None and figures.method == "simulated"
    for e in figures.entrants:
        assert sum(e.places.values()) == pytest.approx(1.0)


def _assert_certain_and_right(flight, places_by_entry=None):
    from tournaments.models import Entry

    figures = selectors.flight_chances(flight=Flight.objects.get(pk=flight.pk))
    if places_by_entry is None:
        places_by_entry = dict(Entry.objects.filter(flight=flight).values_list("pk", "place"))
    assert {e.entry_id: e.places for e in figures.entrants} == {pk: {p: 1.0} for pk, p in places_by_entry.items()}


@pytest.mark.parametrize("fmt", ["swiss", "triple_elimination", "groups"])
def test_a_flight_played_in_rounds_is_simulated_after_each_result_and_ends_certain(client, club, director_user, fmt):
    from .rounds_builders import open_tables, play_round, report, swiss_event

    kwargs = {"group_size": 3, "advance": 1} if fmt == "groups" else {}
    _, flight = swiss_event(club, director_user, 6, format=fmt, **kwargs)
    services.start_round(actor=director_user, flight=flight)
    first = selectors.flight_chances(flight=Flight.objects.get(pk=flight.pk))
    _assert_adds_up(first)
    assert len(first.entrants) == 6
    table = open_tables(flight)[0]
    report(director_user, table, 0)
    after = selectors.flight_chances(flight=Flight.objects.get(pk=flight.pk))  # a new version: computed afresh
    winner, loser = after.of_entry(table.entry_a_id), after.of_entry(table.entry_b_id)
    assert winner.first > first.of_entry(table.entry_a_id).first
    assert loser.first < first.of_entry(table.entry_b_id).first
    with translation.override("en"):
        html = client.get(Flight.objects.get(pk=flight.pk).get_absolute_url()).content.decode()
    assert 'class="place-chances' in html and "by the FIBS formula" in html
    for _ in range(20):
        if Flight.objects.get(pk=flight.pk).status == "finished":
            break
        if not open_tables(flight):
            services.start_round(actor=director_user, flight=flight)
        play_round(director_user, flight, choose=lambda p: 0 if p.entry_a_id < p.entry_b_id else 1)
    flight.refresh_from_db()
    assert flight.status == "finished"
    places = {pk: place for pk, place in services_places(flight).items() if place is not None}
    _assert_certain_and_right(flight, places)


def services_places(flight):
    from tournaments.formats import format_of

    return format_of(flight).places(flight)


@pytest.mark.parametrize(
    "options",
    [{"kind": "double_elimination"}, {"kind": "double_elimination", "grand_final_reset": True}, {"third_place": True}],
)
def test_a_bracket_of_another_shape_is_simulated_and_ends_certain(client, club, director_user, options):
    from .builders import play_all

    event, flights = drawn_event(club, director_user, 8, **options)
    main = Flight.objects.get(pk=flights["main"].pk)
    figures = selectors.flight_chances(flight=main)
    _assert_adds_up(figures)
    assert len(figures.entrants) == 8 and len(figures.matches) == 4
    assert figures.holders[1] == 1
    with translation.override("en"):
        html = client.get(main.get_absolute_url()).content.decode()
    assert html.count('class="match-chances"') == 4 and "by the FIBS formula" in html
    play_all(director_user, [main], choose=lambda slot: 1)
    main.refresh_from_db()
    assert main.status == "finished"
    _assert_certain_and_right(main)


def test_a_consolation_is_fed_by_the_mains_losers_chances_and_follows_each_main_result(club, director_user):
    from .builders import play_all

    event, flights = drawn_event(club, director_user, 8, consolation={"feed_rule": "first_played"})
    main, cons = flights["main"], flights["cons"]
    figures = selectors.flight_chances(flight=Flight.objects.get(pk=cons.pk))
    _assert_adds_up(figures)
    assert len(figures.entrants) == 8  # everyone may lose their first match and play on there
    assert sum(e.places.get(0, 0.0) for e in figures.entrants) == pytest.approx(4)  # four never get there
    assert sum(e.first for e in figures.entrants) == pytest.approx(1)
    assert figures.columns == [1, 2, 3] and figures.holders == {1: 1, 2: 1, 3: 2}  # "not there" is no place
    slot = ready_slots(main)[0]
    win(director_user, slot, 0)  # a main result adds no change to the consolation, but moves its chances
    moved = selectors.flight_chances(flight=Flight.objects.get(pk=cons.pk))
    assert moved.of_entry(slot.entry_a_id) is None  # won their first match: never in the consolation
    loser = next(e for e in moved.entrants if e.player_id == slot.entry_b.player_id)
    assert loser.places.get(0, 0.0) == 0.0  # certain to play it
    play_all(director_user, [main, cons])
    _assert_certain_and_right(cons)


def test_a_main_with_a_playoff_for_second_waits_for_its_consolation(club, director_user):
    from .builders import play_all

    event, flights = drawn_event(club, director_user, 8, playoff_second=True, consolation={"feed_rule": "first_played"})
    main, cons = flights["main"], flights["cons"]
    figures = selectors.flight_chances(flight=Flight.objects.get(pk=main.pk))
    _assert_adds_up(figures)
    # the final's loser or the consolation's winner 2nd, the other 3rd, the semi-final losers 4th
    assert figures.holders == {1: 1, 2: 1, 3: 1, 4: 2, 6: 3}
    play_all(director_user, [main, cons])
    main.refresh_from_db()
    placements = {p.entry_id: p.place for p in selectors.flight_placements(flight=main)}
    _assert_certain_and_right(main, placements)


def test_a_team_knockout_is_played_at_its_members_mean_rating(club, director_user):
    from .test_team_matches import team_flight

    flight, entries = team_flight(club, director_user, 4)
    pool = RatingPool.objects.get_or_create(club=None, variant="standard")[0]
    for member in entries[0].members.all():
        PlayerRating.objects.create(pool=pool, player=member.player, rating=1800.0)
    figures = selectors.flight_chances(flight=Flight.objects.get(pk=flight.pk))
    assert figures.method == "exact" and len(figures.entrants) == 4
    assert figures.of_entry(entries[0].pk).rating == 1800.0
    assert figures.entrants[0].entry_id == entries[0].pk
    assert figures.entrants[0].name == "Team 1"


def test_a_swiss_prize_list_shows_expected_prizes_that_add_up_to_what_is_paid_out(club, director_user):
    from .rounds_builders import swiss_event

    payout = [{"place": 1, "percent": 60}, {"place": 2, "percent": 40}]
    _, flight = swiss_event(club, director_user, 6, entry_fee=10, payout_template=payout)
    services.start_round(actor=director_user, flight=flight)
    prizes = {p.flight.pk: p for p in selectors.prize_list(event=flight.event)}[flight.pk]
    assert len(prizes.expected) == 6
    # what everyone can expect adds up to the pool, a place shared in some runs only split by its expected holders
    assert sum(cents for _name, cents in prizes.expected) == pytest.approx(prizes.payout.net, abs=6)
    assert max(cents for _name, cents in prizes.expected) < 0.6 * prizes.payout.net  # nobody is sure of 1st yet
