from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _

from base.messages import register
from base.queue import sweepers
from clubs.hooks import approval_changed
from games.matchplay.hooks import on_result_confirmed
from ratings.core.ladder import LadderError
from ratings.messages import LADDER_MESSAGES


class RatingsConfig(AppConfig):
    name = "ratings"
    verbose_name = _("Ratings")
    nav_items = [(_("Ratings"), "ratings:rating-list")]
    panels = {
        "player": "ratings.panels.player_panel",
        "club": "ratings.panels.club_panel",
        "my_home": "ratings.panels.my_home",
    }

    def ready(self) -> None:
        # Imported here, not at the top: an AppConfig module is imported before the models are ready.
        from ratings.services import ladders, pools  # noqa: PLC0415 - the services import models, not loaded yet

        register(LadderError, LADDER_MESSAGES)
        on_result_confirmed(pools.on_result_confirmed)
        on_result_confirmed(ladders.on_result_confirmed)
        approval_changed.register(pools.on_club_approval_changed)
        sweepers.register(pools.sweep_pending_pools)
