"""The compiled move generator for the tests that hold it to the pure Python one."""

import importlib.util

import pytest

from backgammon import moves
from tools.build_movegen import build


@pytest.fixture(scope="session")
def compiled(tmp_path_factory):
    """The built extension (make install builds it), else one built for this test run."""
    if moves.compiled is not None:
        return moves.compiled
    built = build(tmp_path_factory.mktemp("movegen"))
    if built is None:
        pytest.skip("no C compiler or Python headers here: only the pure Python generator exists to test")
    spec = importlib.util.spec_from_file_location("compiled_moves", built)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
