"""Event points for every kind of main flight: places from its final standings (or the cut's knockout for the
players who reached it), USBGF match wins from its tables as from a bracket's slots."""

from collections import Counter

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.models.matches import Match
from points import services as points_services
from ratings.models import PointsAward
from tests.tournaments.builders import play_all
from tests.tournaments.rounds_builders import play_round, swiss_event
from tournaments import selectors, services

pytestmark = pytest.mark.django_db

FORMATS = [
    {"format": "swiss", "rounds": 3},
    {"format": "triple_elimination"},
    {"format": "round_robin"},
    {"format": "swiss", "rounds": 3, "cut_size": 4},
    {"format": "groups", "group_size": 4, "advance": 2},
]


def _play_event(club, director, n, settings):
    event, flight = swiss_event(club, director, n, **settings)
    cut = None
    if settings.get("cut_size") or settings["format"] == "groups":
        cut = services.add_flight(actor=director, event=event, name="Cut", source=flight, feed_rule="cut", slug="cut")
    points_services.set_event_scheme(actor=director, event=event, scheme="usbgf")
    services.start_round(actor=director, flight=flight)
    while flight.status != "finished":
        play_round(director, flight, choose=lambda pairing: pairing.table % 2)
    if cut is not None:
        play_all(director, [cut], choose=lambda slot: 1)
    event.refresh_from_db()
    assert event.status == "finished"
    return event, flight


def _wins(event):
    """Matches won over the board in the event, per player, counted independently of the service."""
    return Counter(
        Match.objects.filter(status="finished", rated=True, winner__isnull=False, club=event.club).values_list(
            "winner_id", flat=True
        )
    )


@pytest.mark.parametrize("settings", FORMATS, ids=lambda s: "-".join(str(v) for v in s.values()))
def test_usbgf_points_take_the_final_places_and_every_match_won_at_a_table_or_in_a_bracket(
    club, director_user, settings
):
    event, flight = _play_event(club, director_user, 8, settings)
    awards = {a.player_id: a for a in PointsAward.objects.filter(event=event)}
    places = {p.player_id: p.place for p in selectors.flight_placements(flight=flight)}
    assert len(awards) == 8
    assert {player: a.place for player, a in awards.items()} == places
    assert sorted(places.values())[0] == 1
    wins = _wins(event)
    assert sum(wins.values()) > 0
    for player, award in awards.items():
        if wins[player]:
            assert f"+ {wins[player]} match wins" in award.explanation
    if settings.get("cut_size") or settings["format"] == "groups":
        cut = flight.fed_flights.get()
        champion = cut.entries.get(place=1).player_id
        assert awards[champion].place == 1  # the cut's knockout decides the top places


def test_awarding_a_round_based_event_costs_the_same_queries_for_any_field(club, director_user):
    counts = []
    for n in (8, 64):
        event, _flight = _play_event(club, director_user, n, {"format": "swiss", "rounds": 3})
        connection.queries_log.clear()
        with CaptureQueriesContext(connection) as captured:
            points_services.award_event_points(event=event)
        counts.append(len(captured))
    assert counts[0] == counts[1] > 0, counts
