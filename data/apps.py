from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class DataConfig(AppConfig):
    name = "data"
    verbose_name = _("Data in and out")
