"""Schemathesis against the API's own schema, as an anonymous visitor, a player and a director, every check on.

    .venv/bin/python tools/api_fuzz.py            # or: make apifuzz

It makes a throwaway database (SQLite in a temporary folder; `--database-url postgres://…/name` for a PostgreSQL
database, which it drops and creates), migrates it, loads the demo (`manage.py load_demo`) so the ids the
fuzzer finds are real, makes API tokens for the demo's player `anna` and its `director`, serves the site with
uvicorn on a free loopback port and runs `schemathesis run --checks all` once per role against /api/schema/.
The fuzzer writes (POST, PUT, PATCH, DELETE): that is what the throwaway database is for. Generation is seeded
and deterministic, so a failure comes back on the next run. It prints one line per role and check and exits 1 on
any failure (docs/api.md, "The schema fuzzer").

Exclusions live in `EXCLUDED`, below, each with its reason; nothing else is left out.
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
ROLES = {"anonymous": None, "player": "anna", "director": "director"}
SEED = 20260101

#: Intended answers a check reports as failures: (operation as schemathesis names it, check) -> why. Schemathesis
#: runs every check everywhere and reports these too; the runner leaves them out of its count and says so. Each
#: entry is one check of one operation; a whole check is never left out.
EXCLUDED: dict[tuple[str, str], str] = {
    ("POST /api/v1/auth/token/", "positive_data_acceptance"): (
        "The fuzzer cannot know a password: a username and password that do not sign in are bad input, 400 "
        "`invalid` (DRF's AuthTokenSerializer; docs/api.md). Signing in is proved by tests/core/test_auth_tokens.py."
    ),
    # A match's games, reports and overrides: which schema-valid body the rules take depends on the match, not on
    # the body. The cube a game takes is a power of two with the cube, a stake of the match's Dave progression
    # with Dave stakes (1, 2, 3, … when arithmetic) and always 1 in long nardy; no cube in the Crawford game; no
    # game after the match is decided; a report "by the scoresheet" (method `games`) only once it has a winner
    # (games.matchplay.state, tests/games/matchplay/). One schema for every match cannot say these.
    ("POST /api/v1/matches/{id}/games/", "positive_data_acceptance"): (
        "The cube values and the games a match takes depend on its stakes, variant and score (see above)."
    ),
    ("POST /api/v1/chouette/sessions/{id}/games/", "positive_data_acceptance"): (
        "A chouette game needs its result, `winner` or each member's in `member_results`: one of two fields, a rule "
        "across fields the schema of the input does not say (chouette.core, 400 `no_result`)."
    ),
    ("POST /api/v1/matches/{id}/reports/", "positive_data_acceptance"): (
        "A report by the scoresheet (`games`) needs a scoresheet with a winner; scores must fit the match length."
    ),
    ("POST /api/v1/payout-tables/{club}/", "positive_data_acceptance"): (
        "A club's payout table: each band's percentages total 100, no band overlaps another, the bands cover every "
        "field from 2 players up, the places of a band fit its smallest field: rules across the items that the "
        "schema of one band cannot say (tournaments.core.payout_tables, 400 on `bands` saying what would work)."
    ),
    ("PUT /api/v1/events/{club}/{slug}/flights/{flight}/cap/", "positive_data_acceptance"): (
        "A flight's cap must hold the entries already in and the places already offered: a rule on the flight's "
        "state, not the body (tournaments.services.waiting, 400 on `cap` naming the lowest cap that works)."
    ),
    ("POST /api/v1/events/{club}/{slug}/flights/{flight}/waiting-list/{id}/move/", "positive_data_acceptance"): (
        "A move-up goes to a place above the player's own on the list, with a reason that is more than blanks: "
        "the list's state decides which places work (400 on `to_place` or `reason` saying which)."
    ),
    ("POST /api/v1/matches/{id}/override/", "positive_data_acceptance"): (
        "As for reports: a director's result by the scoresheet needs a scoresheet with a winner."
    ),
    # A club's event templates (data.api): a name is refused when it is only spaces or holds control characters,
    # or when the club's templates have it already; a started event's short name, made from its name when not
    # given, may be taken by an event started before (409).
    ("POST /api/v1/clubs/{club}/event-templates/", "positive_data_acceptance"): (
        "A template's name: no control characters, not only spaces, not a name the club has (see above)."
    ),
    ("PATCH /api/v1/clubs/{club}/event-templates/{id}/", "positive_data_acceptance"): (
        "A template's name: no control characters, not only spaces, not a name the club has (see above)."
    ),
    ("POST /api/v1/clubs/{club}/event-templates/{id}/start/", "positive_data_acceptance"): (
        "The new event's name must not be only spaces and its short name must be free in the club (see above)."
    ),
}

#: Ids in a request body that name other rows (a player, a club, a bidder): the fuzzer cannot know which exist or
#: which the role may see, and a body naming one that does not is bad input, 400 `invalid` on that field
#: (docs/api.md, "Errors"). A schema-valid body refused 400 with only these fields at fault is intended; a refusal
#: of any other field of the same operation still fails the run. Operation -> its reference fields.
REFERENCES: dict[str, set[str]] = {
    "POST /api/v1/calcuttas/": {"flight"},
    "POST /api/v1/calcuttas/{id}/bidders/": {"player", "user"},
    "POST /api/v1/calcuttas/{id}/bids/": {"lot", "bidder"},
    "POST /api/v1/calcuttas/{id}/buy-back/": {"lot", "bidder"},
    "POST /api/v1/calcuttas/{id}/paid/": {"bidder"},
    "POST /api/v1/calcuttas/{id}/syndicate/": {"lot", "holder"},
    "POST /api/v1/chouette/sessions/": {"club", "players", "stakes"},  # stakes: keyed by player id
    "POST /api/v1/chouette/sessions/{id}/seats/": {"player"},
    "POST /api/v1/chouette/sessions/{id}/invitations/": {"players"},
    "POST /api/v1/chouette/sessions/{id}/order/": {"order", "rolls"},  # player ids: the order, the rolls' keys
    "POST /api/v1/clubs/{club}/event-templates/": {"event"},  # an event of the club
    "POST /api/v1/events/": {"club"},
    "POST /api/v1/events/{club}/{slug}/flights/{flight}/waiting-list/": {"player"},
    "POST /api/v1/game-records/": {"match"},
    "POST /api/v1/matches/": {"club", "player_a", "player_b"},
    "POST /api/v1/matches/{id}/confirm/": {"version"},
    "POST /api/v1/matches/{id}/disputes/": {"version"},
    "POST /api/v1/matches/{id}/reports/": {"game_record"},
    "POST /api/v1/memberships/": {"club", "player", "username"},
    "POST /api/v1/players/": {"club"},
    "POST /api/v1/walk-in-claims/": {"player"},
}


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _environment(database_url: str, media: str) -> dict[str, str]:
    return {
        **os.environ,
        "DEBUG": "0",
        "SECRET_KEY": os.environ.get("SECRET_KEY") or "apifuzz-only-not-a-secret",
        "DATABASE_URL": database_url,
        "STATIC_MANIFEST": "0",
        "SECURE_COOKIES": "0",
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "MEDIA_ROOT": media,
        "DEMO_PASSWORD": "apifuzz-demo-password",
        # No broker: record verification runs in the request (eagerly), as on a fresh checkout.
        "CELERY_BROKER_URL": "",
        "CHANNEL_LAYER_URL": "",
        "CACHE_URL": "",
        # The fuzzer signs in and fails sign-ins many times from one address; the lockout is not what it tests.
        "LOGIN_FAILURE_LIMIT": "10000",
        "LOGIN_ADDRESS_FAILURE_LIMIT": "1000000",
        "DJANGO_SETTINGS_MODULE": "config.settings",
    }


def _recreate_postgres(url: str) -> None:
    import psycopg

    server, name = url.rsplit("/", 1)
    with psycopg.connect(f"{server}/postgres", autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        connection.execute(f'CREATE DATABASE "{name}"')


def _manage(env: dict[str, str], *args: str) -> str:
    result = subprocess.run([sys.executable, "manage.py", *args], cwd=REPO, env=env, capture_output=True, text=True)
    if result.returncode:
        raise SystemExit(f"apifuzz: manage.py {args[0]} failed\n{result.stdout[-3000:]}{result.stderr[-3000:]}")
    return result.stdout


TOKENS_SCRIPT = """
import json
from django.contrib.auth import get_user_model
from accounts import services
users = get_user_model().objects
print(json.dumps({u: services.create_token(user=users.get(username=u), name="apifuzz")[1] for u in %r}))
"""


def _tokens(env: dict[str, str]) -> dict[str, str]:
    usernames = [u for u in ROLES.values() if u]
    out = _manage(env, "shell", "-c", TOKENS_SCRIPT % (usernames,))
    return json.loads(out.strip().splitlines()[-1])


def _wait_up(url: str, server: subprocess.Popen, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit(f"apifuzz: the server exited with {server.returncode}")
        with contextlib.suppress(OSError), urllib.request.urlopen(url, timeout=5) as answer:
            if answer.status == 200:
                return
        time.sleep(0.3)
    raise SystemExit(f"apifuzz: the server did not answer {url} in {timeout:.0f} s")


def _fields_at_fault(response: dict) -> list[str]:
    """The fields a 400 answer names in its `errors` (the API's one error body, docs/api.md)."""
    content = response.get("content") or {}
    try:
        raw = base64.b64decode(content["$base64"]) if isinstance(content, dict) else str(content).encode()
        return sorted(json.loads(raw).get("errors") or {})
    except (KeyError, ValueError, AttributeError):
        return []


def excused(item: dict) -> bool:
    """An intended answer: listed in EXCLUDED, or a schema-valid body refused only because the ids it names are of
    rows that do not exist (REFERENCES)."""
    if (item["operation"], item["check"]) in EXCLUDED:
        return True
    references = REFERENCES.get(item["operation"])
    return bool(
        references
        and item["check"] == "positive_data_acceptance"
        and item["status"] == 400
        and item["fields"]
        and {field.split(".")[0] for field in item["fields"]} <= references  # "players.0": an item of players
    )


def failures(report: Path) -> list[dict]:
    """The unique failures in schemathesis's ndjson event stream: operation, check, code, title, message."""
    found: dict[tuple, dict] = {}
    for line in report.read_text().splitlines():
        event = json.loads(line)
        error = event.get("NonFatalError")
        if error:  # schemathesis could not test an operation: counted as a failure of its own
            value = error.get("value") or {}
            label = error.get("label") or "?"
            found[(label, "error", value.get("type"))] = {
                "operation": label,
                "check": "error",
                "code": value.get("type", ""),
                "title": "error",
                "message": (value.get("message") or "")[:300],
                "case": {},
            }
        finished = event.get("ScenarioFinished")
        if not finished:
            continue
        recorder = finished.get("recorder") or {}
        for case_id, checks in (recorder.get("checks") or {}).items():
            for check in checks:
                if check.get("status") == "success":
                    continue
                failure = (check.get("failure_info") or {}).get("failure") or {}
                case = ((recorder.get("cases") or {}).get(case_id) or {}).get("value") or {}
                response = ((recorder.get("interactions") or {}).get(case_id) or {}).get("response") or {}
                key = (failure.get("operation") or recorder.get("label"), check.get("name"), failure.get("title"))
                found.setdefault(
                    key,
                    {
                        "operation": key[0],
                        "check": key[1],
                        "code": failure.get("code", ""),
                        "title": key[2],
                        "message": (failure.get("message") or "").replace("\n", " | ")[:300],
                        "case": {k: case.get(k) for k in ("path_parameters", "query", "body", "media_type")},
                        "status": response.get("status_code"),
                        "fields": _fields_at_fault(response),
                    },
                )
    return list(found.values())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--database-url", help="a PostgreSQL URL whose database is dropped and made anew")
    parser.add_argument("--roles", default=",".join(ROLES), help="comma-separated, of " + ", ".join(ROLES))
    parser.add_argument("--max-examples", type=int, default=int(os.environ.get("APIFUZZ_EXAMPLES", "20")))
    parser.add_argument("--seed", type=int, default=SEED)
    # One worker: the run is then the same every time (two share the database in an order that varies), and
    # hypothesis's source inspection is not thread-safe on Python 3.11 ("AST constructor recursion depth mismatch").
    parser.add_argument("--workers", default="1")
    parser.add_argument("--report-dir", help="keep schemathesis's reports here (default: a temporary folder)")
    parser.add_argument("extra", nargs="*", help="more schemathesis options, after --")
    args = parser.parse_args(argv)

    folder = Path(tempfile.mkdtemp(prefix="apifuzz-"))
    database_url = args.database_url or f"sqlite:///{folder / 'db.sqlite3'}"
    env = _environment(database_url, str(folder / "media"))
    server = None
    started = time.monotonic()
    try:
        if args.database_url:
            _recreate_postgres(database_url)
        _manage(env, "migrate", "--noinput")
        _manage(env, "load_demo")
        tokens = _tokens(env)
        port = _free_port()
        base = f"http://127.0.0.1:{port}"
        log = (folder / "server.log").open("w")
        server = subprocess.Popen(
            [sys.executable, "-m", "uvicorn", "config.asgi:application", "--host=127.0.0.1", f"--port={port}",
             "--no-access-log", "--log-level=warning"],
            cwd=REPO, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
        _wait_up(f"{base}/api/schema/?format=json", server)
        reports = Path(args.report_dir) if args.report_dir else folder / "reports"
        print(f"apifuzz: ready in {time.monotonic() - started:.0f} s; schemathesis on {base}", flush=True)
        total = 0
        lines = []
        for role in args.roles.split(","):
            role_started = time.monotonic()
            headers = ["-H", f"Authorization: Token {tokens[ROLES[role]]}"] if ROLES[role] else []
            ndjson = reports / f"{role}.ndjson"
            command = [
                str(Path(sys.executable).parent / "schemathesis"), "run",
                f"{base}/api/schema/?format=json", "--url", base,
                "--checks", "all", "--max-examples", str(args.max_examples), "--seed", str(args.seed),
                "--generation-deterministic", "--workers", args.workers,
                "--no-color", "--report", "ndjson", "--report-ndjson-path", str(ndjson),
                "--suppress-health-check", "all", "--request-timeout", "30",
                # The API refuses a NUL anywhere in a request (base/parsers.py, base/middleware.py; PostgreSQL cannot
                # store it) with 400 `nul_character`: one rule for every string, not a constraint of each field.
                "--generation-allow-x00", "false",
                *headers, *args.extra,
            ]  # fmt: skip
            code = subprocess.run(command, cwd=folder, env=env).returncode
            found = failures(ndjson) if ndjson.exists() else []
            excused_items = [item for item in found if excused(item)]
            found = [item for item in found if not excused(item)]
            by_check = Counter(f"{item['check']} ({item['code']})" for item in found)
            # schemathesis exits 1 for the excluded failures too; without any failure in its report it failed itself
            count = len(found) or (1 if code and not excused_items else 0)
            total += count
            seconds = time.monotonic() - role_started
            detail = ", ".join(f"{name} {n}" for name, n in sorted(by_check.items())) or ("error" if code else "")
            lines.append(f"  {role:<9} {count:>3} failures in {seconds:4.0f} s  {detail}")
            lines += [f"      {item['operation']}: {item['check']} - {item['message'][:160]}" for item in found]
            lines += [f"      (intended) {i['operation']}: {i['check']} {i['fields']}" for i in excused_items]
        print("\napifuzz summary (unique failures by role and check):")
        print("\n".join(lines))
        print(f"apifuzz: {total} failures in {time.monotonic() - started:.0f} s")
        return 1 if total else 0
    finally:
        if server is not None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(server.pid, signal.SIGTERM)
            with contextlib.suppress(subprocess.TimeoutExpired):
                server.wait(timeout=10)
        if not args.report_dir:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
