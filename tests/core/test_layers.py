"""The apps stand in layers, and an app imports only the layers below it:

    backgammon < base < accounts < clubs < games < ratings < tournaments < calcutta | points | chouette
    < notifications < config

(the engine imports no app but base's two pure modules, base.errors and base.text; chouette stands beside the
tournaments, using ratings and below). So news travels up by hooks the lower app offers (base.hooks,
clubs.hooks, games.matchplay.hooks, tournaments.hooks, ratings.hooks) and panels the higher app registers,
never by an import from below; and no two apps import each other, not even through a lazy import inside a
function. Calcutta, points and chouette are siblings: none imports another, so nobody imports chouette but
config and notifications.

The rules are import-linter contracts in pyproject.toml ([tool.importlinter]); `lint-imports` checks them in
`make lint` and CI, and here. The tests below hold the contracts themselves to account: each import the layers
refuse must break them, each they allow must not.
"""

import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings

from tests.core.import_contracts import contract_options, kept, project_graph
from tests.paths import REPO


def layers() -> list[set[str]]:
    """The layers of the contract, highest first, each a set of apps."""
    return [{name.strip() for name in layer.split("|")} for layer in contract_options("layers")["layers"]]


def test_every_app_has_a_layer():
    """A new app gets its place in the order before it can import anything."""
    apps = {name.split(".apps.")[0] for name in settings.INSTALLED_APPS}
    project_apps = {app for app in apps if (REPO / app.replace(".", "/")).is_dir()}
    assert {"base", "clubs", "calcutta", "points"} <= project_apps
    placed = set().union(*layers())
    assert {app.split(".")[0] for app in project_apps} <= placed
    assert "backgammon" in placed  # the engine is no installed app, but it has its place: the bottom


def test_the_contracts_hold():
    """What `make lint` and CI run: every contract of pyproject.toml, on the whole source."""
    lint_imports = Path(sys.executable).parent / "lint-imports"
    found = subprocess.run([str(lint_imports), "--no-cache"], cwd=REPO, capture_output=True, text=True, timeout=300)
    assert found.returncode == 0, found.stdout + found.stderr


def test_the_graph_holds_lazy_imports():
    """An import inside a function counts as much as one at the top (AccountsConfig.ready imports its signals)."""
    assert project_graph().direct_import_exists(importer="accounts.apps", imported="accounts.signals")


@pytest.mark.parametrize(
    ("contract", "importer", "imported", "holds"),
    [
        ("layers", "backgammon.board", "games.models", False),  # a model imported into the engine
        ("layers", "backgammon.board", "base.hooks", False),  # the engine takes only base's two pure modules
        ("layers", "backgammon.board", "base.errors", True),
        ("layers", "ratings.services.pools", "tournaments.models", False),
        ("layers", "base.views", "clubs.selectors", False),
        ("layers", "points.services", "calcutta.services", False),  # siblings
        ("layers", "calcutta.services", "points.services", False),
        ("layers", "tournaments.views", "chouette.models", False),  # nobody imports chouette ...
        ("layers", "config.urls", "chouette.views", True),  # ... but config and notifications
        ("layers", "notifications.services", "chouette.models", True),
        ("layers", "calcutta.selectors", "ratings.selectors", True),
        ("layers", "clubs.services", "clubs.selectors", True),
        ("chouette-beside-tournaments", "chouette.services", "tournaments.models", False),
        ("chouette-beside-tournaments", "chouette.services", "ratings.models", True),
    ],
)
def test_an_import_against_the_layers_breaks_the_contract(contract, importer, imported, holds):
    assert kept(contract) is True
    assert kept(contract, adding=((importer, imported),)) is holds
