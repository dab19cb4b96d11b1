"""Every algorithm lives in a pure core that imports no Django: rules, record formats, verification,
match scoring, brackets, Calcutta, ratings and points, chouette. A core may import other pure cores, never the
apps' models, services or the web frameworks. Read from the source, so a lazy import inside a function counts too.
"""

import ast
from pathlib import Path

import pytest

from tests.paths import REPO

PURE = [
    "games/rules",
    "games/formats",
    "games/verification.py",
    "games/record_routing.py",
    "games/nardy",
    "games/dave",
    "base/numbers.py",
    "base/text.py",
    "base/errors.py",
    "games/matchplay/state.py",
    "tournaments/core",
    "tournaments/calcutta/core",
    "ratings/core",
    "chouette/core",
    "accounts/core",
    "loadtest/core.py",
]
FRAMEWORKS = {"django", "rest_framework", "drf_spectacular", "django_filters", "celery"}
PROJECT_APPS = {"accounts", "base", "clubs", "config", "games", "tournaments", "ratings", "chouette"}


def _module_name(path: Path) -> str:
    return ".".join(path.relative_to(REPO).with_suffix("").parts)


def _sources(entry: str) -> list[Path]:
    path = REPO / entry
    return [path] if entry.endswith(".py") else sorted(path.glob("*.py"))


PURE_PACKAGES = {entry.replace("/", ".") for entry in PURE if not entry.endswith(".py")}
PURE_MODULES = {_module_name(source) for entry in PURE for source in _sources(entry)}


def _is_pure(module: str) -> bool:
    return module in PURE_MODULES or module in PURE_PACKAGES or module.rsplit(".", 1)[0] in PURE_PACKAGES


def _imports(source: Path) -> set[str]:
    package = _module_name(source).rsplit(".", 1)[0]
    found = set()
    for node in ast.walk(ast.parse(source.read_text())):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module is not None:
            if node.level:
                base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                found.add(f"{base}.{node.module}")
            else:
                found.add(node.module)
    return found


@pytest.mark.parametrize("entry", PURE)
def test_the_core_imports_no_framework_and_no_impure_project_module(entry):
    sources = _sources(entry)
    assert sources, f"{entry} holds no Python source"
    offending = []
    for source in sources:
        for module in _imports(source):
            top = module.split(".")[0]
            if top in FRAMEWORKS or (top in PROJECT_APPS and not _is_pure(module)):
                offending.append(f"{source.relative_to(REPO)} imports {module}")
    assert offending == []
