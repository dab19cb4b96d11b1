"""Stages that chain themselves: the cut is made with the stage, drawn when it ends, and a tie at the qualifying
line waits for a lot or a playoff — never separated silently."""

import pytest
from django.utils import translation

from base.api import Conflict
from games.matchplay import services as match_services
from tests.refusals import ValidationError
from tests.tournaments.builders import make_event
from tests.tournaments.rounds_builders import play_round, swiss_event
from tournaments import services
from tournaments.formats import FORMATS, format_of
from tournaments.models import Entry, FeedRule, Flight, FlightFormat, QualifyingTie
from tournaments.selectors import rounds as round_selectors

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _english():
    """The refusals and names are read in English (another test may leave German active)."""
    with translation.override("en"):
        yield


def _cut(flight) -> Flight:
    return Flight.objects.get(source=flight, feed_rule=FeedRule.CUT)


def test_every_format_choice_has_its_class_and_the_classes_name_their_options():
    assert set(FORMATS) == set(FlightFormat.values)
    assert format_of("swiss").options >= {"rounds", "cut_size"}
    assert not format_of("knockout").round_based and format_of("groups").feeds_cut(None)


def test_a_swiss_with_a_cut_makes_its_knockout_at_once_and_draws_it_when_the_last_round_ends(
    client, club, director_user
):
    event, flight = swiss_event(club, director_user, 8, rounds=3, cut_size=4)
    cut = _cut(flight)
    assert (cut.name, cut.format, cut.entries.count()) == ("Swiss: top 4", "knockout", 0)
    client.force_login(director_user)
    page = client.get(flight.get_absolute_url()).content.decode()
    assert "drawn when round 3 ends" in page and cut.get_absolute_url() in page
    services.start_round(actor=director_user, flight=flight)
    for _ in range(3):
        play_round(director_user, flight)
    cut.refresh_from_db()
    table = list(round_selectors.flight_standings(flight=flight))
    assert cut.draw_status == "released"
    seeds = dict(Entry.objects.filter(flight=cut).values_list("player_id", "seed"))
    assert seeds == {row.entry.player_id: rank for rank, row in enumerate(table[:4], start=1)}
    page = client.get(flight.get_absolute_url()).content.decode()
    assert "Swiss is over." in page and "The qualifiers play on in" in page


def test_a_cut_added_by_hand_replaces_the_empty_one_and_after_the_end_is_filled_at_once(club, director_user):
    event, flight = swiss_event(club, director_user, 6, rounds=2, cut_size=4)
    _cut(flight).delete()  # an event set up before cuts were made with their stage
    services.start_round(actor=director_user, flight=flight)
    for _ in range(2):
        play_round(director_user, flight)
    flight.refresh_from_db()
    assert flight.status == "finished"
    late = services.add_flight(actor=director_user, event=event, name="Top 4", source=flight, feed_rule="cut")
    late.refresh_from_db()
    assert late.entries.count() == 4 and late.draw_status == "released"
    with pytest.raises(ValidationError) as refused:
        services.add_flight(actor=director_user, event=event, name="Again", source=flight, feed_rule="cut")
    assert "filled already" in str(refused.value)


def _tied_swiss(club, director_user, **kwargs):
    """Four players, one round, a cut of 3: the two losers are equal on every criterion for the last place."""
    event, flight = swiss_event(club, director_user, 4, rounds=1, cut_size=3, **kwargs)
    services.start_round(actor=director_user, flight=flight)
    play_round(director_user, flight)
    flight.refresh_from_db()
    return event, flight


def test_a_tie_at_the_qualifying_line_waits_for_the_directors_lot_and_records_it(client, club, director_user):
    event, flight = _tied_swiss(club, director_user)
    cut = _cut(flight)
    assert flight.status == "finished" and cut.entries.count() == 0  # nothing decided silently
    tie = QualifyingTie.objects.get(flight=flight)
    assert (len(tie.tied), tie.places, tie.method, tie.order) == (2, 1, "lot", [])
    client.force_login(director_user)
    page = client.get(flight.get_absolute_url()).content.decode()
    assert "Tie at the qualifying line" in page and "Draw the lot" in page
    chosen = tie.tied[1]  # the lot drawn at the club went to the lower line
    answer = client.post(f"{flight.get_absolute_url()}ties/{tie.pk}/", {"qualified": [str(chosen)]})
    assert answer.status_code == 302
    tie.refresh_from_db()
    assert tie.order[0] == chosen and tie.decided_by == director_user and tie.decided_at is not None
    cut.refresh_from_db()
    qualified = set(cut.entries.values_list("player_id", flat=True))
    assert Entry.objects.get(pk=chosen).player_id in qualified and len(qualified) == 3
    assert cut.draw_status == "released"
    with pytest.raises(Exception) as again:
        services.decide_by_lot(actor=director_user, tie=tie)
    assert "decided already" in str(again.value)


def test_a_lot_drawn_here_picks_one_of_the_tied_players(club, director_user):
    _event, flight = _tied_swiss(club, director_user)
    tie = QualifyingTie.objects.get(flight=flight)
    services.decide_by_lot(actor=director_user, tie=tie)
    tie.refresh_from_db()
    assert sorted(tie.order) == sorted(tie.tied)
    assert _cut(flight).entries.count() == 3


def test_a_playoff_match_decides_a_tie_of_two_for_one_place(club, director_user):
    _event, flight = _tied_swiss(club, director_user, qualifying_ties="playoff")
    tie = QualifyingTie.objects.get(flight=flight)
    assert tie.method == "playoff" and tie.match is not None
    match = tie.match
    match_services.submit_report(
        actor=director_user, match=match, method="final_score", scores=(1, match.length), as_director=True
    )
    tie.refresh_from_db()
    winner = Entry.objects.get(pk=tie.order[0])
    assert winner.player_id == match.player_b_id
    cut = _cut(flight)
    assert winner.player_id in set(cut.entries.values_list("player_id", flat=True))
    assert cut.draw_status == "released"


def test_a_cut_a_team_event_cannot_play_is_refused_when_the_flight_is_set_up(club, director_user):
    event = make_event(club, director_user)
    with pytest.raises(ValidationError) as refused:
        services.add_flight(
            actor=director_user, event=event, name="Teams", format="swiss", rounds=3, cut_size=4,
            team_kind="team", team_size=3,
        )  # fmt: skip
    assert "leave the cut off" in str(refused.value)


def test_an_option_of_another_format_is_refused_naming_the_formats_that_take_it(club, director_user):
    event = make_event(club, director_user)
    with pytest.raises(ValidationError) as refused:
        services.add_flight(actor=director_user, event=event, name="RR", format="round_robin", rounds=3)
    assert "Only these formats take a number of rounds: Swiss." in str(refused.value)


def test_the_api_shows_the_next_stage_and_its_tie_and_takes_the_directors_lot(
    club, director_user, django_user_model, api_as
):
    """Through the schema-checking client: every answer is held to the published schema."""
    event, flight = _tied_swiss(club, director_user)
    url = f"/api/v1/events/{club.slug}/{event.slug}/flights/{flight.slug}/"
    stage = api_as(None).get(url + "next-stage/").json()
    assert stage["cut"] == _cut(flight).slug and stage["over"] is True
    (tie,) = stage["ties"]
    assert (tie["places"], tie["decided_by"], tie["qualified"], len(tie["tied"])) == (1, "lot", [], 2)
    stranger = django_user_model.objects.create_user("stranger", password="pw")
    refused = api_as(stranger).post(url + f"ties/{tie['id']}/lot/", {}, format="json")
    assert refused.status_code == 403 and not QualifyingTie.objects.get(pk=tie["id"]).order
    api = api_as(director_user)
    chosen = tie["tied"][0]["entry"]
    decided = api.post(url + f"ties/{tie['id']}/lot/", {"qualified": [chosen]}, format="json")
    assert decided.status_code == 200 and decided.json()["qualified"] == [chosen]
    again = api.post(url + f"ties/{tie['id']}/lot/", {}, format="json")
    assert again.status_code == 409 and again.json()["code"] == "tie_decided"
    wrong = _tied_swiss(club, director_user)[1]
    other = QualifyingTie.objects.get(flight=wrong)
    too_many = api.post(
        f"/api/v1/events/{club.slug}/{wrong.event.slug}/flights/{wrong.slug}/ties/{other.pk}/lot/",
        {"qualified": other.tied},
        format="json",
    )
    assert too_many.status_code == 400 and "exactly 1" in too_many.json()["detail"]


def test_a_playoff_tie_is_not_decided_by_lot(club, director_user):
    _event, flight = _tied_swiss(club, director_user, qualifying_ties="playoff")
    tie = QualifyingTie.objects.get(flight=flight)
    with pytest.raises(Conflict) as refused:
        services.decide_by_lot(actor=director_user, tie=tie)
    assert refused.value.get_codes() == "tie_playoff"
    tie.refresh_from_db()
    assert tie.order == [] and _cut(flight).entries.count() == 0
