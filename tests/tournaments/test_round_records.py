"""What a flight in rounds is paired from, as a director reads it through the API and the round page: the
tie-break order in effect (also when the flight stores none), the pairing seed (set before round 1, then fixed,
and the same seed and state pair the same round) and the standings each round was paired from, kept as they
were when later results and corrections change the live ones. And the flight settings refused with what works."""

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.tournaments.builders import make_event
from tests.tournaments.rounds_builders import open_tables, play_round, swiss_event
from tournaments import services
from tournaments.models import Pairing

pytestmark = pytest.mark.django_db


def _url(club, event, flight, rest=""):
    return f"/api/v1/events/{club.slug}/{event.slug}/flights/{flight.slug}/{rest}"


def _keys(order):
    return [t["key"] for t in order]


# --- the tie-break order in effect ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "settings, expected",
    [
        ({"format": "swiss"}, ["wins", "buchholz", "median_buchholz", "sonneborn_berger", "head_to_head"]),
        ({"format": "round_robin"}, ["wins", "head_to_head", "sonneborn_berger", "points_difference"]),
        ({"format": "swiss", "tiebreaks": ["wins", "points_for"]}, ["wins", "points_for"]),
        ({"format": "knockout"}, []),
    ],
    ids=["swiss-default", "round-robin-default", "own-order", "knockout"],
)
def test_the_flight_shows_the_tie_break_order_in_effect(api_as, club, director_user, settings, expected):
    if settings["format"] == "knockout":
        event = make_event(club, director_user)
        flight = services.add_flight(actor=director_user, event=event, name="Main")
    else:
        event, flight = swiss_event(club, director_user, 3, **settings)
    body = api_as(None).get(_url(club, event, flight)).json()["flight"]
    assert _keys(body["tiebreaks_in_effect"]) == expected
    assert body["tiebreaks"] == settings.get("tiebreaks", [])


def test_the_order_in_effect_reads_in_the_callers_language(api_as, club, director_user):
    event, flight = swiss_event(club, director_user, 3)
    english = api_as(None).get(_url(club, event, flight)).json()["flight"]["tiebreaks_in_effect"]
    assert english[1] == {"key": "buchholz", "name": "Buchholz", "abbreviation": "Bh"}
    assert english[4] == {"key": "head_to_head", "name": "Head-to-head", "abbreviation": "H2H"}
    german = api_as(None).get(_url(club, event, flight), HTTP_ACCEPT_LANGUAGE="de").json()["flight"]
    assert german["tiebreaks_in_effect"][4] == {
        "key": "head_to_head",
        "name": "Direkter Vergleich",
        "abbreviation": "DV",
    }


# --- the pairing seed -------------------------------------------------------------------------------------------


def test_a_director_sets_the_pairing_seed_before_round_one_and_it_stays_after(api_as, club, director_user):
    event, flight = swiss_event(club, director_user, 4, rounds=2)
    api = api_as(director_user)
    changed = api.patch(_url(club, event, flight), {"pairing_seed": 4242}, format="json")
    assert changed.status_code == 200, changed.json()
    assert changed.json()["pairing_seed"] == 4242 == changed.json()["random_seed"]
    assert api_as(None).get(_url(club, event, flight)).json()["flight"]["pairing_seed"] == 4242
    assert api.post(_url(club, event, flight, "rounds/"), {}, format="json").status_code == 200
    assert api_as(None).get(_url(club, event, flight)).json()["flight"]["pairing_seed"] == 4242
    refused = api.patch(_url(club, event, flight), {"pairing_seed": 7}, format="json")
    assert refused.status_code == 409
    assert refused.json()["code"] == "pairing_seed_fixed"
    assert "before round 1 is paired" in refused.json()["detail"]
    flight.refresh_from_db()
    assert flight.random_seed == 4242


def test_a_pairing_seed_out_of_range_or_for_a_knockout_is_refused_with_what_works(
    api_as, club, director_user, member_user
):
    event, flight = swiss_event(club, director_user, 4)
    api = api_as(director_user)
    negative = api.patch(_url(club, event, flight), {"pairing_seed": -1}, format="json")
    assert negative.status_code == 400 and negative.json()["field"] == "pairing_seed"
    assert "from 0 to" in negative.json()["detail"]
    knockout = services.add_flight(actor=director_user, event=event, name="Main")
    refused = api.patch(_url(club, event, knockout), {"pairing_seed": 5}, format="json")
    assert refused.status_code == 400 and "give the seed to the draw" in refused.json()["detail"]
    assert api_as(member_user).patch(_url(club, event, flight), {"pairing_seed": 5}, format="json").status_code == 403


def test_the_same_seed_and_the_same_state_pair_the_same_round(club, director_user):
    _event, flight = swiss_event(club, director_user, 7, rounds=3)
    services.update_flight(actor=director_user, flight=flight, pairing_seed=99)
    rounds = []
    for _attempt in range(2):
        with transaction.atomic():
            services.start_round(actor=director_user, flight=flight)
            rounds.append([(p.entry_a_id, p.entry_b_id) for p in Pairing.objects.filter(flight=flight)])
            transaction.set_rollback(True)  # as if round 1 had never been paired: the same state again
        flight.refresh_from_db()
    assert rounds[0] == rounds[1] and len(rounds[0]) == 4


# --- the standings each round was paired from -------------------------------------------------------------------


def test_the_standings_a_round_was_paired_from_are_kept_through_a_correction(api_as, club, director_user):
    event, flight = swiss_event(club, director_user, 4, rounds=3)
    services.start_round(actor=director_user, flight=flight)
    first = open_tables(flight)[0]
    play_round(director_user, flight)  # every entry A wins; round 2 pairs itself
    anyone = api_as(None)
    kept = anyone.get(_url(club, event, flight, "rounds/2/standings/")).json()
    assert kept["round"] == 2 and kept["after_round"] == 1 and kept["pairing_seed"] == flight.random_seed
    assert _keys(kept["tiebreaks_in_effect"])[:2] == ["wins", "buchholz"]
    wins = {row["entry"]: row["wins"] for row in kept["standings"]}
    assert wins[first.entry_a_id] == 1 and wins[first.entry_b_id] == 0
    assert [row["rank"] for row in kept["standings"]] == [1, 1, 3, 3]

    services.correct_result(
        actor=director_user, pairing=first, winner_side=1, scores=(1, first.match.length), comment="wrong slip"
    )
    live = {row["entry"]: row["wins"] for row in anyone.get(_url(club, event, flight, "standings/")).json()}
    assert live[first.entry_b_id] == 1  # the live standings changed ...
    again = anyone.get(_url(club, event, flight, "rounds/2/standings/")).json()
    assert again["standings"] == kept["standings"]  # ... the ones round 2 was paired from did not
    seeding = anyone.get(_url(club, event, flight, "rounds/1/standings/")).json()
    assert seeding["after_round"] == 0 and {row["wins"] for row in seeding["standings"]} == {0}
    assert anyone.get(_url(club, event, flight, "rounds/3/standings/")).status_code == 404
    assert anyone.get(_url(club, event, flight, "rounds/0/standings/")).status_code == 404


def test_a_groups_flight_keeps_each_groups_table(api_as, club, director_user):
    event, flight = swiss_event(club, director_user, 7, format="groups", group_size=4, advance=2)
    services.start_round(actor=director_user, flight=flight)
    kept = api_as(None).get(_url(club, event, flight, "rounds/1/standings/")).json()
    groups = [row["group"] for row in kept["standings"]]
    assert groups == sorted(groups) and set(groups) == {1, 2} and len(groups) == 7


def _round_two(club, director_user, n):
    event, flight = swiss_event(club, director_user, n, rounds=3)
    services.start_round(actor=director_user, flight=flight)
    play_round(director_user, flight)
    return event, flight


def test_reading_the_kept_standings_costs_the_same_for_4_and_16_players(api_as, club, director_user):
    counts = []
    for n in (4, 16):
        event, flight = _round_two(club, director_user, n)
        api = api_as(None)
        with CaptureQueriesContext(connection) as captured:
            assert api.get(_url(club, event, flight, "rounds/2/standings/")).status_code == 200
        counts.append(len(captured))
    assert counts[0] == counts[1]


def test_the_round_page_shows_the_order_and_the_standings_it_was_paired_from(client, club, director_user):
    counts = []
    for n in (4, 12):
        _event, flight = _round_two(club, director_user, n)
        with CaptureQueriesContext(connection) as captured:
            page = client.get(flight.get_absolute_url()).content.decode()
        counts.append(len(captured))
    assert counts[0] == counts[1]
    assert "Paired from the standings after round 1" in page
    assert "Ranked by: Wins, then Buchholz, then Median Buchholz, then Sonneborn-Berger, then Head-to-head." in page
    assert '<abbr title="Buchholz: the wins of all opponents">Bh</abbr>' in page
    assert "pairing seed" in page
    first = client.get(flight.get_absolute_url() + "?round=1").content.decode()
    assert "Paired from the standings before round 1" in first
    client.cookies.load({"django_language": "de"})
    german = client.get(flight.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Gepaart nach der Tabelle nach Runde 1" in german and "Gewertet nach: Siege, dann Buchholz" in german


# --- settings refused with what works ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "settings, field, message",
    [
        ({"format": "groups", "group_size": 1, "advance": 1}, "group_size", "Groups need a size from 2 to 1024"),
        ({"format": "groups", "group_size": 0, "advance": 1}, "group_size", "Groups need a size from 2 to 1024"),
        ({"format": "groups", "group_size": -3, "advance": 1}, "group_size", "Groups need a size from 2 to 1024"),
        ({"format": "groups", "group_size": 10**9, "advance": 1}, "group_size", "Groups need a size from 2 to 1024"),
        ({"format": "groups", "group_size": 4, "advance": 0}, "advance", "From 1 to 3 players of each group"),
        ({"format": "groups", "group_size": 4, "advance": 10**9}, "advance", "From 1 to 3 players of each group"),
        ({"format": "swiss", "rounds": 0}, "rounds", "Play between 1 and 99 rounds."),
        ({"format": "round_robin", "cycles": 3}, "cycles", "Everyone meets once (1) or twice (2)."),
        ({"format": "swiss", "rounds": 3, "cut_size": 1}, "cut_size", "Cut to between the top 2 and the top 256."),
    ],
    ids=[
        "group-1",
        "group-0",
        "group-negative",
        "group-huge",
        "advance-0",
        "advance-huge",
        "rounds-0",
        "cycles-3",
        "cut-1",
    ],
)
def test_an_impossible_setting_is_refused_through_the_api_with_what_works(
    api_as, club, director_user, settings, field, message
):
    event = make_event(club, director_user)
    response = api_as(director_user).post(
        f"/api/v1/events/{club.slug}/{event.slug}/flights/", {"name": "Groups", **settings}, format="json"
    )
    assert response.status_code == 400
    body = response.json()
    assert body["field"] == field and body["detail"].startswith(message)
    assert "Ensure this value" not in str(body)


def test_the_director_sets_the_pairing_seed_on_the_page_before_round_one(client, club, director_user):
    event, flight = swiss_event(club, director_user, 4, rounds=2)
    client.force_login(director_user)
    url = reverse("tournaments:flight-pairing-seed", args=[club.slug, event.slug, flight.slug])
    assert 'name="pairing_seed"' in client.get(flight.get_absolute_url()).content.decode()
    page = client.post(url, {"pairing_seed": "not a number"}, follow=True).content.decode()
    assert "A pairing seed is a whole number from 0 to" in page
    page = client.post(url, {"pairing_seed": " 31337 "}, follow=True).content.decode()
    assert "Pairing seed saved" in page
    flight.refresh_from_db()
    assert flight.random_seed == 31337
    services.start_round(actor=director_user, flight=flight)
    page = client.get(flight.get_absolute_url()).content.decode()
    assert 'name="pairing_seed"' not in page and "<code>31337</code>" in page
    page = client.post(url, {"pairing_seed": "1"}, follow=True).content.decode()
    assert "is paired already" in page
