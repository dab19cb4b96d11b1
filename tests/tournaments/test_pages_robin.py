"""The pages and API of round robin and groups flights: the standings with the round robin's tie-break columns,
each group's own table, and a director's drop that says the games left are scored too."""

import pytest
from django.urls import reverse

from tests.tournaments.rounds_builders import play_round, swiss_event
from tournaments import services

pytestmark = pytest.mark.django_db


def test_a_round_robin_page_shows_head_to_head_and_sonneborn_berger_and_the_drop_covers_the_games_left(
    client, club, director_user
):
    _, flight = swiss_event(club, director_user, 4, format="round_robin", cycles=2)
    services.start_round(actor=director_user, flight=flight)
    play_round(director_user, flight)
    client.force_login(director_user)
    page = client.get(flight.get_absolute_url()).content.decode()
    assert "double round robin" in page and "Head-to-head" in page and "Sonneborn-Berger" in page
    assert "Buchholz: the wins of all opponents" not in page  # no Buchholz column: not a round robin tie-break
    assert "games left forfeited to the opponents" in page


def test_a_groups_page_and_api_show_one_table_per_group(client, club, director_user):
    event, flight = swiss_event(club, director_user, 7, format="groups", group_size=4, advance=2)
    services.start_round(actor=director_user, flight=flight)
    play_round(director_user, flight)
    page = client.get(flight.get_absolute_url()).content.decode()
    assert "Group A" in page and "Group B" in page and "Group C" not in page
    assert "The top 2 of each group reach the knockout" in page
    url = reverse("api-flight-groups", args=[club.slug, event.slug, flight.slug])
    groups = client.get(url).json()
    assert [g["label"] for g in groups] == ["A", "B"]
    assert sorted(len(g["standings"]) for g in groups) == [3, 4]
    assert all(
        {"wins", "head_to_head", "sonneborn_berger", "points_difference"} <= set(g["standings"][0]) for g in groups
    )


def test_the_groups_api_answers_an_empty_list_before_round_one_and_for_other_formats(client, club, director_user):
    event, flight = swiss_event(club, director_user, 4, format="round_robin")
    url = reverse("api-flight-groups", args=[club.slug, event.slug, flight.slug])
    assert client.get(url).json() == []
