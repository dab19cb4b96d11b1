from django.apps import AppConfig
from django.utils.module_loading import autodiscover_modules
from django.utils.translation import gettext_lazy as _


class ClubsConfig(AppConfig):
    name = "clubs"
    verbose_name = _("Clubs")
    nav_items = [(_("Clubs"), "clubs:club-list")]
    panels = {"home": "clubs.panels.home_panel"}

    def ready(self) -> None:
        # Every app's <app>/rules.py registers its actions with clubs.access; loading them here means a rule
        # exists before the first request or service call asks for it.
        autodiscover_modules("rules")
