from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CalcuttaConfig(AppConfig):
    """Calcutta auctions on a tournament flight: an app of its own so its models and migrations evolve apart
    from the bracket's."""

    name = "tournaments.calcutta"
    label = "calcutta"
    verbose_name = _("Calcutta auctions")
