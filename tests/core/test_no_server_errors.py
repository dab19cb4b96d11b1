"""Nothing a user can send gets a 500: every API operation in the OpenAPI schema and every page in the URL
configuration, with malformed and mistyped input, as an anonymous visitor, a player and a director.

The demo data gives the ids in the URLs real objects to act on; ids of objects that do not exist must answer
404, never 500. A new endpoint or page is swept automatically as soon as it is routed.
"""

import io
import json

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client
from rest_framework.test import APIClient

from clubs.models import Club
from tests.sweep import api_operations, fill, page_patterns

pytestmark = pytest.mark.django_db

PASSWORD = "sweep-password"

# Bodies that are broken as a whole, whatever the endpoint expects.
BROKEN_BODIES = [
    (b"{not json", "application/json"),
    (b"\xff\xfe\x00garbage", "application/json"),
    (b"[1, 2, 3]", "application/json"),
    (b"null", "application/json"),
    (b'"a string"', "application/json"),
    (b"name=%ff%fe&x=1", "application/x-www-form-urlencoded"),
    (b"--b\r\nbroken", "multipart/form-data; boundary=b"),
]
# Values of the wrong type or out of any sensible range, put into every field a request schema names.
WRONG_VALUES = [None, "", "x" * 5000, -1, 10**30, 1.5, {"nested": [1]}, [1, 2], True, "2026-13-45", "../../etc"]


@pytest.fixture
def demo(db, monkeypatch):
    monkeypatch.setenv("DEMO_PASSWORD", PASSWORD)
    call_command("load_demo", stdout=io.StringIO())
    return Club.objects.get(slug="bc-berlin")


def _users():
    User = get_user_model()
    return {
        "anonymous": None,
        "player": User.objects.get(username="anna"),
        "director": User.objects.get(username="director"),
    }


def _fill(path: str, club_slug: str) -> list[str]:
    """Concrete URLs for a templated path: an id that exists in the demo (1, 2) and one that does not."""
    slugs = ("slug", "club_slug", "club")
    urls = [fill(path, lambda name, _i, n=number: club_slug if name in slugs else n) for number in ("1", "2", "999999")]
    return list(dict.fromkeys(urls))


def test_every_api_operation_answers_malformed_input_without_a_server_error(demo):
    assert len(list(api_operations())) >= 30  # the sweep reaches the whole API, not an empty schema
    failures = []
    for name, user in _users().items():
        client = APIClient()
        if user is not None:
            client.force_authenticate(user)
        for path, method, fields in api_operations():
            for url in _fill(path, demo.slug):
                attempts = []
                if method == "get":
                    attempts.append(("get", {"limit": "x", "offset": "-5", "ordering": "!!", "club": "x"}, None))
                else:
                    attempts += [(method, body, content_type) for body, content_type in BROKEN_BODIES]
                    attempts += [(method, dict.fromkeys(fields or ["x"], value), "json") for value in WRONG_VALUES]
                for verb, body, content_type in attempts:
                    if verb == "get":
                        response = client.get(url, body)
                    elif content_type == "json":
                        response = client.generic(verb.upper(), url, _json(body), content_type="application/json")
                    else:
                        response = client.generic(verb.upper(), url, body, content_type=content_type)
                    if response.status_code >= 500:
                        failures.append(f"{name} {verb.upper()} {url} {str(body)[:80]} -> {response.status_code}")
    assert failures == [], "\n".join(failures[:40])


def _json(body) -> str:
    return json.dumps(body, default=str)


def _page_patterns():
    return [url for url in page_patterns() if url != "/accounts/logout/"]  # it would sign the sweeper out


def test_every_page_answers_any_visitor_and_any_form_without_a_server_error(demo):
    assert len(list(_page_patterns())) >= 25
    failures = []
    for name, user in _users().items():
        client = Client(raise_request_exception=False)
        if user is not None:
            client.force_login(user)
        for pattern in _page_patterns():
            for url in _fill(pattern, demo.slug):
                checks = [
                    ("GET", client.get(url)),
                    ("GET?", client.get(url, {"page": "x", "season": "x", "q": "\x00", "version": "-1"})),
                    ("POST", client.post(url, {})),
                    ("POST junk", client.post(url, dict.fromkeys(("name", "length", "comment"), "\x00" + "x" * 3000))),
                ]
                for label, response in checks:
                    if response.status_code >= 500:
                        failures.append(f"{name} {label} {url} -> {response.status_code}")
    assert failures == [], "\n".join(failures[:40])
