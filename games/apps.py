from importlib import import_module

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _

from base.queue import sweepers

ACCESS_RULES = ("games.matchplay.rules", "games.records.rules")


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Games")
    nav_items = [(_("Matches"), "games:match-list"), (_("Game records"), "games:record-list")]

    def ready(self) -> None:
        # Imported here, not at the top: an AppConfig module is imported before the models are ready.
        from games.records.services import sweep_due_records  # noqa: PLC0415 - the services import models

        sweepers.register(sweep_due_records)
        # clubs.access loads every app's <app>/rules.py, but the games app's `rules` is its pure rules engine
        # (games/rules/): its access rules live with their parts, and are registered here.
        for rules in ACCESS_RULES:
            import_module(rules)
