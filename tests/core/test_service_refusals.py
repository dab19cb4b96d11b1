"""Services refuse with one type, read from the source like tests/core/test_shape.py:

- a service or selector module (`<app>/services.py`, `<app>/services/…`, the same for selectors) and the
  modules that only services call on their behalf (the tournament formats, the chouette entries) raise
  base.errors' DomainError kinds (Conflict, NotAllowed, NotFound, Invalid) and nothing of a web framework's, so
  the API's exception handler and the pages' base.web/middleware each translate one type;
- none of them imports `rest_framework` or `base.api` (the edge imports the services, never the other way round),
  nor Django's ValidationError or PermissionDenied to raise.

Each check answers with the file and line, and is shown to catch a sample first.
"""

import ast
from pathlib import Path

from tests.paths import REPO

#: Modules that are not named services but refuse on a service's behalf: their refusals surface through it.
SERVICE_HELPERS = ["tournaments/formats/*.py", "chouette/entries.py"]
#: The exception names a service may not raise (Django's and DRF's, by whatever module they are reached).
FOREIGN_REFUSALS = {"ValidationError", "PermissionDenied", "APIException", "NotAuthenticated"}
FORBIDDEN_MODULES = ("rest_framework", "base.api")


def _is_service(path: Path) -> bool:
    parts = path.relative_to(REPO).parts
    return path.stem in {"services", "selectors"} or any(part in {"services", "selectors"} for part in parts[:-1])


def service_modules() -> list[Path]:
    found = set()
    for path in REPO.rglob("*.py"):
        parts = path.relative_to(REPO).parts
        if parts[0] in {"tests", ".venv", "node_modules"} or "migrations" in parts or parts[0].startswith("."):
            continue
        if _is_service(path):
            found.add(path)
    for pattern in SERVICE_HELPERS:
        found.update(REPO.glob(pattern))
    return sorted(found)


def _forbidden(module: str) -> bool:
    return any(module == name or module.startswith(f"{name}.") for name in FORBIDDEN_MODULES)


def foreign_refusals(source: str, name: str) -> list[str]:
    """`file:line what` of each import of DRF or base.api, each import of Django's ValidationError or
    PermissionDenied, and each raise of one of FOREIGN_REFUSALS (by plain or dotted name)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names if _forbidden(alias.name)]
        elif isinstance(node, ast.ImportFrom) and node.module:
            if _forbidden(node.module):
                found.append((node.lineno, node.module))
            elif node.module == "base" and any(alias.name == "api" for alias in node.names):
                found.append((node.lineno, "base.api"))
            elif node.module == "django.core.exceptions":
                found += [(node.lineno, alias.name) for alias in node.names if alias.name in FOREIGN_REFUSALS]
        elif isinstance(node, ast.Raise) and node.exc is not None:
            target = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
            what = target.id if isinstance(target, ast.Name) else getattr(target, "attr", None)
            if what in FOREIGN_REFUSALS:
                found.append((node.lineno, f"raise {what}"))
    return [f"{name}:{line} {what}" for line, what in sorted(found)]


def test_the_check_catches_a_sample():
    sample = (
        "from django.core.exceptions import PermissionDenied, ValidationError\n"  # 1
        "from rest_framework import exceptions\n"  # 2
        "from base.api import Conflict\n"  # 3
        "from base import api\n"  # 4
        "import rest_framework.exceptions\n"  # 5
        "from base.errors import Invalid\n"  # 6
        "def f(x):\n"  # 7
        "    if x:\n"  # 8
        "        raise exceptions.ValidationError({'x': ['no']})\n"  # 9
        "    raise forms.PermissionDenied\n"  # 10
        "    raise Invalid('no', field='x')\n"  # 11
    )
    assert foreign_refusals(sample, "s.py") == [
        "s.py:1 PermissionDenied",
        "s.py:1 ValidationError",
        "s.py:2 rest_framework",
        "s.py:3 base.api",
        "s.py:4 base.api",
        "s.py:5 rest_framework.exceptions",
        "s.py:9 raise ValidationError",
        "s.py:10 raise PermissionDenied",
    ]
    assert foreign_refusals("from base.errors import Conflict\nraise Conflict('x', code='y')\n", "ok.py") == []


def test_the_scan_finds_the_services_and_selectors():
    names = {str(path.relative_to(REPO)) for path in service_modules()}
    assert {"clubs/services.py", "games/matchplay/services/reports.py", "tournaments/selectors/events.py"} <= names
    assert {"tournaments/formats/swiss.py", "chouette/entries.py"} <= names
    assert len(names) > 50


def test_services_refuse_only_with_domain_errors():
    found = []
    for path in service_modules():
        found += foreign_refusals(path.read_text(), str(path.relative_to(REPO)))
    assert found == [], "a service refuses with base.errors (Conflict, NotAllowed, NotFound, Invalid)"
