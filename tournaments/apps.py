from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _

from accounts import badges
from base.messages import register
from tournaments.core.errors import BracketError
from tournaments.messages import MESSAGES


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = _("Tournaments")
    nav_items = [(_("Events"), "tournaments:event-list")]
    panels = {
        "player": "tournaments.panels.player_panel",
        "my_home": "tournaments.panels.my_home",
        "match": "tournaments.panels.match_panel",
    }

    def ready(self) -> None:
        # Imported here, not at the top: an AppConfig module is imported before the models are ready.
        from tournaments import receivers  # noqa: PLC0415 - the receivers import models, not loaded yet
        from tournaments.selectors import directs_open_events_subquery  # noqa: PLC0415 - imports models

        register(BracketError, MESSAGES)
        receivers.register()
        badges.register("directs_open_events", directs_open_events_subquery)  # the home page's director list
