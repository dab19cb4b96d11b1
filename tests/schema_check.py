"""Every API response a test receives is checked against the OpenAPI schema that clients are generated from.

The schema is generated once per test run (as /api/schema/ serves it). A response is matched to its operation
by method and path template, then its status code must be declared for that operation and its JSON body must
validate against the declared schema, with objects closed (a field the schema does not name is an error too,
because a generated client would drop it). Refusals are checked like successes: every 4xx of an operation must
be the one `Error` body (`{code, detail, field}`, `errors` for bad input) that base.api declares for it.
Which operations answered which status is recorded, so a test can ask whether every operation was seen to
succeed.

SCHEMA_CHECK_LOG=FILE turns failing into noting: every mismatch of the run is appended to FILE (a survey after
a change to many endpoints). SCHEMA_CHECK_ALL_OPERATIONS=1 asks for the every-operation check (tests/conftest.py)
on a run that is not the whole suite.
"""

import copy
import datetime
import functools
import json
import os
import re
from collections.abc import Iterator

from drf_spectacular.generators import SchemaGenerator
from jsonschema import Draft202012Validator, FormatChecker
from rest_framework.test import APIClient

API_PREFIX = "/api/v1/"
# The default formats (date, email, ...) and date-time, which jsonschema checks only with an extra package.
FORMATS = FormatChecker()


@FORMATS.checks("date-time", raises=ValueError)
def _date_time(value) -> bool:
    return not isinstance(value, str) or "T" in value and datetime.datetime.fromisoformat(value) is not None


# (method, path template, status code) of every response checked in this run.
SEEN: set[tuple[str, str, int]] = set()


@functools.cache
def api_schema() -> dict:
    return SchemaGenerator().get_schema(request=None, public=True)


def operations() -> Iterator[tuple[str, str]]:
    """(METHOD, path template) of every operation in the schema."""
    for path, methods in api_schema()["paths"].items():
        for method in methods:
            yield method.upper(), path


@functools.cache
def _templates() -> list[tuple[re.Pattern, str]]:
    """Path templates as patterns, the ones with fewer parameters first (`games/undo/` before `games/{number}/`)."""
    templates = []
    for path in api_schema()["paths"]:
        pattern = "".join(
            "[^/]+" if part.startswith("{") else re.escape(part) for part in re.split(r"(\{[^}]+\})", path)
        )
        templates.append((re.compile(f"^{pattern}$"), path))
    return sorted(templates, key=lambda item: item[1].count("{"))


def template_of(path: str) -> str | None:
    return next((template for pattern, template in _templates() if pattern.match(path)), None)


def _json_schema(node):
    """OpenAPI 3.0 schema objects as JSON Schema: `nullable` becomes a null alternative; objects with named
    properties and no `additionalProperties` are closed."""
    if isinstance(node, list):
        return [_json_schema(item) for item in node]
    if not isinstance(node, dict):
        return node
    node = {key: _json_schema(value) for key, value in node.items()}
    if node.get("type") == "object" and "properties" in node and "additionalProperties" not in node:
        node["additionalProperties"] = False
    if node.pop("nullable", False):
        node = {"anyOf": [node, {"type": "null"}]}
    return node


@functools.cache
def _components() -> dict:
    return _json_schema(copy.deepcopy(api_schema().get("components", {})))


@functools.cache
def _validator(template: str, method: str, status: str) -> Draft202012Validator | None:
    response = api_schema()["paths"][template][method.lower()]["responses"][status]
    content = response.get("content", {}).get("application/json")
    if content is None:
        return None
    schema = {"components": _components(), **_json_schema(copy.deepcopy(content["schema"]))}
    return Draft202012Validator(schema, format_checker=FORMATS)


def problems(method: str, path: str, status: int, body: bytes, content_type: str) -> list[str]:
    """What is wrong with one response by the schema (empty when it matches); records the operation as seen."""
    template = template_of(path)
    if template is None or status == 405:
        return []  # not an operation of the API (an unknown URL answers 404, a wrong method 405)
    declared = api_schema()["paths"][template].get(method.lower())
    if declared is None:
        return []
    SEEN.add((method, template, status))
    if str(status) not in declared["responses"]:
        return [
            f"{method} {template} answered {status}, which the schema does not declare ({list(declared['responses'])})"
        ]
    validator = _validator(template, method, str(status))
    if validator is None:
        return [] if not body else [f"{method} {template} {status}: the schema declares no body, got {body[:200]!r}"]
    if not content_type.startswith("application/json"):
        return [f"{method} {template} {status}: expected JSON, got {content_type!r}"]
    data = json.loads(body)
    return [
        f"{method} {template} {status}: {error.message} at {'/'.join(map(str, error.absolute_path)) or 'the top'}"
        for error in validator.iter_errors(data)
    ][:5]


class SchemaCheckingClient(APIClient):
    """The test API client that fails the test as soon as a response departs from the schema."""

    def request(self, **kwargs):
        response = super().request(**kwargs)
        environ = response.wsgi_request.META
        path = environ["PATH_INFO"]
        if path.startswith(API_PREFIX):
            found = problems(
                environ["REQUEST_METHOD"],
                path,
                response.status_code,
                response.content,
                response.get("Content-Type", ""),
            )
            if found and os.environ.get("SCHEMA_CHECK_LOG"):  # survey mode: note every mismatch, fail none
                with open(os.environ["SCHEMA_CHECK_LOG"], "a") as log:
                    log.writelines(line + "\n" for line in found)
                return response
            assert not found, "The response does not match the OpenAPI schema:\n" + "\n".join(found)
        return response
