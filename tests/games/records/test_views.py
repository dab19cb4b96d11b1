"""The record pages: list, upload form, an upload's progress, and the verdict with error lines highlighted."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils.html import escape

from games.models import GameRecord
from tests.clubs.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_upload_page_verifies_and_redirects_to_progress(client, valid_bytes, django_capture_on_commit_callbacks):
    client.force_login(UserFactory())
    assert client.get(reverse("games:record-upload")).status_code == 200
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("games:record-upload"), {"files": SimpleUploadedFile("a.mat", valid_bytes)})
    assert response.status_code == 302
    page = client.get(response["Location"])
    assert b"a.mat" in page.content and b"1 of 1 verified" in page.content
    assert b"games/records.js" in page.content


def test_record_page_highlights_the_error_line(client, flawed_bytes, django_capture_on_commit_callbacks):
    client.force_login(UserFactory())
    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("games:record-upload"), {"files": SimpleUploadedFile("f.mat", flawed_bytes)})
    record = GameRecord.objects.get()
    line = record.verdict["errors"][0]["line"]
    page = client.get(reverse("games:record-detail", args=[record.pk])).content.decode()
    assert f'id="L{line}" class="record-line has-error"' in page
    assert f'href="#L{line}"' in page
    # People read the error's message; the code (wrong_points) is for scripts and not shown.
    assert escape(record.verdict["errors"][0]["message"]) in page and "wrong_points" not in page
    # the error reads as words, not as its code
    assert "The game is scored with the wrong points" in page
    german = client.get(reverse("games:record-detail", args=[record.pk]), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Das Spiel wird mit falschen Punkten gewertet" in german


def test_upload_page_shows_a_clear_message_for_a_bad_zip(client):
    client.force_login(UserFactory())
    response = client.post(
        reverse("games:record-upload"), {"files": SimpleUploadedFile("x.zip", b"PK\x03\x04junk")}, follow=True
    )
    assert "not a readable zip archive" in response.content.decode()
    assert GameRecord.objects.count() == 0


def test_list_needs_sign_in_and_shows_own_records(client, valid_bytes):
    assert client.get(reverse("games:record-list")).status_code == 302
    client.force_login(UserFactory())
    client.post(reverse("games:record-upload"), {"text": valid_bytes.decode()})
    assert b"pasted.mat" in client.get(reverse("games:record-list")).content


def test_pages_speak_german(client):
    client.force_login(UserFactory())
    page = client.get(reverse("games:record-upload"), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Partien hochladen" in page and "Hochladen und prüfen" in page


def test_the_record_of_a_match_is_uploaded_from_the_match_and_picked_to_report_it(
    client, valid_bytes, django_capture_on_commit_callbacks
):
    from tests.games.matchplay.factories import MatchFactory

    match = MatchFactory(length=3)
    client.force_login(match.player_a.user)
    match_page = client.get(match.get_absolute_url()).content.decode()
    upload_url = f"{reverse('games:record-upload')}?match={match.pk}"
    assert escape(upload_url) in match_page and "Upload the record of this match" in match_page
    assert match.player_b.name in client.get(upload_url).content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        client.post(upload_url, {"files": SimpleUploadedFile("ours.mat", valid_bytes), "match": match.pk})
    record = GameRecord.objects.get()
    assert record.match == match and record.status == "valid"
    # The report form offers the record by name, players and score instead of asking for its number.
    picker = client.get(match.get_absolute_url()).content.decode()
    assert f'<option value="{record.pk}">ours.mat · gnubg – root · 1–4</option>' in picker
    listing = client.get(reverse("games:record-list")).content.decode()
    assert "gnubg – root" in listing and 'data-label="Length">3<' in listing
