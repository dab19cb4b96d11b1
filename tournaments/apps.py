from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = _("Tournaments")
    nav_items = [(_("Events"), "tournaments:event-list")]
    panels = {"player": "tournaments.panels.player_panel"}

    def ready(self) -> None:
        from base.messages import register
        from tournaments import receivers
        from tournaments.core.errors import BracketError
        from tournaments.messages import MESSAGES

        register(BracketError, MESSAGES)
        receivers.register()
