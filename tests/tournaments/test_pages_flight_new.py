"""The "new flight" page: a director chooses the format and its options; a refusal of the service shows on its
field with what was typed kept; the options of other formats are left out."""

import pytest
from django.urls import reverse
from django.utils import translation

from tests.tournaments.builders import make_event

pytestmark = pytest.mark.django_db

BASE = {"kind": "main", "feed_rounds": 1, "entry_fee": "0", "length": 7, "seeding": "random", "auto_pair": "on"}


def _url(event):
    return reverse("tournaments:flight-add", args=[event.club.slug, event.slug])


def test_the_page_shows_every_format_and_its_options_grouped(client, club, director_user):
    event = make_event(club, director_user)
    client.force_login(director_user)
    page = client.get(_url(event)).content.decode()
    for label in ("Swiss", "Round robin", "Groups, then knockout", "Triple elimination (modified Swiss)"):
        assert label in page
    for legend in ("Round robin and groups", "Every format played in rounds", "Re-entry (knockout)"):
        assert f"<legend>{legend}</legend>" in page
    assert 'data-formats="groups"' in page and 'name="group_size"' in page and 'name="tiebreaks"' in page
    event_page = client.get(event.get_absolute_url()).content.decode()
    assert _url(event) in event_page


@pytest.mark.parametrize(
    "options, expected",
    [
        ({"format": "swiss", "rounds": "5", "tiebreaks": "wins, sonneborn_berger"}, {"rounds": 5, "cut_size": None}),
        ({"format": "swiss", "until_one_unbeaten": "on", "cut_size": "8"}, {"until_one_unbeaten": True, "cut_size": 8}),
        ({"format": "triple_elimination", "rounds": "5"}, {"rounds": None}),  # a Swiss option left out
        ({"format": "round_robin", "cycles": "2", "group_size": "4"}, {"cycles": 2, "group_size": None}),
        ({"format": "groups", "group_size": "4", "advance": "2", "cycles": "1"}, {"group_size": 4, "advance": 2}),
        ({"format": "knockout", "rounds": "3", "group_size": "1"}, {"rounds": None, "group_size": None}),
    ],
    ids=["swiss", "unbeaten-cut", "triple", "double-robin", "groups", "knockout"],
)
def test_a_director_adds_a_flight_of_each_format(client, club, director_user, options, expected):
    event = make_event(club, director_user)
    client.force_login(director_user)
    response = client.post(_url(event), BASE | {"name": "Flight"} | options)
    assert response.status_code == 302, response.content.decode()
    flight = event.flights.get(source=None)
    assert flight.format == options["format"]
    cut = event.flights.exclude(pk=flight.pk).first()  # a stage with a cut brings its knockout along
    assert (cut is not None) == bool(flight.cut_size or flight.format == "groups")
    for name, value in expected.items():
        assert getattr(flight, name) == value
    if options.get("tiebreaks"):
        assert flight.tiebreaks == ["wins", "sonneborn_berger"]


@pytest.mark.parametrize(
    "options, field, message",
    [
        ({"format": "swiss", "rounds": "0"}, "rounds", "Play between 1 and 99 rounds."),
        ({"format": "groups", "group_size": "1", "advance": "1"}, "group_size", "Groups need a size from 2"),
        ({"format": "groups", "group_size": "4", "advance": "4"}, "advance", "From 1 to 3 players of each group"),
        ({"format": "swiss", "rounds": "3", "tiebreaks": "wins, luck"}, "tiebreaks", "names each criterion once"),
        ({"format": "swiss"}, "rounds", "A Swiss needs a number of rounds"),
        ({"format": "swiss", "rounds": "3", "kind": "consolation"}, "kind", "A flight played in rounds is a main"),
    ],
    ids=["zero-rounds", "group-of-one", "all-advance", "tiebreak", "no-end", "not-main"],
)
def test_an_impossible_setting_is_shown_on_its_field_with_what_was_typed_kept(
    client, club, director_user, options, field, message
):
    event = make_event(club, director_user)
    client.force_login(director_user)
    data = BASE | {"name": "My Swiss flight"} | options
    response = client.post(_url(event), data)
    assert response.status_code == 200
    page = response.content.decode()
    error = page.split(f'id="id_{field}_error"')[1].split("</div>")[0]
    assert message in error
    assert 'value="My Swiss flight"' in page
    for name, value in options.items():
        if name in ("rounds", "group_size", "advance"):
            assert f'name="{name}" value="{value}"' in page
    assert not event.flights.exists()


def test_the_page_reads_in_german(client, club, director_user):
    event = make_event(club, director_user)
    client.force_login(director_user)
    with translation.override("en"):
        page = client.post(
            _url(event), BASE | {"name": "X", "format": "swiss", "rounds": "0"}, headers={"accept-language": "de"}
        ).content.decode()
    assert "Neues Feld" in page and "Feinwertungen" in page and "Spielt zwischen 1 und 99 Runden." in page


def test_only_a_director_sees_the_page(client, club, director_user, django_user_model):
    event = make_event(club, director_user)
    outsider = django_user_model.objects.create_user("outsider-x", password="x")
    client.force_login(outsider)
    assert client.get(_url(event)).status_code == 403
    assert client.post(_url(event), BASE | {"name": "X"}).status_code == 403


def test_a_director_asks_for_a_playoff_for_2nd_on_the_page_and_a_third_place_match_with_it_is_refused(
    client, club, director_user
):
    event = make_event(club, director_user)
    client.force_login(director_user)
    page = client.get(_url(event)).content.decode()
    assert 'name="playoff_second"' in page and "Playoff for 2nd" in page
    response = client.post(_url(event), BASE | {"name": "Main", "format": "knockout", "playoff_second": "on"})
    assert response.status_code == 302, response.content.decode()
    assert event.flights.get().playoff_second
    both = BASE | {"name": "Other", "format": "knockout", "playoff_second": "on", "third_place": "on"}
    refused = client.post(_url(event), both)
    assert refused.status_code == 200 and event.flights.count() == 1  # nothing stored, the page says why
    assert "switch the third-place match off, or the playoff" in refused.content.decode()
