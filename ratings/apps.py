from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RatingsConfig(AppConfig):
    name = "ratings"
    verbose_name = _("Ratings")
    nav_items = [(_("Ratings"), "ratings:rating-list")]
    panels = {
        "player": "ratings.panels.player_panel",
        "club": "ratings.panels.club_panel",
        "event": "ratings.panels.event_panel",
    }

    def ready(self) -> None:
        from base.messages import register
        from base.queue import sweepers
        from clubs.hooks import approval_changed
        from games.matchplay.hooks import on_result_confirmed
        from ratings import ladder_services, points_services, services
        from ratings.core.ladder import LadderError
        from ratings.messages import LADDER_MESSAGES
        from tournaments.hooks import on_flight_results_changed

        register(LadderError, LADDER_MESSAGES)
        on_result_confirmed(services.on_result_confirmed)
        on_result_confirmed(ladder_services.on_result_confirmed)
        on_flight_results_changed(points_services.on_flight_results_changed)
        approval_changed.register(services.on_club_approval_changed)
        sweepers.register(services.sweep_pending_pools)
