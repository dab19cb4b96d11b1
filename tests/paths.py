"""Where the tests find the repository and its match-record corpus (tests/data/corpus, see its README)."""

from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
CORPUS = REPO / "tests" / "data" / "corpus"
