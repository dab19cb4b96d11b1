from importlib import import_module

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _

ACCESS_RULES = ("games.matchplay.rules", "games.records.rules")


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Games")
    nav_items = [(_("Matches"), "games:match-list"), (_("Game records"), "games:record-list")]

    def ready(self) -> None:
        from base.queue import sweepers
        from games.records.services import sweep_due_records

        sweepers.register(sweep_due_records)
        # clubs.access loads every app's <app>/rules.py, but the games app's `rules` is its pure rules engine
        # (games/rules/): its access rules live with their parts, and are registered here.
        for rules in ACCESS_RULES:
            import_module(rules)
