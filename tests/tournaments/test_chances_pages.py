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


def test_no_chances_for_a_flight_played_in_rounds_or_before_the_draw(club, director_user):
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
