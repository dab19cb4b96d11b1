from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _

from base.messages import register
from tournaments.calcutta import core
from tournaments.calcutta.messages import MESSAGES
from tournaments.hooks import on_flight_results_changed


class CalcuttaConfig(AppConfig):
    """Calcutta auctions on a tournament flight: an app of its own so its models and migrations evolve apart
    from the bracket's."""

    name = "tournaments.calcutta"
    label = "calcutta"
    verbose_name = _("Calcutta auctions")
    nav_items = [(_("Calcuttas"), "calcutta:list")]
    panels = {
        "club": "tournaments.calcutta.panels.club_panel",
        "event": "tournaments.calcutta.panels.event_panel",
        "player": "tournaments.calcutta.panels.player_panel",
    }

    def ready(self) -> None:
        # Imported here, not at the top: an AppConfig module is imported before the models are ready.
        from tournaments.calcutta import services  # noqa: PLC0415 - the services import models

        # Every refusal of the Calcutta core reads in the reader's language, in the API and on the pages.
        register(core.CalcuttaError, MESSAGES)
        # A confirmed, corrected or voided result in the bracket re-settles the event's Calcuttas.
        on_flight_results_changed(services.on_flight_results_changed)
