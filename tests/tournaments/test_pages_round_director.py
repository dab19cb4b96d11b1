"""The directors' round pages (re-pairing a round with its rematch preview, correcting an earlier result with the
preview of what changes) and the public crosstable and wall sheet: nothing changes before "Apply", each page
costs the same queries for 8 and for 64 entrants, and the pages read in German."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation

from tests.tournaments.rounds_builders import open_tables, play_round, report, swiss_event
from tournaments import services
from tournaments.models import BracketChange, Pairing

pytestmark = pytest.mark.django_db


def _edit_url(event, flight):
    return reverse("tournaments:flight-edit-round", args=[event.club.slug, event.slug, flight.slug])


def _correction_url(event, flight, pairing):
    return reverse("tournaments:pairing-correction", args=[event.club.slug, event.slug, flight.slug, pairing.pk])


def _two_rounds(club, director, n=4):
    """A Swiss where round 1 is played (entry A won every table) and round 2 paired."""
    event, flight = swiss_event(club, director, n, rounds=3)
    services.start_round(actor=director, flight=flight)
    first = open_tables(flight)
    play_round(director, flight)  # auto pair: round 2 is paired
    return event, flight, first


def _form(tables):
    data = {}
    for i, (a, b) in enumerate(tables, start=1):
        data[f"a_{i}"], data[f"b_{i}"] = str(a), "" if b is None else str(b)
    return data


def test_re_pairing_shows_the_rematches_and_applies_only_when_confirmed(client, club, director_user):
    event, flight, first = _two_rounds(club, director_user)
    client.force_login(director_user)
    page = client.get(flight.get_absolute_url()).content.decode()
    assert "Re-pair round 2" in page and _edit_url(event, flight) in page
    form = client.get(_edit_url(event, flight)).content.decode()
    current = open_tables(flight)
    assert f'<option value="{current[0].entry_a_id}" selected>' in form
    rematch = [(p.entry_a_id, p.entry_b_id) for p in first]  # round 1 again: every pair a rematch
    preview = client.post(_edit_url(event, flight), _form(rematch)).content.decode()
    assert "These players met before:" in preview and "Apply, rematches included" in preview
    assert first[0].entry_a.player.name in preview.split("These players met before:")[1]
    assert [p.pk for p in open_tables(flight)] == [p.pk for p in current]  # nothing changed yet
    response = client.post(_edit_url(event, flight), _form(rematch) | {"confirm": "1"})
    assert response.status_code == 302
    now = {(p.entry_a_id, p.entry_b_id) for p in open_tables(flight)}
    assert now == set(rematch)
    assert BracketChange.objects.filter(flight=flight, kind="repair").exists()


def test_a_re_pairing_that_seats_a_player_twice_is_refused_on_the_page(client, club, director_user):
    event, flight, _first = _two_rounds(club, director_user)
    client.force_login(director_user)
    current = open_tables(flight)
    twice = [(current[0].entry_a_id, current[0].entry_a_id), (current[1].entry_a_id, current[1].entry_b_id)]
    page = client.post(_edit_url(event, flight), _form(twice) | {"confirm": "1"}).content.decode()
    assert "Seat every player of the round exactly once." in page
    assert [p.pk for p in open_tables(flight)] == [p.pk for p in current]
    junk = client.post(_edit_url(event, flight), {"a_1": "x", "b_1": "99999999999999999999"})
    assert junk.status_code == 200 and "Pair only the entries of this round" in junk.content.decode()


def test_a_round_someone_has_begun_is_not_offered_for_re_pairing_and_refused_if_posted(client, club, director_user):
    event, flight, _first = _two_rounds(club, director_user)
    current = open_tables(flight)
    report(director_user, current[0])
    client.force_login(director_user)
    assert "Re-pair round" not in client.get(flight.get_absolute_url()).content.decode()
    pairs = [(p.entry_a_id, p.entry_b_id) for p in current]
    page = client.post(_edit_url(event, flight), _form(pairs)).content.decode()
    assert "only a round nobody has begun can be re-paired" in page


def test_a_correction_shows_what_changes_and_applies_only_when_confirmed(client, club, director_user):
    event, flight, first = _two_rounds(club, director_user)
    table = Pairing.objects.get(pk=first[0].pk)
    client.force_login(director_user)
    page = client.get(flight.get_absolute_url() + "?round=1").content.decode()
    assert _correction_url(event, flight, table) in page
    data = {"outcome": "played", "score_a": "2", "score_b": "7", "comment": "scores swapped on the slip"}
    preview = client.post(_correction_url(event, flight, table), data).content.decode()
    assert "Round 2 was paired since: it stays as it is, nobody is paired again." in preview
    assert 'class="moved"' in preview and "Apply the correction" in preview
    assert 'value="1" id="id_winner_side_1" checked' in preview.replace('name="winner_side" ', "")
    table.refresh_from_db()
    assert table.winner_id == table.entry_a_id  # nothing changed yet
    response = client.post(_correction_url(event, flight, table), data | {"confirm": "1"})
    assert response.status_code == 302
    table.refresh_from_db()
    assert table.winner_id == table.entry_b_id and (table.score_a, table.score_b) == (2, 7)
    assert [p.pk for p in open_tables(flight)]  # round 2 stays paired


def test_a_correction_without_a_reason_or_winner_is_refused_on_its_field(client, club, director_user):
    event, flight, first = _two_rounds(club, director_user)
    client.force_login(director_user)
    page = client.post(_correction_url(event, flight, first[0]), {"outcome": "forfeit", "comment": ""})
    text = page.content.decode()
    assert 'id="id_comment_error"' in text and 'id="id_winner_side_error"' in text
    forfeit = {"outcome": "double_forfeit", "comment": "neither came"}
    assert "What would change" in client.post(_correction_url(event, flight, first[0]), forfeit).content.decode()


def test_only_a_director_opens_the_round_pages(client, club, director_user):
    event, flight, first = _two_rounds(club, director_user)
    client.force_login(first[0].entry_a.player.user)
    assert client.get(_edit_url(event, flight)).status_code == 403
    assert client.get(_correction_url(event, flight, first[0])).status_code == 403
    page = client.get(flight.get_absolute_url() + "?round=1").content.decode()
    assert "Re-pair round" not in page and "/correction/" not in page


def test_the_crosstable_and_the_wall_sheet(client, club, director_user):
    event, flight, first = _two_rounds(club, director_user, n=5)
    page = client.get(flight.get_absolute_url()).content.decode()
    assert "Crosstable" in page and 'class="crosstable"' in page and "?print=1" in page
    cross = page.split('class="crosstable"')[1].split("</table>")[0]
    assert "cell-win" in cross and "cell-loss" in cross and "cell-pending" in cross and ">bye<" in cross
    sheet = client.get(flight.get_absolute_url() + "?print=1").content.decode()
    assert "find your table" in sheet and "Standings" in sheet and "Round 2: tables" in sheet
    names = sheet.split('class="by-name"')[1].split("</ul>")[0]
    listed = [part.split("</span>")[0] for part in names.split('<span class="who">')[1:]]
    assert listed == sorted(listed, key=str.casefold) and len(listed) == 5


def test_a_groups_flight_shows_a_crosstable_per_group(client, club, director_user):
    _event, flight = swiss_event(club, director_user, 8, format="groups", group_size=4, advance=2)
    services.start_round(actor=director_user, flight=flight)
    play_round(director_user, flight)
    page = client.get(flight.get_absolute_url()).content.decode()
    assert page.count('class="crosstable"') == 2
    assert "Group B" in client.get(flight.get_absolute_url() + "?print=1").content.decode()


def test_the_round_pages_read_in_german(client, club, director_user):
    event, flight, first = _two_rounds(club, director_user)
    client.force_login(director_user)
    with translation.override("en"):
        de = {"headers": {"accept-language": "de"}}
        page = client.get(flight.get_absolute_url(), **de).content.decode()
        edit = client.get(_edit_url(event, flight), **de).content.decode()
        sheet = client.get(flight.get_absolute_url() + "?print=1", **de).content.decode()
        fix = client.get(_correction_url(event, flight, first[0]), **de).content.decode()
    assert "Kreuztabelle" in page and "Runde 2 neu auslosen" in page
    assert "Vorschau" in edit and "Finde deinen Tisch" in sheet and "Ergebnis berichtigen" in fix


def _queries(client, url):
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(url).status_code == 200
    return len(ctx.captured_queries)


@pytest.mark.parametrize("fmt", ["swiss", "round_robin", "groups"])
def test_each_page_costs_the_same_queries_for_8_and_64_entrants(client, club, director_user, fmt):
    settings = {"swiss": {"rounds": 3}, "round_robin": {}, "groups": {"group_size": 4, "advance": 2}}[fmt]
    counts = []
    for n in (8, 64):
        event, flight = swiss_event(club, director_user, n, format=fmt, **settings)
        services.start_round(actor=director_user, flight=flight)
        play_round(director_user, flight)
        client.force_login(director_user)
        table = Pairing.objects.filter(flight=flight, round=1).exclude(entry_b=None).first()
        urls = [
            flight.get_absolute_url(),
            flight.get_absolute_url() + "?round=1",
            flight.get_absolute_url() + "?print=1",
            _edit_url(event, flight),
            _correction_url(event, flight, table),
            reverse("tournaments:flight-add", args=[club.slug, event.slug]),
        ]
        counts.append([_queries(client, url) for url in urls])
        with CaptureQueriesContext(connection) as ctx:
            client.post(_correction_url(event, flight, table), {"outcome": "double_forfeit", "comment": "x"})
        counts[-1].append(len(ctx.captured_queries))
    assert counts[0] == counts[1]
