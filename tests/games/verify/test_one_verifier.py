"""One verifier entry point: `verify_match` and an upload give the same verdict for every record of every game,
because both go through backgammon.record_routing, and the Variation header is matched the same way everywhere.

`verify_match` used to call the backgammon verifier directly, so every valid long nardy record was "invalid at
move 1: 24/19: the 19-point is blocked"; and a header written `LongNardy`, which the nardy reader accepts, was
sent to the backgammon verifier by the router."""

import contextlib
import json
import re
from pathlib import Path

import pytest
from django.core.management import call_command

from backgammon.backward_play import random_match as random_backward
from backgammon.dave.random_play import random_session
from backgammon.dave.record import write_dave
from backgammon.matchfiles.mat import write_mat
from backgammon.nardy.random_play import random_match as random_nardy
from backgammon.nardy.record import write_nardy
from backgammon.record_routing import check_any_record, record_game
from games.models import GameRecord
from games.records import services
from games.records.services import UploadedFile
from tests.clubs.factories import UserFactory
from tests.paths import CORPUS, REPO

pytestmark = pytest.mark.django_db


def renamed_variation(text: str, written: str) -> str:
    return re.sub(r'(\[Variation ")[^"]*(")', lambda m: m.group(1) + written + m.group(2), text, count=1)


def records() -> dict[str, bytes]:
    """Every corpus file, and self-played records of the games the corpus has none of (long nardy, the Dave,
    backward hitting), the long nardy and Dave ones also with their Variation written as people write it."""
    found = {path.relative_to(CORPUS).as_posix(): path.read_bytes() for path in sorted(CORPUS.rglob("*.mat"))}
    for seed in (1, 2):
        nardy = write_nardy(random_nardy(seed=seed, length=3))
        dave = write_dave(random_session(seed=seed, games=2, players=("Anna", "Boris")))
        found[f"nardy_{seed}.mat"] = nardy.encode()
        found[f"dave_{seed}.mat"] = dave.encode()
        found[f"backward_{seed}.mat"] = write_mat(random_backward(seed=seed, length=3)).encode()
        for written in ("LongNardy", "long  nardy", "LONG NARDY"):
            found[f"nardy_{seed}_{written}.mat"] = renamed_variation(nardy, written).encode()
        found[f"dave_{seed}_spaced.mat"] = renamed_variation(dave, "short backgammon  with DAVE").encode()
    return found


RECORDS = records()


def test_the_corpus_and_the_self_played_records_cover_every_game():
    games = {record_game(data, name=name) for name, data in RECORDS.items()}
    assert {"standard", "nackgammon", "backward", "long_nardy", "dave"} <= games
    for name, data in RECORDS.items():
        if name.startswith("nardy_"):
            assert record_game(data, name=name) == "long_nardy", name
            assert check_any_record(data, name=name)[0] == "valid", name
        if name.startswith("dave_"):
            assert record_game(data, name=name) == "dave", name
            assert check_any_record(data, name=name)[0] == "valid", name


def verify_match(tmp_path: Path, capsys, name: str, data: bytes) -> dict:
    path = tmp_path / Path(name).name
    path.write_bytes(data)
    with contextlib.suppress(SystemExit):
        call_command("verify_match", str(path), "--json")
    verdict = json.loads(capsys.readouterr().out)
    verdict.pop("file")
    return verdict


def test_verify_match_gives_the_verdict_an_upload_gets_for_every_record(tmp_path, capsys, settings):
    settings.MEDIA_ROOT = tmp_path / "media"
    uploader = UserFactory()
    compared = 0
    for name, data in RECORDS.items():
        command = verify_match(tmp_path, capsys, name, data)
        batch = services.upload_records(uploader=uploader, files=[UploadedFile(Path(name).name, data)])
        record = GameRecord.objects.get(batches=batch)
        services.verify_record(record_id=record.pk)
        record.refresh_from_db()
        stored = {key: value for key, value in record.verdict.items() if key not in ("file", "variant", "settings")}
        assert stored == command, name
        assert record.status == ("valid" if command["valid"] else record.status), name
        compared += 1
    assert compared == len(RECORDS) > 120


def test_no_code_of_the_apps_calls_a_games_own_verifier_but_the_router():
    """Uploads, reports, the demo and the command all reach a verifier through record_routing.check_any_record."""
    direct = re.compile(r"\b(check_record|check_nardy_record|check_dave_record)\(")
    allowed = {"backgammon/record_routing.py", "backgammon/verification.py", "backgammon/nardy/verification.py",
               "backgammon/dave/verification.py"}
    offenders = []
    for app in ("accounts", "base", "chouette", "clubs", "games", "notifications", "points", "ratings",
                "tournaments", "config"):
        for path in (REPO / app).rglob("*.py"):
            relative = path.relative_to(REPO).as_posix()
            if relative not in allowed and direct.search(path.read_text(encoding="utf-8")):
                offenders.append(relative)
    assert offenders == []
