"""The apps stand in layers, and an app imports only the layers below it:

    base < accounts < clubs < games < ratings < tournaments < calcutta | points,   chouette beside ratings,
    notifications above all of them (it listens to their hooks), config on top of everything.

So news travels up by hooks the lower app offers (base.hooks, clubs.hooks, games.matchplay.hooks,
tournaments.hooks, ratings.hooks) and panels the higher app registers, never by an import from below; and no
two apps import each other, not even through a lazy import inside a function (read from the source, like
tests/core/test_pure_cores.py). Calcutta and points are siblings: neither imports the other. Nobody imports
chouette but config and notifications.
"""

import ast
from pathlib import Path

import pytest
from django.conf import settings

from tests.paths import REPO

ORDER = ["base", "accounts", "clubs", "games", "ratings", "tournaments"]
# Each layer and the layers it may import (its own is always allowed).
MAY_IMPORT = {layer: set(ORDER[:index]) for index, layer in enumerate(ORDER)}
MAY_IMPORT["calcutta"] = set(ORDER)
MAY_IMPORT["points"] = set(ORDER)
MAY_IMPORT["chouette"] = set(ORDER[: ORDER.index("ratings") + 1])
MAY_IMPORT["notifications"] = set(ORDER) | {"calcutta", "points", "chouette"}
MAY_IMPORT["config"] = set(MAY_IMPORT) | {"config"}

PACKAGES = [
    "accounts", "base", "chouette", "clubs", "config", "games", "notifications", "points", "ratings", "tournaments",
]


def layer_of(module: str) -> str | None:
    """The layer of a project module (None for Django, the standard library, ...)."""
    parts = module.split(".")
    if parts[0] == "tournaments" and parts[1:2] == ["calcutta"]:
        return "calcutta"
    return parts[0] if parts[0] in PACKAGES else None


def _module_name(relative: Path) -> str:
    parts = relative.with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(relative: Path, source: str) -> list[tuple[int, str]]:
    """Every module the file imports, at the top or inside a function, with the line."""
    module = _module_name(relative)
    package = module if relative.name == "__init__.py" else module.rsplit(".", 1)[0]
    found = []
    for node in ast.walk(ast.parse(source, filename=str(relative))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                found.append((node.lineno, f"{base}.{node.module}" if node.module else base))
            else:
                found.append((node.lineno, node.module))
    return found


def upward_imports(relative: Path, source: str) -> list[str]:
    """The imports of one file that run back up the layers, each as "path:line imports module (why)"."""
    layer = layer_of(_module_name(relative))
    upward = []
    for line, module in _imports(relative, source):
        target = layer_of(module)
        if target is not None and target != layer and target not in MAY_IMPORT[layer]:
            upward.append(f"{relative}:{line} imports {module} ({layer} may not import {target})")
    return upward


def test_every_app_has_a_layer():
    """A new app gets its place in the order above before it can import anything."""
    apps = {name.split(".apps.")[0] for name in settings.INSTALLED_APPS}
    project_apps = {app for app in apps if (REPO / app.replace(".", "/")).is_dir()}
    assert {"base", "clubs", "tournaments.calcutta", "points"} <= project_apps
    assert {layer_of(app) for app in project_apps} <= set(MAY_IMPORT)


@pytest.mark.parametrize("package", PACKAGES)
def test_no_import_runs_back_up_the_layers(package):
    sources = sorted((REPO / package).rglob("*.py"))
    assert sources, f"{package} holds no Python source"
    upward = [found for path in sources for found in upward_imports(path.relative_to(REPO), path.read_text())]
    assert upward == [], (
        "An import runs back up the layers (base < accounts < clubs < games < ratings < tournaments < calcutta | "
        "points; chouette beside ratings; config on top). Let the lower app offer a hook or a panel that the "
        "higher one registers with, or move the code up:\n" + "\n".join(upward)
    )


@pytest.mark.parametrize(
    ("path", "source", "found"),
    [
        ("ratings/services/pools.py", "def f():\n    from tournaments.models import Event\n", "tournaments"),
        ("base/views.py", "from clubs import selectors\n", "clubs"),
        ("points/services.py", "from tournaments.calcutta import services\n", "calcutta"),
        ("tournaments/calcutta/api.py", "from ..services import draws\n", None),
        ("tournaments/calcutta/services.py", "import points.services\n", "points"),
        ("tournaments/views.py", "from chouette.models import Session\n", "chouette"),
        ("tournaments/calcutta/selectors.py", "from ratings.selectors import player_ratings\n", None),
        ("tournaments/calcutta/api.py", "from . import selectors\n", None),
        ("config/urls.py", "from chouette import views\n", None),
    ],
)
def test_the_check_tells_an_upward_import_from_a_downward_one(path, source, found):
    upward = upward_imports(Path(path), source)
    if found is None:
        assert upward == []
    else:
        assert len(upward) == 1 and upward[0].startswith(f"{path}:") and upward[0].endswith(f"import {found})")
