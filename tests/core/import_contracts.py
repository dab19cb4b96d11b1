"""The import-linter contracts of pyproject.toml ([tool.importlinter]), read and checked through import-linter's
own classes, so a test can hold them against the project's import graph with one import more: a contract that
still holds with an import it should refuse would be no check at all."""

import copy
from functools import cache

import grimp
from importlinter.api import read_configuration
from importlinter.contracts.forbidden import ForbiddenContract
from importlinter.contracts.layers import LayersContract

from tests.paths import REPO

CONTRACT_TYPES = {"layers": LayersContract, "forbidden": ForbiddenContract}


@cache
def configuration() -> dict:
    return read_configuration(str(REPO / "pyproject.toml"))


def contract_options(contract_id: str) -> dict:
    return next(options for options in configuration()["contracts_options"] if options.get("id") == contract_id)


@cache
def project_graph() -> grimp.ImportGraph:
    """Every import of the root packages, at the top of a module or inside a function (grimp reads the source)."""
    session = configuration()["session_options"]
    external = str(session.get("include_external_packages", False)).lower() == "true"
    return grimp.build_graph(*session["root_packages"], include_external_packages=external, cache_dir=None)


def kept(contract_id: str, adding: tuple[tuple[str, str], ...] = ()) -> bool:
    """Whether the contract holds for the project's imports plus `adding` ((importer, imported) pairs)."""
    graph = copy.deepcopy(project_graph())
    for importer, imported in adding:
        graph.add_import(importer=importer, imported=imported, line_number=1, line_contents=f"import {imported}")
    options = contract_options(contract_id)
    contract = CONTRACT_TYPES[options["type"]](
        name=options["name"], session_options=configuration()["session_options"], contract_options=options
    )
    return contract.check(graph, verbose=False).kept
