import ast
from pathlib import Path

CORE = Path(__file__).resolve().parents[2] / "tournaments" / "core"


def test_the_bracket_core_imports_no_django():
    imported = set()
    for source in CORE.glob("*.py"):
        for node in ast.walk(ast.parse(source.read_text())):
            if isinstance(node, ast.Import):
                imported |= {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                imported.add(node.module.split(".")[0])
    assert len(list(CORE.glob("*.py"))) >= 7
    assert not imported & {"django", "rest_framework", "celery"}
