from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Games")
    nav_items = [(_("Matches"), "games:match-list"), (_("Game records"), "games:record-list")]

    def ready(self) -> None:
        from base.queue import sweepers
        from games.records.services import sweep_due_records

        sweepers.register(sweep_due_records)
