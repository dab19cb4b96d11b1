from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _

from base.messages import register
from chouette.core.errors import ChouetteError
from chouette.messages import MESSAGES


class ChouetteConfig(AppConfig):
    name = "chouette"
    verbose_name = _("Chouette")
    nav_items = [(_("Chouette"), "chouette:session-list")]
    panels = {
        "player": "chouette.panels.player_panel",
        "club": "chouette.panels.club_panel",
        "my_home": "chouette.panels.my_home",
    }

    def ready(self) -> None:
        register(ChouetteError, MESSAGES)
