"""Load the demo club and whatever each app adds to it. Safe to run again: every step looks up before it
creates."""

import importlib
import os
from dataclasses import dataclass, field

from django.core.management.base import BaseCommand

from base import locks

# Order matters: later apps build on the players and matches of the earlier ones (ratings rate the demo's
# club-night and tournament matches, then points award the finished event's points).
DEMO_APPS = ["clubs", "games", "tournaments", "calcutta", "ratings", "points", "chouette", "data"]


@dataclass
class DemoContext:
    password: str
    club: object = None
    director: object = None
    players: list = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    # Steps a higher app runs inside a lower app's demo (the Calcutta is sold between the tournaments demo's draw
    # and its first match): appended by an app's `prepare(context)`, called by the lower app's demo.
    after_draw_released: list = field(default_factory=list)


class Command(BaseCommand):
    help = "Create (or refresh) the demo club, its players, events and sessions."

    def handle(self, *args, **options):
        context = DemoContext(password=os.environ.get("DEMO_PASSWORD", "backgammon-demo"))
        modules = []
        for app in DEMO_APPS:
            try:
                modules.append(importlib.import_module(f"{app}.demo"))
            except ModuleNotFoundError as exc:
                if exc.name != f"{app}.demo":
                    raise
        for module in modules:
            if hasattr(module, "prepare"):
                module.prepare(context)
        for module in modules:
            with locks.batch():  # one transaction per app; its many service calls each keep the lock order
                module.load(context)
        for line in context.lines:
            self.stdout.write(line)
