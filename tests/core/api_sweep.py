"""What the API and page sweeps share: the demo club to act on, its users, and the operations, fields and
parameters discovered from the drf-spectacular schema and the URL configuration, so a new endpoint or page
is swept as soon as it is routed (test_no_server_errors, test_input_fuzz)."""

from __future__ import annotations

import io
import re
from dataclasses import dataclass, field
from functools import cache

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.urls import URLPattern, URLResolver, get_resolver
from drf_spectacular.generators import SchemaGenerator

from clubs.models import Club

PASSWORD = "sweep-password"
WRITE_METHODS = ("post", "put", "patch", "delete")


@pytest.fixture
def demo(db, monkeypatch):
    """The demo club (players, events, a Calcutta, chouette tables, matches): real objects behind the ids."""
    monkeypatch.setenv("DEMO_PASSWORD", PASSWORD)
    call_command("load_demo", stdout=io.StringIO())
    return Club.objects.get(slug="bc-berlin")


def sweep_users() -> dict:
    User = get_user_model()
    return {
        "anonymous": None,
        "player": User.objects.get(username="anna"),
        "director": User.objects.get(username="director"),
    }


def fill(path: str, club_slug: str, numbers: tuple[str, ...] = ("1", "2", "999999")) -> list[str]:
    """Concrete URLs for a templated path: by default an id that exists in the demo (1, 2) and one that does not."""
    urls = []
    for number in numbers:
        url = re.sub(r"\{(slug|club_slug|club)\}", club_slug, path)
        url = re.sub(r"\{[^}]*\}", number, url)
        url = re.sub(r"<slug:[^>]+>", club_slug, url)
        url = re.sub(r"<(?:int:)?[^>]+>", number, url)
        urls.append(url)
    return list(dict.fromkeys(urls))


@dataclass(frozen=True)
class Operation:
    path: str
    method: str
    fields: dict[str, dict] = field(default_factory=dict)  # request body field -> its schema (refs resolved)
    query: tuple[str, ...] = ()  # query parameter names

    @property
    def is_list(self) -> bool:
        return self.method == "get" and "limit" in self.query


@cache
def _schema() -> dict:
    return SchemaGenerator().get_schema(request=None, public=True)


def _resolve(schema: dict, components: dict) -> dict:
    if "$ref" in schema:
        return components.get(schema["$ref"].rsplit("/", 1)[-1], {})
    for combined in ("allOf", "oneOf", "anyOf"):
        if schema.get(combined):
            return _resolve(schema[combined][0], components)
    return schema


def _request_fields(operation: dict, components: dict) -> dict[str, dict]:
    content = operation.get("requestBody", {}).get("content", {})
    schema = _resolve(next(iter(content.values()), {}).get("schema", {}), components)
    return {name: _resolve(spec, components) for name, spec in schema.get("properties", {}).items()}


def api_operations() -> list[Operation]:
    schema = _schema()
    components = schema.get("components", {}).get("schemas", {})
    found = []
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            if method in ("get", *WRITE_METHODS):
                query = tuple(p["name"] for p in operation.get("parameters", []) if p.get("in") == "query")
                found.append(Operation(path, method, _request_fields(operation, components), query))
    return found


def page_patterns(resolver=None, prefix=""):
    resolver = resolver or get_resolver()
    for entry in resolver.url_patterns:
        pattern = prefix + str(entry.pattern)
        if isinstance(entry, URLResolver):
            if pattern.startswith(("admin/", "api/", "i18n/", "static/", "media/")):
                continue
            yield from page_patterns(entry, pattern)
        elif isinstance(entry, URLPattern):
            url = "/" + pattern.lstrip("^").rstrip("$")
            if url != "/accounts/logout/":  # it would sign the sweeping user out half-way
                yield url


def fill_with(pattern: str, values) -> str:
    """The pattern with each placeholder replaced by values(name, index), a function of its name and place (for
    sweeps that pick a real object per placeholder, like the permission matrix)."""
    index = [0]

    def replace(match: re.Match) -> str:
        name = match.group(1) or match.group(2)
        index[0] += 1
        return str(values(name, index[0] - 1))

    return re.sub(r"\{([^}]+)\}|<(?:[a-z]+:)?([^>]+)>", replace, pattern)
