"""Run every benchmark module in bench/ (`make bench`). Each prints lines `name: value unit`."""

import importlib
import os
import pkgutil
import sys
from pathlib import Path

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import django  # noqa: E402

django.setup()

only = sys.argv[1:]
failed = []
for module in sorted(pkgutil.iter_modules([str(Path(__file__).parent)]), key=lambda m: m.name):
    if module.name.startswith("bench_") and (not only or module.name in only):
        print(f"# {module.name}")
        try:
            importlib.import_module(f"bench.{module.name}").main()
        except SystemExit as stop:  # a bench that cannot measure says so and fails the run; the others still run
            if stop.code not in (None, 0):
                failed.append(module.name)
if failed:
    print(f"# FAILED: {', '.join(failed)}")
    sys.exit(1)
