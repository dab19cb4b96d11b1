"""Out-of-range, non-finite and oversized numbers never take the site down: every numeric and decimal field of
every API operation (found in the OpenAPI schema, so a new endpoint is fuzzed as soon as it is routed), every
query parameter, every list's `limit` and `offset`, and ids past int64 in every path. Each request must answer
below 500 and within 2 s: "1e999997" once held a worker for 30 s, `?limit=9223372036854775808` answered 500.

NUL and control characters in every text field of the API and of every form on the site never answer 500 and
never reach the database.

Run with `-s` to see the figures (worst request time, memory growth).
"""

from __future__ import annotations

import json
import re
import resource
import time
from functools import partial
from html import unescape

import pytest
from django.apps import apps
from django.db import models
from django.test import Client
from rest_framework.test import APIClient

from base.pagination import MAX_LIMIT
from calcutta.models import Calcutta
from tests.core.api_sweep import Operation, api_operations, demo, fill, page_patterns, sweep_users
from tests.paths import REPO
from tournaments.models import Flight

# Sequences restart for each test, so the ids 1 and 2 in the swept URLs are demo objects on PostgreSQL too.
pytestmark = pytest.mark.django_db(reset_sequences=True)
__all__ = ["demo"]  # the fixture, imported for the tests below

JSON = "application/json"
SLOW = 2.0  # seconds of CPU: the most any single request may cost
WALL_LIMIT = 10.0  # seconds on the clock, however busy the machine
BAD_NUMBERS = [
    "1e999997",
    "1e999999",
    "-1e999999",
    "1e-999999",
    "NaN",
    "-NaN",
    "sNaN",
    "Infinity",
    "-Infinity",
    "inf",
    "9" * 5000,
    "9223372036854775808",
    "-9223372036854775809",
    2**63,
    -(2**63) - 1,
    10**400,
    1e308,
    -1,
    "0x10",
    "1_000",
    "12,5",
    "",
]
BAD_QUERY = ["9223372036854775808", "-9223372036854775809", "1e999999", "NaN", "9" * 5000, "-1", "x", "\x00"]
BAD_IDS = ["9223372036854775808", "18446744073709551616", "99999999999999999999999999999", "0", "-1"]
NASTY_TEXT = ["a\x00b", "\x00", "x\x01\x02\x1b[31m\x7f", "line\r\nbreak\ttab", "\ufeff\u202e"]


class Timer:
    """Sends requests, remembering the slowest (and every answer of 500 or more, and every slow one).

    "Slow" is judged on the CPU time the request costs this process: that is what "1e999997" burnt for 30 s,
    and unlike the wall clock it does not grow when the 2 shared cores are busy with other work. The wall
    time is reported too, and one past WALL_LIMIT fails as well (a query the database chews on).
    """

    def __init__(self):
        self.worst_cpu = (0.0, "")
        self.worst_wall = (0.0, "")
        self.count = 0
        self.failures: list[str] = []

    def send(self, label: str, call):
        cpu, wall = time.process_time(), time.perf_counter()
        response = call()
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        self.count += 1
        self.worst_cpu = max(self.worst_cpu, (cpu, label))
        self.worst_wall = max(self.worst_wall, (wall, label))
        if response.status_code >= 500:
            self.failures.append(f"{label} -> {response.status_code}")
        elif cpu > SLOW or wall > WALL_LIMIT:
            self.failures.append(f"{label} took {cpu:.2f} s of CPU, {wall:.2f} s in all")
        return response

    def report(self, what: str) -> None:
        print(
            f"\n{what}: {self.count} requests, worst CPU {self.worst_cpu[0] * 1000:.0f} ms "
            f"({self.worst_cpu[1][:100]}), worst wall {self.worst_wall[0] * 1000:.0f} ms ({self.worst_wall[1][:100]})"
        )


def _plausible(spec: dict):
    """A value of the field's type, so that one fuzzed field is not refused only because the others are missing."""
    if spec.get("enum"):
        return next((value for value in spec["enum"] if value not in (None, "")), None)
    kind, form = spec.get("type"), spec.get("format")
    if form == "decimal":
        return "1.00"
    if form == "date":
        return "2026-06-01"
    if form == "date-time":
        return "2026-06-01T12:00:00Z"
    if form == "binary" or spec.get("readOnly"):
        return None
    return {"integer": 1, "number": 1, "boolean": False, "array": [], "object": {}, "string": "fuzz"}.get(kind)


def _is_number(spec: dict) -> bool:
    return spec.get("type") in ("integer", "number") or spec.get("format") == "decimal"


def _numeric_targets(operation: Operation):
    """(field, wrap) for every number the body can carry: a field, the items of a list, the values of a dict."""
    for name, spec in operation.fields.items():
        items = spec.get("items", {})
        values = spec.get("additionalProperties")
        if _is_number(spec):
            yield name, lambda value: value
        elif spec.get("type") == "array" and _is_number(items):
            yield name, lambda value: [value]
        elif spec.get("type") == "array" and _is_number(items.get("items", {})):
            yield name, lambda value: [[value]]
        elif spec.get("type") == "array" and items.get("type") == "object":
            # A free-form list of dicts (a payout template): every key the fuzz can think of, each bad.
            yield name, lambda value: [{"place": value, "percent": value, "flight": ""}]
        elif spec.get("type") == "object" and (values is True or values == {} or _is_number(values or {})):
            yield name, lambda value: {"1": value}


def _text_targets(operation: Operation):
    for name, spec in operation.fields.items():
        if spec.get("type") == "string" and not spec.get("format") and not spec.get("readOnly"):
            yield name, lambda value: value
        elif spec.get("type") == "array" and spec.get("items", {}).get("type") == "string":
            yield name, lambda value: [value]
        elif spec.get("type") == "object":
            yield name, lambda value: {value: value}


def _base(operation: Operation) -> dict:
    body = {name: _plausible(spec) for name, spec in operation.fields.items()}
    return {name: value for name, value in body.items() if value is not None}


def _json(body) -> str:
    return json.dumps(body, allow_nan=True)


def _api(user) -> APIClient:
    client = APIClient()
    client.raise_request_exception = False  # a 500 is counted, not raised, so one run lists them all
    if user is not None:
        client.force_authenticate(user)
    return client


def _director_api() -> APIClient:
    return _api(sweep_users()["director"])


def _rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _sweep_bodies(timer: Timer, client: APIClient, club_slug: str, targets, values) -> None:
    for operation in api_operations():
        if operation.method == "get" or not operation.fields:
            continue
        url = fill(operation.path, club_slug, numbers=("1",))[0]
        base = _base(operation)
        for name, wrap in list(targets(operation)):
            for value in values:
                body = {**base, name: wrap(value)}
                timer.send(
                    f"{operation.method.upper()} {url} {name}={str(value)[:30]!r}",
                    partial(
                        client.generic, operation.method.upper(), url, _json(body), content_type="application/json"
                    ),
                )


def _timed(call):
    """(response, CPU seconds it cost), as Timer judges "slow"."""
    started = time.process_time()
    response = call()
    return response, time.process_time() - started


PROBED_AMOUNTS = [
    ("1e999997", "The number is too large: at most 9999999.99."),  # held a worker for 30 s
    ("1e999999", "The number is too large: at most 9999999.99."),  # answered 500
    ("10000000", "The number is too large: at most 9999999.99."),  # past numeric(9, 2): a payment answered 500
    ("1_000", "Write a number, e.g. 12.50."),  # Python's Decimal reads it as 1000
    ("\uff11\uff15", "Write a number, e.g. 12.50."),  # full-width digits, read as 15
    ("1,000", "Write 1,000 without a thousands separator, e.g. 1000 or 1000.00."),  # was read as 1.00
    ("NaN", "A number must be finite (not NaN or infinity)."),
    ("12.505", "An amount has at most two decimals (whole cents)."),
]


def test_the_probed_amounts_answer_400_at_once_in_the_api_and_the_web_bid_form(demo):
    calcutta = Calcutta.objects.order_by("pk").first()
    bidder = calcutta.bidders.order_by("pk").first()
    for amount, message in PROBED_AMOUNTS:
        _check_amount(calcutta, bidder, amount, message)


def _check_amount(calcutta, bidder, amount: str, message: str) -> None:
    api = _director_api()
    bid, took = _timed(
        lambda: api.post(
            f"/api/v1/calcuttas/{calcutta.pk}/bids/", {"lot": 1, "bidder": bidder.pk, "amount": amount}, format="json"
        )
    )
    assert (bid.status_code, bid.json()["errors"]) == (400, {"amount": [message]}) and took < SLOW
    setting = api.patch(f"/api/v1/calcuttas/{calcutta.pk}/settings/", {"increment": amount}, format="json")
    assert (setting.status_code, setting.json()["errors"]) == (400, {"increment": [message]})
    page = _director_pages()
    form, took = _timed(
        lambda: page.post(
            f"/calcuttas/{calcutta.pk}/bids/", {"lot": 1, "bidder": bidder.pk, "amount": amount}, follow=True
        )
    )
    assert form.status_code == 200 and f"Amount: {message}" in form.content.decode() and took < SLOW


def test_a_payout_percent_that_is_no_number_answers_400(demo):
    flight = Flight.objects.filter(event__club=demo).order_by("pk").first()
    url = f"/api/v1/events/{demo.slug}/{flight.event.slug}/flights/{flight.slug}/payouts/"
    for percent in ["NaN", "Infinity", "1e999999", "-1e999999", "9" * 5000]:  # "NaN" answered 500
        response = _director_api().put(url, {"payout_template": [{"place": 1, "percent": percent}]}, format="json")
        assert response.status_code == 400, response.content
        assert "Each share needs a place (1, 2, ...) and a percent." in str(response.json())


def test_every_numeric_field_of_every_api_operation_refuses_bad_numbers_quickly(demo):
    operations = api_operations()
    numeric = [(op.method, op.path, name) for op in operations for name, _ in _numeric_targets(op)]
    assert len(numeric) >= 50, numeric  # the schema names the numbers: the fuzz reaches them
    assert any(name == "amount" and "bids" in path for _, path, name in numeric)  # money fields are decimals
    timer, rss_before = Timer(), _rss_mib()
    _sweep_bodies(timer, _director_api(), demo.slug, _numeric_targets, BAD_NUMBERS)
    timer.report(f"numeric fuzz over {len(numeric)} fields (max RSS {rss_before:.0f} -> {_rss_mib():.0f} MiB)")
    assert timer.failures == [], "\n".join(timer.failures[:40])


def test_every_list_limit_offset_and_query_parameter_is_bounded(demo):
    lists = [op for op in api_operations() if op.is_list]
    assert len(lists) >= 8
    timer = Timer()
    for name, user in sweep_users().items():
        client = _api(user)
        for operation in api_operations():
            if operation.method != "get":
                continue
            url = fill(operation.path, demo.slug, numbers=("1",))[0]
            for parameter in operation.query:
                for value in BAD_QUERY:
                    timer.send(
                        f"{name} GET {url}?{parameter}={value[:30]!r}", partial(client.get, url, {parameter: value})
                    )
            if operation.is_list:
                response = timer.send(f"{name} GET {url}?limit=100000", partial(client.get, url, {"limit": "100000"}))
                if response.status_code == 200:
                    rows = response.json()
                    assert len(rows["results"] if isinstance(rows, dict) else rows) <= MAX_LIMIT, url
    timer.report("query parameter fuzz")
    assert timer.failures == [], "\n".join(timer.failures[:40])


def test_ids_beyond_int64_in_any_path_answer_404_not_500(demo):
    timer, client = Timer(), _director_api()
    templated = [op for op in api_operations() if "{" in op.path]
    assert len(templated) >= 30
    found = []
    for operation in templated:
        for number in BAD_IDS:
            url = fill(operation.path, demo.slug, numbers=(number,))[0]
            response = timer.send(
                f"{operation.method.upper()} {url}",
                partial(
                    client.generic,
                    operation.method.upper(),
                    url,
                    _json(_base(operation)),
                    content_type="application/json",
                ),
            )
            if operation.method == "get" and number in BAD_IDS[:3] and number in url and response.status_code != 404:
                found.append(f"GET {url} -> {response.status_code}")
    assert found == [], "\n".join(found[:40])  # no such object: 404, as for any other id that does not exist
    pages = Client(raise_request_exception=False)
    pages.force_login(sweep_users()["director"])
    for pattern in page_patterns():
        if "<" in pattern:
            for number in BAD_IDS[:3]:
                url = fill(pattern, demo.slug, numbers=(number,))[0]
                timer.send(f"GET {url}", partial(pages.get, url))
    timer.report("ids beyond int64")
    assert timer.failures == [], "\n".join(timer.failures[:40])


def _text_columns():
    for model in apps.get_models():
        for field in model._meta.get_fields():
            if isinstance(field, models.CharField | models.TextField) and field.concrete:
                yield model, field.name


def _stored_nul() -> list[str]:
    """Every text column holding a NUL (only SQLite can store one: PostgreSQL refuses it outright). Read in
    Python: SQLite's LIKE stops at a NUL in the pattern and would match every row."""
    return [
        f"{model.__name__}.{name}"
        for model, name in _text_columns()
        if any("\x00" in (value or "") for value in model._default_manager.values_list(name, flat=True))
    ]


def test_nul_and_control_characters_in_every_api_text_field_never_answer_500_nor_reach_the_database(demo):
    timer = Timer()
    _sweep_bodies(timer, _director_api(), demo.slug, _text_targets, NASTY_TEXT)
    timer.report("API text fuzz")
    assert timer.failures == [], "\n".join(timer.failures[:40])
    assert _stored_nul() == []


_FORM = re.compile(r"<form\b([^>]*)>(.*?)</form>", re.DOTALL | re.IGNORECASE)
_FIELD = re.compile(r"<(input|textarea|select)\b([^>]*)>", re.IGNORECASE)
_ATTRIBUTE = re.compile(r'([a-z-]+)="([^"]*)"', re.IGNORECASE)


def _forms(html: str, page: str):
    """(action, {field: value}, text fields) of each POST form on a page, with its default values."""
    for attributes, inner in _FORM.findall(html):
        form = dict(_ATTRIBUTE.findall(attributes))
        if form.get("method", "get").lower() != "post":
            continue
        values, texts = {}, []
        for tag, field_attributes in _FIELD.findall(inner):
            field = {key.lower(): unescape(value) for key, value in _ATTRIBUTE.findall(field_attributes)}
            name, kind = field.get("name"), field.get("type", "text").lower()
            if not name or name == "csrfmiddlewaretoken" or kind in ("submit", "file", "button"):
                continue
            values[name] = field.get("value", "")
            if tag.lower() == "textarea" or kind in ("text", "search", "hidden", "email", "url"):
                texts.append(name)
        yield unescape(form.get("action") or page), values, texts


def _page_forms(client: Client, club_slug: str):
    """Every POST form of every page a director sees (the demo's objects behind the ids)."""
    for pattern in page_patterns():
        page = fill(pattern, club_slug, numbers=("1",))[0]
        response = client.get(page)
        if response.status_code == 200 and "html" in response.get("Content-Type", ""):
            yield from _forms(response.content.decode(), page)


def _director_pages() -> Client:
    client = Client(raise_request_exception=False)
    client.force_login(sweep_users()["director"])
    return client


def test_nul_and_control_characters_in_every_form_field_never_answer_500_nor_reach_the_database(demo):
    timer, client, forms_seen = Timer(), _director_pages(), 0
    for action, values, texts in _page_forms(client, demo.slug):
        forms_seen += 1
        for name in texts:
            for text in NASTY_TEXT[:3]:
                timer.send(f"POST {action} {name}={text!r}", partial(client.post, action, {**values, name: text}))
    timer.report(f"form text fuzz over {forms_seen} forms")
    assert forms_seen >= 10
    assert timer.failures == [], "\n".join(timer.failures[:40])
    assert _stored_nul() == []


def test_every_form_field_refuses_bad_numbers_quickly(demo):
    """The web bid form answered 500 for "1e999999": every field of every form gets the numbers that broke."""
    timer, client, fields_seen = Timer(), _director_pages(), 0
    for action, values, _texts in _page_forms(client, demo.slug):
        for name in values:
            fields_seen += 1
            for value in BAD_NUMBERS[:6] + BAD_NUMBERS[10:12]:
                timer.send(
                    f"POST {action} {name}={value[:30]!r}", partial(client.post, action, {**values, name: value})
                )
    timer.report(f"form number fuzz over {fields_seen} fields")
    assert fields_seen >= 30
    assert timer.failures == [], "\n".join(timer.failures[:40])


def test_every_decimal_field_in_the_apps_is_the_shared_bounded_one():
    """serializers.DecimalField and forms.DecimalField trust the text as far as Decimal goes; base.fields bounds
    it first. A new plain one would slip past the fuzz where no demo object reaches it, so none may be added."""
    plain = re.compile(r"\b(serializers|forms)\.DecimalField\(")
    apps_dirs = [d for d in REPO.iterdir() if d.is_dir() and not d.name.startswith(".") and d.name != "tests"]
    offending = [
        f"{path.relative_to(REPO)}:{number}"
        for folder in apps_dirs
        for path in sorted(folder.rglob("*.py"))
        if path != REPO / "base" / "fields.py"
        for number, line in enumerate(path.read_text().splitlines(), start=1)
        if plain.search(line)
    ]
    assert offending == []
