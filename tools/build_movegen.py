"""Build backgammon/compiled_moves.c, the compiled move generator, next to its source (`make install` runs this).

Why a plain compiler call and not a package build: the extension is one C file with no dependency but
Python's headers, and the project is not an installed package. Without a C compiler or the headers the build
says so and stops without failing: moves.py then uses its pure Python generator, which gives the same results
(tests/backgammon/test_movegen_c.py) more slowly. The built file is not committed (.gitignore).

    python tools/build_movegen.py [TARGET_DIR]     (default: backgammon)
"""

from __future__ import annotations

import shlex
import subprocess
import sys
import sysconfig
from pathlib import Path

SOURCE = Path(__file__).resolve().parent.parent / "backgammon" / "compiled_moves.c"


def build(target_dir: Path = SOURCE.parent) -> Path | None:
    """Compile the extension into `target_dir`; its path, or None (with the reason on stderr) when it cannot."""
    target = target_dir / f"compiled_moves{sysconfig.get_config_var('EXT_SUFFIX') or '.so'}"
    if target.exists() and target.stat().st_mtime >= SOURCE.stat().st_mtime:
        return target
    compiler = shlex.split(sysconfig.get_config_var("CC") or "cc")
    include = sysconfig.get_paths()["include"]
    if not Path(include, "Python.h").exists():
        print(f"build_movegen: no Python.h under {include}; the pure Python generator serves", file=sys.stderr)
        return None
    command = [*compiler, "-O2", "-shared", "-fPIC", f"-I{include}", str(SOURCE), "-o", str(target)]
    try:
        subprocess.run(command, check=True, capture_output=True, text=True)
    except (OSError, subprocess.CalledProcessError) as error:
        detail = getattr(error, "stderr", "") or str(error)
        print(f"build_movegen: {' '.join(command)} failed; the pure Python generator serves\n{detail}", file=sys.stderr)
        return None
    return target


if __name__ == "__main__":
    built = build(Path(sys.argv[1]) if len(sys.argv) > 1 else SOURCE.parent)
    print(f"build_movegen: {built}" if built else "build_movegen: not built")
