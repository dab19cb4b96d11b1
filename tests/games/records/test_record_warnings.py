"""The record page shows a valid record's warnings apart from errors, in words (English or German), never codes."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import translation

from games.models import GameRecord
from tests.clubs.factories import UserFactory
from tests.paths import CORPUS

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def language_restored():
    # A German request leaves German active on this thread; the tests after this one expect the default.
    yield
    translation.activate("en")


def upload(client, name: str, django_capture_on_commit_callbacks) -> GameRecord:
    client.force_login(UserFactory())
    data = (CORPUS / "untidy" / name).read_bytes()
    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("games:record-upload"), {"files": SimpleUploadedFile("club-night.mat", data)})
    return GameRecord.objects.get()


def test_renamed_player_is_shown_as_a_warning_on_a_valid_record(client, django_capture_on_commit_callbacks):
    record = upload(client, "player_renamed.mat", django_capture_on_commit_callbacks)
    assert record.status == "valid" and record.verdict["warnings"][0]["code"] == "player_renamed"
    page = client.get(reverse("games:record-detail", args=[record.pk])).content.decode()
    assert "<h2>Warnings</h2>" in page and "<h2>Errors</h2>" not in page
    assert "Game 2 writes GNU Bg where the games before it have gnubg" in page
    assert 'id="L34" class="record-line has-warning"' in page and 'href="#L34"' in page
    assert "player_renamed" not in page


def test_mid_match_start_is_shown_in_german(client, django_capture_on_commit_callbacks):
    record = upload(client, "starts_mid_match.mat", django_capture_on_commit_callbacks)
    assert record.status == "valid"
    url = reverse("games:record-detail", args=[record.pk])
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "<h2>Hinweise</h2>" in page and "Die Aufzeichnung beginnt mitten im Match" in page
    assert "starts_mid_match" not in page


def test_api_gives_the_warnings_with_the_verdict(client, django_capture_on_commit_callbacks):
    record = upload(client, "starts_mid_match.mat", django_capture_on_commit_callbacks)
    body = client.get(f"/api/v1/game-records/{record.pk}/").json()
    assert body["status"] == "valid" and body["verdict"]["errors"] == []
    assert [(w["code"], w["game"], w["line"]) for w in body["verdict"]["warnings"]] == [("starts_mid_match", 1, 6)]
