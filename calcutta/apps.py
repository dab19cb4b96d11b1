from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _

from base.messages import register
from calcutta import core
from calcutta.messages import MESSAGES


class CalcuttaConfig(AppConfig):
    """Calcutta auctions on a tournament flight: an app of its own so its models and migrations evolve apart
    from the bracket's."""

    name = "calcutta"
    label = "calcutta"
    verbose_name = _("Calcutta auctions")
    nav_items = [(_("Calcuttas"), "calcutta:list")]
    panels = {
        "club": "calcutta.panels.club_panel",
        "event": "calcutta.panels.event_panel",
        "player": "calcutta.panels.player_panel",
    }

    def ready(self) -> None:
        # Every refusal of the Calcutta core reads in the reader's language, in the API and on the pages.
        register(core.CalcuttaError, MESSAGES)
