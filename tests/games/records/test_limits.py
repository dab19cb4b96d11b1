"""Uploads that once took a worker down are refused quickly, with the limit in the message, in bounded memory.

The sizes are those found when the site was probed: a 430 KB zip of 200 entries of 2 MiB (it grew a worker by
400 MiB and wrote 406 MB to disk), an SGF with 100,000 nested variations (37 s of CPU), a 1.8 MB escaped SGF
value (383 MiB), a 1.87 MB .mat with 40,000 games (a 32 MB record page taking 16.7 s) and request bodies of
500 MiB (accepted into temporary files). Each bomb is made here, in the test. Run with `-s` for the figures.
"""

from __future__ import annotations

import io
import time
import tracemalloc
import zipfile

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from backgammon.matchfiles.notation import MAX_ACTIONS, MAX_GAMES
from backgammon.matchfiles.sgf import MAX_DEPTH, MAX_VALUE_CHARS
from backgammon.verification import check_record
from games.models import GameRecord, RecordStatus
from games.records import services
from tests.clubs.factories import UserFactory

pytestmark = pytest.mark.django_db

MIB = 1024 * 1024
SLOW = 2.0  # seconds of CPU


@pytest.fixture(autouse=True)
def warm_worker(api_as, django_capture_on_commit_callbacks):
    """Time requests as a running worker answers them: its modules are loaded (the first upload of a fresh
    process spends most of a second importing, which is no property of the input)."""
    _upload(api_as(UserFactory()), "warm.sgf", b"(;GM[6]PW[a]PB[b])", django_capture_on_commit_callbacks)
    GameRecord.objects.all().delete()


def timed(label: str, call):
    """(result, CPU seconds) of `call()` (the whole request and its verification), printed with the wall time
    for the report. CPU time is what a bomb burns, and it does not grow when the shared cores are busy."""
    cpu, wall = time.process_time(), time.perf_counter()
    result = call()
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    print(f"\n{label}: {cpu * 1000:.0f} ms CPU, {wall * 1000:.0f} ms in all")
    return result, cpu


def peak_mib(label: str, call) -> float:
    """The peak of Python allocations while `call()` runs (measured apart: tracemalloc slows everything)."""
    tracemalloc.start()
    try:
        call()
    except Exception:  # noqa: S110  # the refusal itself is asserted by the request above
        pass
    finally:
        peak = tracemalloc.get_traced_memory()[1] / MIB
        tracemalloc.stop()
    print(f"{label}: peak {peak:.1f} MiB")
    return peak


def _upload(client, name: str, data: bytes, capture):
    with capture(execute=True):  # the verification task runs on commit, in-process
        return client.post("/api/v1/game-records/", {"file": SimpleUploadedFile(name, data)}, format="multipart")


def _verdict_of(response) -> tuple[str, str]:
    assert response.status_code == 201, response.content
    record = GameRecord.objects.get(pk=response.json()["records"][0]["id"])
    assert record.status == RecordStatus.UNREADABLE, record.verdict
    return record.status, record.verdict["errors"][0]["message"]


def test_a_zip_bomb_of_200_entries_of_2_mib_is_refused_without_reading_it(api_as, django_capture_on_commit_callbacks):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        for number in range(200):
            archive.writestr(f"match{number:03d}.mat", bytes(2 * MIB))
    bomb = buffer.getvalue()
    assert len(bomb) < 1 * MIB  # a few hundred KB that would expand to 400 MiB
    client = api_as(UserFactory())
    response, took = timed(
        f"zip bomb {len(bomb) // 1024} KB -> 400 MiB",
        lambda: _upload(client, "bomb.zip", bomb, django_capture_on_commit_callbacks),
    )
    assert response.status_code == 400
    assert "A zip may hold at most 20 MiB uncompressed; bomb.zip holds more." in str(response.json())
    assert GameRecord.objects.count() == 0  # nothing stored, nothing written to disk
    assert took < SLOW
    assert peak_mib("expanding the zip bomb", lambda: services.expand_zip("bomb.zip", bomb)) < 10


def test_a_zip_is_read_entry_by_entry_up_to_the_total_cap(settings):
    """Entries whose headers pass are still counted as they are read: the total stops at the cap."""
    settings.RECORDS_ZIP_MAX_UNCOMPRESSED = 3 * MIB
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for number in range(2):
            archive.writestr(f"m{number}.mat", bytes(MIB + MIB // 2))  # 1.5 MiB each: 3 MiB in all, fits
    assert [len(f.data) for f in services.expand_zip("ok.zip", buffer.getvalue())] == [MIB + MIB // 2] * 2
    with zipfile.ZipFile(buffer, "a", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("m2.mat", b"x")  # one byte too many
    with pytest.raises(Exception, match="at most 3 MiB uncompressed"):
        services.expand_zip("over.zip", buffer.getvalue())


SGF_BOMBS = {
    "nested.sgf": (
        ("(;GM[6]MI[length:3][game:0][ws:0][bs:0]" + "(;W[31hegf]" * 100_000 + ")" * 100_001).encode(),
        f"SGF variations may nest at most {MAX_DEPTH} deep; this record nests deeper.",
    ),
    "escaped.sgf": (
        ("(;GM[6]PW[a]PB[b]C[" + "\\]" * 900_000 + "])").encode(),  # 1.8 MB: one value of escaped brackets
        f"An SGF value may hold at most {MAX_VALUE_CHARS} characters; this one holds more.",
    ),
}


@pytest.mark.parametrize("name", SGF_BOMBS)
def test_an_sgf_bomb_is_unreadable_at_once_in_bounded_memory(name, api_as, django_capture_on_commit_callbacks):
    """100,000 nested variations took 37 s of CPU; a 1.8 MB escaped value grew the worker by 383 MiB."""
    sgf, expected = SGF_BOMBS[name]
    client = api_as(UserFactory())
    response, took = timed(
        f"SGF {name} ({len(sgf) // 1000} KB), upload and verification",
        lambda: _upload(client, name, sgf, django_capture_on_commit_callbacks),
    )
    status, message = _verdict_of(response)
    assert message == expected
    assert took < SLOW
    assert peak_mib("verifying it", lambda: check_record(sgf, name=name)) < 20


def _mat(games: int, rows_per_game: int = 1) -> bytes:
    lines = [" 0 point match", ""]
    for number in range(1, games + 1):
        lines += [f" Game {number}", " A : 0  B : 0"]
        lines += [" 1) 31: 8/5 6/5  42: 8/4"] * rows_per_game
    return ("\n".join(lines) + "\n").encode()


def test_a_mat_with_40000_games_is_unreadable_and_its_page_stays_small(api_as, django_capture_on_commit_callbacks):
    data = _mat(40_000)
    assert 1_800_000 < len(data) <= services.MAX_RECORD_BYTES
    user = UserFactory()
    response, took = timed(
        f".mat with 40,000 games ({len(data) // 1000} KB), upload and verification",
        lambda: _upload(api_as(user), "long.mat", data, django_capture_on_commit_callbacks),
    )
    status, message = _verdict_of(response)
    assert message == f"A record may hold at most {MAX_GAMES} games; this one holds more."
    assert took < SLOW
    assert peak_mib("verifying it", lambda: check_record(data, name="long.mat")) < 40
    page = Client()
    page.force_login(user)
    record_id = response.json()["records"][0]["id"]
    html, took = timed(
        "record page of the 40,000-game file", lambda: page.get(f"/records/{record_id}/", {"lines": "2"})
    )
    print(f"record page of the 40,000-game file: {len(html.content) // 1024} KB")
    assert html.status_code == 200
    assert len(html.content) < 300_000 and took < SLOW  # one page of 500 lines, not 160,000
    assert 'id="L501"' in html.content.decode() and 'id="L1001"' not in html.content.decode()
    pages = -(-len(data.decode().split("\n")) // 500)
    assert f"page 2 of {pages}" in html.content.decode()


def test_a_record_with_too_many_moves_is_unreadable_naming_the_limit():
    from backgammon.matchfiles.mat import RecordFormatError, parse_mat

    with pytest.raises(RecordFormatError, match=f"at most {MAX_ACTIONS} moves and cube actions"):
        parse_mat(_mat(1, rows_per_game=MAX_ACTIONS // 2 + 1))


def test_a_long_verdict_is_stored_bounded_and_shown_in_pages(api_as, django_capture_on_commit_callbacks):
    """A record within the limits may still have an error in every game: the page shows 100 at a time."""
    data = _mat(MAX_GAMES)  # every game unfinished: one error each
    user = UserFactory()
    response = _upload(api_as(user), "errors.mat", data, django_capture_on_commit_callbacks)
    record = GameRecord.objects.get(pk=response.json()["records"][0]["id"])
    assert record.status == RecordStatus.INVALID and len(record.verdict["errors"]) >= MAX_GAMES - 1
    page = Client()
    page.force_login(user)
    html = page.get(f"/records/{record.pk}/", {"errors": "3"}).content.decode()
    assert html.count('class="badge">') - html.count('class="badge">Crawford') <= 101  # 100 errors + the status
    assert 'start="201"' in html
    assert "page 3 of" in html


def test_a_verdict_keeps_at_most_1000_errors_and_says_how_many_more():
    verdict = {"errors": [{"message": f"e{n}\x00"} for n in range(1500)], "games": [], "players": ["A\x00", "B"]}
    bounded = services.bounded_verdict(verdict)
    assert len(bounded["errors"]) == services.MAX_VERDICT_ERRORS and bounded["errors_not_shown"] == 500
    assert bounded["players"] == ["A", "B"] and bounded["errors"][0]["message"] == "e0"


@pytest.mark.parametrize("path", ["/api/v1/game-records/", "/records/upload/"])
def test_a_request_body_over_the_cap_is_refused_with_413_before_it_is_read(path, settings):
    client = Client()
    client.force_login(UserFactory())
    claimed = 500 * MIB
    response, took = timed(
        f"POST {path} claiming 500 MiB",
        lambda: client.generic(
            "POST", path, b"x" * 1024, content_type="application/octet-stream", CONTENT_LENGTH=str(claimed)
        ),
    )
    assert response.status_code == 413
    assert "A request may carry at most 20 MiB; this one carries more." in response.content.decode()
    assert took < SLOW


def test_a_real_body_just_over_the_cap_is_refused_and_one_under_it_is_read(settings):
    settings.REQUEST_MAX_BODY_SIZE = 1 * MIB
    client = Client()
    client.force_login(UserFactory())
    over = SimpleUploadedFile("big.zip", bytes(MIB))  # the multipart envelope takes it past 1 MiB
    response = client.post("/api/v1/game-records/", {"file": over})
    assert response.status_code == 413 and response.json()["detail"].startswith("A request may carry at most 1 MiB")
    under = SimpleUploadedFile("small.mat", b" 1 point match\n")
    assert client.post("/api/v1/game-records/", {"file": under}).status_code == 201


def test_a_nul_in_an_sgf_player_name_gets_a_final_verdict(api_as, django_capture_on_commit_callbacks):
    """PostgreSQL refuses NUL in jsonb: the record used to stay 'verifying' for ever."""
    sgf = b"(;FF[4]GM[6]MI[length:1][game:0][ws:0][bs:0]PW[Ann\x00a]PB[B\x01ob\x1b]RE[W+1]\n;W[31hegf])\n"
    response = _upload(api_as(UserFactory()), "nul.sgf", sgf, django_capture_on_commit_callbacks)
    record = GameRecord.objects.get(pk=response.json()["records"][0]["id"])
    assert record.status in RecordStatus.finished()
    assert record.verdict["players"] == ["Anna", "Bob"]


def test_a_nul_in_an_uploaded_file_name_or_zip_entry_name_is_dropped(api_as, valid_bytes):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("dir/ma\x01tch.mat", valid_bytes)
    client = api_as(UserFactory())
    response = client.post(
        "/api/v1/game-records/", {"file": SimpleUploadedFile("r.zip", buffer.getvalue())}, format="multipart"
    )
    assert response.status_code == 201, response.content
    assert GameRecord.objects.get().name == "match.mat"
    refused = client.post("/api/v1/game-records/", {"text": "1 point match", "name": "a\x00b"}, format="json")
    assert refused.status_code == 400 and "NUL" in str(refused.json())
