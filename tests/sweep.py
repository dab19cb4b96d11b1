"""Discovery of every API operation (from the drf-spectacular schema) and every page (from the URL resolver),
shared by the sweeps that must reach each of them: no server errors, and the permission matrix. A new endpoint
or page is swept as soon as it is routed."""

import re
from collections.abc import Iterator

from django.urls import URLPattern, URLResolver, get_resolver
from drf_spectacular.generators import SchemaGenerator

WRITE_METHODS = ("post", "put", "patch", "delete")
SKIPPED_PREFIXES = ("admin/", "api/", "i18n/", "static/", "media/")


def request_fields(operation: dict, components: dict) -> list[str]:
    content = operation.get("requestBody", {}).get("content", {})
    schema = next(iter(content.values()), {}).get("schema", {})
    if "$ref" in schema:
        schema = components.get(schema["$ref"].rsplit("/", 1)[-1], {})
    return list(schema.get("properties", {}))


def api_operations() -> Iterator[tuple[str, str, list[str]]]:
    """(path template, method, request body fields) for every GET and write operation of the API."""
    schema = SchemaGenerator().get_schema(request=None, public=True)
    components = schema.get("components", {}).get("schemas", {})
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            if method in ("get", *WRITE_METHODS):
                yield path, method, request_fields(operation, components)


def page_patterns(resolver=None, prefix: str = "") -> Iterator[str]:
    """Every page's URL pattern, e.g. /chouette/<slug:slug>/<int:pk>/ (the admin, the API and static excluded)."""
    resolver = resolver or get_resolver()
    for entry in resolver.url_patterns:
        pattern = prefix + str(entry.pattern)
        if isinstance(entry, URLResolver):
            if pattern.startswith(SKIPPED_PREFIXES):
                continue
            yield from page_patterns(entry, pattern)
        elif isinstance(entry, URLPattern):
            yield "/" + pattern.lstrip("^").rstrip("$")


def fill(pattern: str, values) -> str:
    """The pattern with each placeholder replaced by values(name, index) (a function of its name and place)."""
    index = [0]

    def replace(match: re.Match) -> str:
        name = match.group(1) or match.group(2)
        index[0] += 1
        return str(values(name, index[0] - 1))

    return re.sub(r"\{([^}]+)\}|<(?:[a-z]+:)?([^>]+)>", replace, pattern)
