"""The page of a flight played in rounds: the director pairs round 1 and drops a player from it, everyone sees
the tables and the standings with the tie-break columns, a player sees their own table."""

import pytest
from django.urls import reverse

from tests.tournaments.rounds_builders import open_tables, play_round, swiss_event
from tournaments import services

pytestmark = pytest.mark.django_db


def test_the_director_pairs_round_one_and_everyone_sees_tables_and_standings(client, club, director_user):
    event, flight = swiss_event(club, director_user, 5, rounds=2)
    client.force_login(director_user)
    page = client.get(flight.get_absolute_url()).content.decode()
    assert "Pair round 1" in page
    response = client.post(reverse("tournaments:flight-start-round", args=[club.slug, event.slug, flight.slug]))
    assert response.status_code == 302
    play_round(director_user, flight)
    client.logout()
    page = client.get(flight.get_absolute_url()).content.decode()
    assert "Round 2" in page and "Standings" in page and "Buchholz" in page and "bye" in page
    assert "Pair the next round" not in page
    table = open_tables(flight)[0]
    client.force_login(table.entry_a.player.user)
    page = client.get(flight.get_absolute_url()).content.decode()
    assert f"your table is {table.table}" in page
    first_round = client.get(flight.get_absolute_url() + "?round=1").content.decode()
    assert "Round 1" in first_round
    assert client.get(flight.get_absolute_url() + "?round=99999999999999999999").status_code == 200


def test_the_director_drops_a_player_from_the_page(client, club, director_user):
    event, flight = swiss_event(club, director_user, 4, rounds=2)
    services.start_round(actor=director_user, flight=flight)
    table = open_tables(flight)[0]
    client.force_login(director_user)
    url = reverse("tournaments:entry-drop", args=[club.slug, event.slug, flight.slug, table.entry_a_id])
    client.post(url, {"score_remaining": "0"})
    table.refresh_from_db()
    assert table.result == "not_scored"
    page = client.get(flight.get_absolute_url()).content.decode()
    assert "withdrawn" in page
