"""Event points: the code that reads a tournament's places and turns them into points awards. It sits above
tournaments (it imports tournaments; nothing below imports it), while its tables stay in the ratings app, whose
leaderboards and seasons sum the awards."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _

from tournaments.hooks import on_flight_results_changed


class PointsConfig(AppConfig):
    name = "points"
    verbose_name = _("Event points")
    panels = {"event": "points.panels.event_panel"}

    def ready(self) -> None:
        # Imported here, not at the top: an AppConfig module is imported before the models are ready.
        from points import services  # noqa: PLC0415 - the services import models, not loaded yet

        on_flight_results_changed(services.on_flight_results_changed)
