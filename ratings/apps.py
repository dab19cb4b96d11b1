from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _

from base.messages import register
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
        "match": "ratings.panels.match_panel",
    }

    def ready(self) -> None:
        register(LadderError, LADDER_MESSAGES)
