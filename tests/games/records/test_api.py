"""The game-record API: upload by file, text or zip, the batch's progress, visibility, and no 500 for any bytes."""

import io
import zipfile

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.models import GameRecord
from tests.clubs.factories import UserFactory
from tests.games.matchplay.factories import MatchFactory

pytestmark = pytest.mark.django_db


def test_upload_text_returns_the_batch_with_its_verdicts(api_as, valid_bytes, django_capture_on_commit_callbacks):
    client = api_as(UserFactory())
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post("/api/v1/game-records/", {"text": valid_bytes.decode()}, format="json")
    assert response.status_code == 201, response.content
    batch_id = response.json()["id"]
    progress = client.get(f"/api/v1/record-uploads/{batch_id}/").json()
    assert (progress["total"], progress["done"], progress["valid"]) == (1, 1, 1)
    record = client.get(f"/api/v1/game-records/{progress['records'][0]['id']}/").json()
    assert record["status"] == "valid" and record["verdict"]["final_score"] == [1, 4]


def test_upload_zip_file_shows_progress(api_as, valid_bytes, flawed_bytes):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("a.mat", valid_bytes)
        archive.writestr("b.mat", flawed_bytes)
    upload = SimpleUploadedFile("records.zip", buffer.getvalue(), content_type="application/zip")
    response = api_as(UserFactory()).post("/api/v1/game-records/", {"file": upload}, format="multipart")
    assert response.status_code == 201
    body = response.json()
    # The tasks run on commit, after the response was built: the batch is reported as not yet verified.
    assert (body["total"], body["done"]) == (2, 0)
    assert {r["status"] for r in body["records"]} == {"pending"}


def test_oversized_upload_answers_400_naming_the_limit(api_as):
    upload = SimpleUploadedFile("big.mat", b"x" * (2 * 1024 * 1024 + 1))
    response = api_as(UserFactory()).post("/api/v1/game-records/", {"file": upload}, format="multipart")
    assert response.status_code == 400
    assert "2 MiB" in str(response.json())


def test_empty_upload_answers_400(api_as):
    response = api_as(UserFactory()).post("/api/v1/game-records/", {}, format="json")
    assert response.status_code == 400 and "text" in response.json()["errors"]


def test_records_are_visible_to_their_uploader_only(api_as, valid_bytes):
    owner, other = UserFactory(), UserFactory()
    api_as(owner).post("/api/v1/game-records/", {"text": valid_bytes.decode()}, format="json")
    record = GameRecord.objects.get()
    assert api_as(owner).get(f"/api/v1/game-records/{record.pk}/").status_code == 200
    assert api_as(other).get(f"/api/v1/game-records/{record.pk}/").status_code == 404
    assert api_as(None).get("/api/v1/game-records/").status_code in (401, 403)


def test_record_list_query_count_does_not_grow(api_as, django_assert_max_num_queries):
    user = UserFactory()
    client = api_as(user)
    for n in range(5):
        client.post("/api/v1/game-records/", {"text": f"{n} point match\n"}, format="json")
    with django_assert_max_num_queries(4):
        assert len(client.get("/api/v1/game-records/").json()["results"]) == 5
    with django_assert_max_num_queries(5):
        assert len(client.get("/api/v1/record-uploads/").json()["results"]) == 5


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    data=st.one_of(
        st.binary(min_size=1, max_size=300),
        st.binary(max_size=300).map(lambda tail: b"PK\x03\x04" + tail),  # looks like a zip
        st.binary(max_size=300).map(lambda tail: b"(;GM[6]" + tail),  # looks like SGF
        st.binary(max_size=300).map(lambda tail: b" 5 point match\n Game 1\n" + tail),
    )
)
def test_no_byte_sequence_gives_a_500(api_as, data, django_capture_on_commit_callbacks):
    user = UserFactory()
    upload = SimpleUploadedFile("any.mat", data)
    with django_capture_on_commit_callbacks(execute=True):  # verification runs too
        response = api_as(user).post("/api/v1/game-records/", {"file": upload}, format="multipart")
    assert response.status_code in (201, 400)
    assert not GameRecord.objects.exclude(status__in=["valid", "invalid", "unreadable"]).exists()
    GameRecord.objects.all().delete()


def test_a_player_attaches_a_record_to_their_match_and_the_opponent_sees_it(api_as, valid_bytes):
    match = MatchFactory()
    response = api_as(match.player_a.user).post(
        "/api/v1/game-records/", {"text": valid_bytes.decode(), "match": match.pk}, format="json"
    )
    assert response.status_code == 201
    record = GameRecord.objects.get()
    assert record.match == match
    assert api_as(match.player_b.user).get(f"/api/v1/game-records/{record.pk}/").status_code == 200


def test_an_outsider_cannot_attach_a_record_to_a_match(api_as, valid_bytes):
    match = MatchFactory()
    response = api_as(UserFactory()).post(
        "/api/v1/game-records/", {"text": valid_bytes.decode(), "match": match.pk}, format="json"
    )
    assert response.status_code == 403
    assert GameRecord.objects.count() == 0


def test_a_private_match_is_named_to_an_outsider_as_no_match_at_all(api_as, valid_bytes):
    """A private match's id answered 403 "may not attach" where an unknown id answered 400 "does not exist": an
    outsider could find which private matches exist. Both now get the same answer, and nothing is stored."""
    private = MatchFactory(is_public=False)
    outsider = api_as(UserFactory())
    answers = []
    for pk in (private.pk, private.pk + 1000):
        response = outsider.post("/api/v1/game-records/", {"text": valid_bytes.decode(), "match": pk}, format="json")
        answers.append((response.status_code, str(response.json()["errors"]).replace(str(pk), "<id>")))
    assert answers[0] == answers[1] and answers[0][0] == 400
    assert GameRecord.objects.count() == 0
    assert (
        api_as(private.player_a.user)
        .post(  # the match's own player still attaches to it
            "/api/v1/game-records/", {"text": valid_bytes.decode(), "match": private.pk}, format="json"
        )
        .status_code
        == 201
    )


def test_uploading_someone_elses_bytes_never_opens_their_record(
    api_as, client, valid_bytes, django_capture_on_commit_callbacks
):
    """Hole 5: the same bytes as another user's private record made that record readable (404 -> 200), with its
    uploader and its private match id. The second uploader gets a record of their own."""
    match = MatchFactory()
    owner = match.player_a.user
    with django_capture_on_commit_callbacks(execute=True):
        api_as(owner).post("/api/v1/game-records/", {"text": valid_bytes.decode(), "match": match.pk}, format="json")
    private = GameRecord.objects.get()
    prober = UserFactory()
    api = api_as(prober)
    assert api.get(f"/api/v1/game-records/{private.pk}/").status_code == 404
    with django_capture_on_commit_callbacks(execute=True):
        response = api.post("/api/v1/game-records/", {"text": valid_bytes.decode()}, format="json")
    assert response.status_code == 201
    batch = response.json()
    assert [r["id"] for r in batch["records"]] != [private.pk]
    assert api.get(f"/api/v1/game-records/{private.pk}/").status_code == 404
    own = api.get(f"/api/v1/game-records/{batch['records'][0]['id']}/").json()
    assert own["uploader"] == prober.get_username() and own["match"] is None and own["status"] == "valid"
    listed = api.get("/api/v1/game-records/").json()
    rows = listed["results"] if isinstance(listed, dict) else listed
    assert [row["id"] for row in rows] == [own["id"]]
    client.force_login(prober)
    page = client.post("/records/upload/", {"text": valid_bytes.decode()}, follow=True)
    assert page.status_code == 200
    assert client.get(f"/records/{private.pk}/").status_code == 404
    assert owner.get_username() not in client.get("/records/").content.decode()
    assert set(GameRecord.objects.exclude(uploader=prober).values_list("uploader", flat=True)) == {owner.pk}
