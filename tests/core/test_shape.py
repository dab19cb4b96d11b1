"""Every app has the same shape, read from the source (its syntax tree):

- views, API views and panels ask the app's selectors and services, never the ORM (`Model.objects`) themselves,
  so a read has one home and one test. A serializer field's or a ViewSet's declarative `queryset =
  Model.objects.all()/none()` stays: DRF needs a queryset there and evaluates it itself.
- no module imports another module's underscore names: a name used elsewhere is public, so a rename or a
  refactor of a private helper cannot break a caller it does not know of.
- every app's API takes its input through the one helper `base.api.validated` (one 400 body, one place), and
  is written as ViewSets (routed by a router or by `as_view({method: action})`), not APIViews.

Each check answers with the file and line, and each is shown to catch a sample first.
"""

import ast
from pathlib import Path

from tests.paths import REPO

APP_PACKAGES = [
    "accounts", "backgammon", "base", "calcutta", "chouette", "clubs", "config", "data", "games", "notifications",
    "points", "ratings", "tournaments",
]  # fmt: skip
THIN_MODULES = {"views.py", "api.py", "panels.py"}
DECLARATIVE = {"all", "none"}


def _app_files():
    for package in APP_PACKAGES:
        for path in sorted((REPO / package).rglob("*.py")):
            if "migrations" not in path.parts:
                yield path


def _thin(path: Path) -> bool:
    """Views, API views and panels, single modules or packages of them (views/…)."""
    return path.name in THIN_MODULES or any(part in {"views", "api", "panels"} for part in path.parts[:-1])


def _declarative_querysets(tree: ast.AST) -> set[int]:
    """ids of the `X.objects` nodes that are a declaration DRF needs: `queryset=X.objects.all()` in a field's
    arguments or `queryset = X.objects.none()` on a class."""
    allowed: set[int] = set()

    def mark(value):
        if (
            isinstance(value, ast.Call)
            and isinstance(value.func, ast.Attribute)
            and value.func.attr in DECLARATIVE
            and isinstance(value.func.value, ast.Attribute)
            and value.func.value.attr == "objects"
            and not value.args
        ):
            allowed.add(id(value.func.value))

    for node in ast.walk(tree):
        if isinstance(node, ast.keyword) and node.arg == "queryset":
            mark(node.value)
        elif isinstance(node, ast.ClassDef):
            for statement in node.body:
                if isinstance(statement, ast.Assign) and any(
                    isinstance(target, ast.Name) and target.id == "queryset" for target in statement.targets
                ):
                    mark(statement.value)
    return allowed


def orm_uses(source: str, name: str) -> list[str]:
    """`file:line` of each `.objects` access that is not a DRF declaration."""
    tree = ast.parse(source)
    allowed = _declarative_querysets(tree)
    lines = sorted(
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute) and node.attr == "objects" and id(node) not in allowed
    )
    return [f"{name}:{line}" for line in lines]


PUBLIC_UNDERSCORE = {"_meta"}  # Django's documented model API


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__") and name not in PUBLIC_UNDERSCORE


def underscore_imports(source: str, name: str) -> list[str]:
    """`file:line name` of each `from module import _private`, and of each `module._private` read through an
    imported name (dunder names such as __version__ are public)."""
    tree = ast.parse(source)
    imported = {
        (alias.asname or alias.name).split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, ast.Import | ast.ImportFrom)
        for alias in node.names
    }
    found = [
        (node.lineno, alias.name)
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
        if _private(alias.name)
    ]
    found += [
        (node.lineno, f"{node.value.id}.{node.attr}")
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id in imported
        and _private(node.attr)
    ]
    return [f"{name}:{line} {what}" for line, what in sorted(found)]


def inline_validation(source: str, name: str) -> list[str]:
    """`file:line` of each `serializer.is_valid(raise_exception=True)`: input goes through base.api.validated."""
    return [
        f"{name}:{node.lineno}"
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "is_valid"
        and any(keyword.arg == "raise_exception" for keyword in node.keywords)
    ]


def api_views(source: str, name: str) -> list[str]:
    """`file:line class` of each class built on APIView (or imported under that name)."""
    return [
        f"{name}:{node.lineno} {node.name}"
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.ClassDef)
        for base in node.bases
        if (base.id if isinstance(base, ast.Name) else getattr(base, "attr", None)) == "APIView"
    ]


def _relative(path: Path) -> str:
    return str(path.relative_to(REPO))


def test_the_checks_catch_a_sample():
    sample = (
        "from clubs.selectors import _hidden\n"
        "class V:\n"
        "    queryset = Club.objects.none()\n"
        "    field = F(queryset=Player.objects.all())\n"
        "    def get(self):\n"
        "        s = S(data=1)\n"
        "        s.is_valid(raise_exception=True)\n"
        "        return Club.objects.filter(x=1)\n"
        "    other = Club.objects.all()\n"
        "class W(views.APIView):\n"
        "    pass\n"
    )
    assert orm_uses(sample, "s.py") == ["s.py:8", "s.py:9"]
    assert underscore_imports(sample, "s.py") == ["s.py:1 _hidden"]
    reach_in = "from chouette import services\nservices._lock(1)\nlocal._ok = Club._meta\n"
    assert underscore_imports(reach_in, "s.py") == ["s.py:2 services._lock"]
    assert inline_validation(sample, "s.py") == ["s.py:7"]
    assert api_views(sample, "s.py") == ["s.py:10 W"]
    assert underscore_imports("from __future__ import annotations\nfrom x import __version__\n", "s.py") == []


def test_views_api_and_panels_leave_the_orm_to_selectors():
    found = [
        use
        for path in _app_files()
        if _thin(path)
        for use in orm_uses(path.read_text(encoding="utf-8"), _relative(path))
    ]
    assert found == [], "Model.objects in a view, API or panel module (move it into the app's selectors): " + ", ".join(
        found
    )


def test_no_module_imports_another_modules_private_names():
    found = [
        use for path in _app_files() for use in underscore_imports(path.read_text(encoding="utf-8"), _relative(path))
    ]
    assert found == [], "underscore names imported from another module (make them public): " + ", ".join(found)


def test_api_input_goes_through_the_one_helper():
    found = [
        use
        for path in _app_files()
        if path != REPO / "base" / "api.py"
        for use in inline_validation(path.read_text(encoding="utf-8"), _relative(path))
    ]
    assert found == [], "inline is_valid(raise_exception=...) (use base.api.validated): " + ", ".join(found)


def test_every_api_is_written_as_viewsets():
    found = [
        use
        for path in _app_files()
        if path.name == "api.py" or "api" in path.parts[:-1]
        for use in api_views(path.read_text(encoding="utf-8"), _relative(path))
    ]
    assert found == [], "APIView in an API module (write a ViewSet action): " + ", ".join(found)
