from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ChouetteConfig(AppConfig):
    name = "chouette"
    verbose_name = _("Chouette")
