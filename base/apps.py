from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class BaseConfig(AppConfig):
    """The shared base app: health, the demo loader, the API and web plumbing every app uses.

    Its package is `base` so that it cannot be mistaken for the pure `core` packages of the other apps
    (`tournaments.calcutta.core`, `chouette.core`, ...); its app label stays `core` so that its migrations,
    tables and content types stay as they were.
    """

    name = "base"
    label = "core"
    verbose_name = _("Site")

    def ready(self) -> None:
        from base import numbers
        from base.fields import MESSAGES
        from base.messages import register

        register(numbers.NumberError, MESSAGES)
