from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _

from base.messages import register
from tournaments.core.errors import BracketError
from tournaments.core.fees import FeeError
from tournaments.core.payout_tables import PayoutTableError
from tournaments.messages import FEE_MESSAGES, MESSAGES, PAYOUT_TABLE_MESSAGES


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
        import tournaments.formats  # noqa: F401, PLC0415 - fills the format registry the models read

        register(BracketError, MESSAGES)
        register(PayoutTableError, PAYOUT_TABLE_MESSAGES)
        register(FeeError, FEE_MESSAGES)
