"""A game-record upload sent again with the same key is stored once (base.idempotency): the API's
Idempotency-Key, by file or pasted text, and the upload page's hidden key. A file's content, not its multipart
boundary, is what a retry must repeat."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from base.idempotency import REPLAYED_HEADER
from games.models import GameRecord, UploadBatch
from tests.clubs.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_a_retried_upload_by_file_or_text_is_stored_once(api_as, valid_bytes, flawed_bytes):
    client = api_as(UserFactory())
    answers = [
        client.post(
            "/api/v1/game-records/",
            {"file": SimpleUploadedFile("a.mat", valid_bytes)},
            format="multipart",
            HTTP_IDEMPOTENCY_KEY="up-1",
        )
        for _ in "12"
    ]
    assert [a.status_code for a in answers] == [201, 201] and answers[1].json() == answers[0].json()
    assert answers[1][REPLAYED_HEADER] == "true"
    assert GameRecord.objects.count() == 1
    text = {"text": flawed_bytes.decode()}  # another record: the same content is stored once anyway
    pasted = [client.post("/api/v1/game-records/", text, format="json", HTTP_IDEMPOTENCY_KEY="up-2") for _ in "12"]
    assert pasted[1].json() == pasted[0].json() and GameRecord.objects.count() == 2
    other = client.post(
        "/api/v1/game-records/",
        {"file": SimpleUploadedFile("a.mat", flawed_bytes)},
        format="multipart",
        HTTP_IDEMPOTENCY_KEY="up-1",
    )
    assert other.status_code == 409 and other.json()["code"] == "idempotency_key_reused"
    assert GameRecord.objects.count() == 2


def test_the_upload_form_sent_twice_uploads_once(client, valid_bytes):
    client.force_login(UserFactory())
    page = client.get(reverse("games:record-upload")).content.decode()
    key = page.split('name="idempotency_key" value="')[1].split('"')[0]
    answers = [
        client.post(
            reverse("games:record-upload"),
            {"files": SimpleUploadedFile("a.mat", valid_bytes), "idempotency_key": key},
        )
        for _ in "12"
    ]
    assert [a.status_code for a in answers] == [302, 302] and answers[0]["Location"] == answers[1]["Location"]
    assert UploadBatch.objects.count() == 1 and GameRecord.objects.count() == 1
