"""Every algorithm lives in a pure core that imports no Django: rules, record formats, verification,
match scoring, brackets, Calcutta, ratings and points, chouette. A core may import other pure cores, never the
apps' models, services, hooks or the web frameworks, not even through a lazy import inside a function.

The rule is the import-linter contract "pure-cores" in pyproject.toml, which `lint-imports` checks in `make lint`,
CI and tests/core/test_layers.py. The tests here keep its list of cores the one mypy type-checks and hold the
contract to account: an import it should refuse must break it.
"""

import tomllib

import pytest

from tests.core.import_contracts import contract_options, kept
from tests.paths import REPO


def pure_cores() -> list[str]:
    return contract_options("pure-cores")["source_modules"]


def test_the_pure_cores_are_what_mypy_checks():
    mypy_files = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["mypy"]["files"]
    assert set(pure_cores()) == {entry.removesuffix(".py").replace("/", ".") for entry in mypy_files}
    for core in pure_cores():
        path = REPO / core.replace(".", "/")
        assert (path / "__init__.py").is_file() or path.with_suffix(".py").is_file(), f"{core} holds no source"


@pytest.mark.parametrize(
    ("importer", "imported", "holds"),
    [
        ("backgammon.board", "games.models", False),  # a model imported into the engine
        ("tournaments.core.draw", "tournaments.models", False),
        ("games.matchplay.state", "games.matchplay.models", False),
        ("chouette.core.scoring", "django", False),
        ("calcutta.core.money", "celery", False),
        ("ratings.core.fibs", "tournaments.hooks", False),  # no Django in it, but an app's module, no core
        ("loadtest.core", "loadtest.stack", False),
        ("notifications.outbound", "notifications.models", False),
        ("tournaments.core.draw", "ratings.core.fibs", True),  # another pure core
        ("chouette.core.scoring", "backgammon.cube", True),
        ("tournaments.core.payouts", "base.numbers", True),
        ("tournaments.core.engine", "tournaments.core.layout", True),
    ],
)
def test_an_impure_import_breaks_the_contract(importer, imported, holds):
    assert kept("pure-cores") is True
    assert kept("pure-cores", adding=((importer, imported),)) is holds
