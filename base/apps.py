from django.apps import AppConfig
from django.utils.module_loading import autodiscover_modules
from django.utils.translation import gettext_lazy as _

from base import numbers
from base.messages import register


class BaseConfig(AppConfig):
    """The shared base app: health, the demo loader, the API and web plumbing every app uses.

    Its package is `base` so that it cannot be mistaken for the pure `core` packages of the other apps
    (`calcutta.core`, `chouette.core`, ...); its app label stays `core` so that its migrations,
    tables and content types stay as they were.
    """

    name = "base"
    label = "core"
    verbose_name = _("Site")

    def ready(self) -> None:
        # Every app's <app>/tasks.py registers its Celery tasks: loading them here means a service can send a task
        # by its name (base.queue) in the web process too, without importing the tasks module that imports it.
        autodiscover_modules("tasks")
        from base.fields import MESSAGES  # noqa: PLC0415 - the number fields import DRF, which needs the settings

        register(numbers.NumberError, MESSAGES)
