"""Where the shared match records live: `shared/` stands beside the repository (a clone, CI's fresh clone)."""

import os
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("SHARED_DIR", REPO.parent / "shared"))
CORPUS = SHARED / "corpus"
