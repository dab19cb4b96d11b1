"""A director runs a Swiss round through the API, each answer checked against the schema: pair the round,
preview and apply an edit of its tables, correct a table's result (preview, then apply), drop a player."""

import pytest

from tests.tournaments.rounds_builders import open_tables, report, swiss_event
from tournaments.models import Pairing

pytestmark = pytest.mark.django_db


def test_a_director_runs_a_swiss_round_through_the_api(api_as, club, director_user):
    event, flight = swiss_event(club, director_user, 4)
    api = api_as(director_user)
    base = f"/api/v1/events/{club.slug}/{event.slug}/flights/{flight.slug}/"
    assert api.post(base + "rounds/", {}, format="json").status_code in (200, 201)
    tables = list(Pairing.objects.filter(flight=flight, round=1).order_by("table"))
    swapped = [[tables[0].entry_a_id, tables[1].entry_a_id], [tables[0].entry_b_id, tables[1].entry_b_id]]
    preview = api.post(base + "rounds/current/edit/preview/", {"pairs": swapped}, format="json")
    assert preview.status_code == 200
    assert preview.json()["rematches"] == []
    applied = api.post(base + "rounds/current/edit/", {"pairs": swapped, "confirm": True}, format="json")
    assert applied.status_code in (200, 201)
    first = open_tables(flight)[0]
    report(director_user, first)
    url = base + f"pairings/{first.pk}/correction/"
    assert api.post(url + "preview/", {"winner_side": 1}, format="json").status_code == 200
    body = {"winner_side": 1, "outcome": "played", "score_a": 1, "score_b": flight.length, "comment": "misread"}
    assert api.post(url, body, format="json").status_code in (200, 201)
    second = open_tables(flight)[0]
    dropped = api.post(base + f"entries/{second.entry_a_id}/drop/", {"score_remaining": True}, format="json")
    assert dropped.status_code in (200, 201)
