"""Event points: the code that reads a tournament's places and turns them into points awards. It sits above
tournaments (it imports tournaments; nothing below imports it), while its tables stay in the ratings app, whose
leaderboards and seasons sum the awards."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PointsConfig(AppConfig):
    name = "points"
    verbose_name = _("Event points")
    panels = {"event": "points.panels.event_panel"}
